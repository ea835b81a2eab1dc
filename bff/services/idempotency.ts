import { createHmac, createSecretKey, hkdfSync, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { AppError, idempotencyMismatch } from '../errors.ts';
import {
  completeIdempotencyKey,
  findIdempotencyKey,
  insertIdempotencyKey,
  takeOverIdempotencyKey,
  type IdempotencyClaim,
  type IdempotencyScope,
} from '../repositories/idempotency.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';

export type { IdempotencyScope };

/** How long a key answers with its first response (protocol.md 4.12); older keys count as never used. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim holds before a retry may take it over: far longer than any request takes (the processor call
 * included), short enough that a key whose process died is usable again in a minute rather than in 24 hours. A
 * request that does outlive it is still safe: the services' own guards (one attempt processing per order, one
 * successful payment, order create idempotent on its reference) keep a second run from doing anything twice.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

/** What the request with this key does: run (holding `token`), or answer with the stored first response. */
export type IdempotencyClaimResult = { kind: 'run'; token: string } | { kind: 'replay'; status: number; body: string };

/** The request a key was first used for: its method, route, path parameters and payload (plain or decrypted). */
export type IdempotentRequest = { method: string; route: string; params: unknown; payload: unknown };

/** JSON with every object's keys sorted and undefined members left out: one text for one meaning. */
export function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const stillRunning = () =>
  new AppError('CON409', 'A request with this Idempotency-Key is still being processed. Retry shortly to get its answer.', {
    headers: { 'retry-after': '1' },
  });

/**
 * Idempotency keys: the first request with a key runs and its answer (status and body, 5xx included) is stored;
 * the same request again within 24 hours gets that answer; another request under the key is IDEM422; a retry
 * while the first still runs is CON409. Times come from the app clock.
 */
export class IdempotencyService {
  readonly #fingerprintKey: KeyObject;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    masterKey: Buffer,
  ) {
    // Keyed (HMAC), not a bare SHA-256: a card payment's payload holds the card number, and PCI DSS wants any hash
    // over a PAN keyed, or a bare digest could be brute-forced from the BIN and last four.
    this.#fingerprintKey = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout idempotency fingerprints', 32)));
  }

  /**
   * Whose key space a caller uses within its merchant and mode. The secret key sees everything, so it has one space;
   * a publishable key is public, so its callers are told apart by their grants (the order of a client token, the
   * customer of a customer session): a stored answer holds what the grants let its first caller see, and goes only
   * to a caller holding the same grants. The spaces never meet, so a browser can neither read the answer of the
   * merchant's server nor take a key the server will use (`refund-<reference>`).
   */
  scopeOf(caller: Pick<Caller, 'merchant' | 'mode' | 'kind' | 'orderGrant' | 'shopper'>): IdempotencyScope {
    const scope = { merchantId: caller.merchant.id, mode: caller.mode };
    if (caller.kind === 'secret') return { ...scope, caller: 'secret' };
    const grants = canonicalJson({ order: caller.orderGrant ?? null, shopper: caller.shopper?.id ?? null });
    return { ...scope, caller: `publishable:${createHmac('sha256', this.#fingerprintKey).update(`grants ${grants}`).digest('base64url')}` };
  }

  /** What identifies "the same request": never stored itself, only its keyed digest. */
  fingerprint(request: IdempotentRequest): Buffer {
    const text = canonicalJson({ method: request.method.toUpperCase(), route: request.route, params: request.params ?? {}, payload: request.payload });
    return createHmac('sha256', this.#fingerprintKey).update(text).digest();
  }

  async claim(scope: IdempotencyScope, key: string, fingerprint: Buffer): Promise<IdempotencyClaimResult> {
    const now = this.clock.now();
    const token = randomUUID();
    const claim = (createdAt: Date): IdempotencyClaim => ({
      fingerprint,
      claimToken: token,
      leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      createdAt,
    });
    // Each pass either wins or meets a row another request changed meanwhile; a few passes settle any race.
    for (let pass = 0; pass < 3; pass += 1) {
      if (await insertIdempotencyKey(this.storage, scope, key, claim(now))) return { kind: 'run', token };
      const existing = await findIdempotencyKey(this.storage, scope, key);
      if (!existing) continue;
      if (existing.createdAt.getTime() + IDEMPOTENCY_WINDOW_MS <= now.getTime()) {
        // Out of its window: the key is free for any request, which starts a new window.
        if (await takeOverIdempotencyKey(this.storage, scope, key, existing.claimToken, claim(now))) return { kind: 'run', token };
        continue;
      }
      if (existing.fingerprint.length !== fingerprint.length || !timingSafeEqual(existing.fingerprint, fingerprint)) {
        throw idempotencyMismatch(
          'This Idempotency-Key was already used for another request (another operation or another body) in the last 24 hours. Send a new key for a new request.',
        );
      }
      if (existing.response) return { kind: 'replay', status: existing.response.status, body: existing.response.body };
      if (existing.leaseUntil.getTime() > now.getTime()) throw stillRunning();
      // The request holding it stopped answering (its process died): this one runs instead, in the same window.
      if (await takeOverIdempotencyKey(this.storage, scope, key, existing.claimToken, claim(existing.createdAt))) return { kind: 'run', token };
    }
    throw stillRunning();
  }

  /** Stores the answer of the claim `token` holds (ignored when the claim was taken over meanwhile). */
  async complete(scope: IdempotencyScope, key: string, token: string, response: { status: number; body: string }): Promise<void> {
    await completeIdempotencyKey(this.storage, scope, key, token, { ...response, completedAt: this.clock.now() });
  }
}
