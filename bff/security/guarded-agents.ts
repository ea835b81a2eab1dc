import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import http, { type ClientRequestArgs } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { addressReason, hostReason, refusedBy, type DestinationPolicy, type RefusalReason } from './destinations.ts';

/**
 * The HTTP agents outbound requests to merchant-chosen URLs go through (webhook deliveries). Each connection is
 * checked where it is made: a name is resolved once, every address it resolves to must be allowed
 * (`destinations.ts`), and the socket connects to exactly those addresses, so a name that answers a public address
 * when registered and a private one later (DNS rebinding) reaches nothing inside. An IP address in the URL, which
 * Node connects to without a lookup, is checked by the same rule before connecting.
 */

/** How a name is resolved; tests give their own, so no query leaves the machine. */
export type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: Resolve = (hostname) => systemLookup(hostname, { all: true, order: 'verbatim' });

/** A connection the policy refused: nothing was sent to the destination. */
export class DestinationRefusedError extends Error {
  readonly code = 'EDESTINATIONREFUSED';
  constructor(readonly reason: RefusalReason | 'unresolved') {
    super(`The destination is not allowed (${reason}).`);
    this.name = 'DestinationRefusedError';
  }
}

type ConnectionCallback = (error: Error | null, stream: Duplex) => void;

class DestinationGuard {
  constructor(
    private readonly policy: DestinationPolicy,
    private readonly resolve: Resolve,
  ) {}

  /** A `net` lookup that answers only addresses the policy allows, or refuses the whole name. */
  readonly lookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
    const refuse = (reason: RefusalReason | 'unresolved') => callback(new DestinationRefusedError(reason), '', 0);
    const byName = refusedBy(this.policy, hostReason(hostname));
    if (byName) return refuse(byName);
    this.resolve(hostname).then(
      (addresses) => {
        // One refused address refuses the name: a connection may try any of them (happy eyeballs).
        for (const { address } of addresses) {
          const reason = refusedBy(this.policy, addressReason(address));
          if (reason) return refuse(reason);
        }
        const usable = options.family === 4 || options.family === 6 ? addresses.filter(({ family }) => family === options.family) : addresses;
        const [first] = usable;
        if (!first) return refuse('unresolved');
        if (options.all) callback(null, [...usable]);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  /** Opens the connection with `open`, after refusing an IP-literal host the policy does not allow. */
  connect(options: ClientRequestArgs, callback: ConnectionCallback | undefined, open: (options: ClientRequestArgs) => Duplex | null | undefined) {
    const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) {
      const reason = refusedBy(this.policy, addressReason(host));
      if (reason) {
        callback?.(new DestinationRefusedError(reason), undefined as unknown as Duplex);
        return undefined;
      }
      return open(options);
    }
    return open({ ...options, lookup: this.lookup });
  }
}

class GuardedHttpAgent extends http.Agent {
  constructor(private readonly guard: DestinationGuard) {
    super({ keepAlive: false });
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex | null | undefined {
    return this.guard.connect(options, callback, (guarded) => super.createConnection(guarded, callback));
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly guard: DestinationGuard) {
    super({ keepAlive: false });
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex | null | undefined {
    return this.guard.connect(options, callback, (guarded) => super.createConnection(guarded, callback));
  }
}

export type GuardedAgents = { 'http:': http.Agent; 'https:': https.Agent };

/** One agent per scheme, connecting only where `policy` allows. */
export function guardedAgents(policy: DestinationPolicy, resolve: Resolve = systemResolve): GuardedAgents {
  const guard = new DestinationGuard(policy, resolve);
  return { 'http:': new GuardedHttpAgent(guard), 'https:': new GuardedHttpsAgent(guard) };
}
