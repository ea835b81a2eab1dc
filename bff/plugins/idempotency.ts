import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { invalid } from '../errors.ts';
import { IdempotencyService, type IdempotencyScope } from '../services/idempotency.ts';
import { callerOf } from './auth.ts';

/**
 * `Idempotency-Key` (protocol.md 4.12) on the routes that change something. A route opts in with one config
 * line: `idempotent: true` for a plain body, `idempotent: { plain: schema }` for an encrypted one, so "the same
 * request" means the same decrypted payload (a retry re-encrypts with a fresh IV, so its ciphertext differs), and
 * `idempotent: { plain: schema, clear: true }` for a body taken plain or encrypted (refund): without `data` the
 * validated plain body is the payload, so the same request plain or encrypted is the same request.
 *
 * Before the handler runs: the header is checked, the payload decrypted and validated (once; the handler's
 * `decryptPayload` reuses it) and the key claimed, or the stored answer is sent instead. Answers given before
 * the claim (authentication, validation, unreadable data, a full decryption pool) are not stored, so a fixed
 * request may reuse its key. Once claimed, whatever the route answers is stored, error envelopes and 5xx included.
 * Routes without the option ignore the header.
 */
export type IdempotencyOption = true | { plain: z.ZodType; clear?: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotent?: IdempotencyOption;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on a stored answer sent again, so a client can tell a replay from a first answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

type HeldClaim = { scope: IdempotencyScope; key: string; token: string };
const heldClaims = new WeakMap<FastifyRequest, HeldClaim>();

function readKey(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (!KEY_PATTERN.test(key) || key.trim() === '') {
    throw invalid('The Idempotency-Key header must be 1 to 255 printable ASCII characters.');
  }
  return key;
}

export default fp<{ masterKey: Buffer }>(
  async (app, { masterKey }) => {
    const service = new IdempotencyService(app.storage, app.clock, masterKey);

    app.addHook('onRoute', (route) => {
      if (route.config?.idempotent && !route.config.auth) {
        throw new Error(`${String(route.method)} ${route.url}: an idempotent route needs an auth requirement (keys are per merchant, mode and caller)`);
      }
    });

    app.addHook('preHandler', async (request, reply) => {
      const option = request.routeOptions.config.idempotent;
      if (!option) return;
      const key = readKey(request);
      if (key === undefined) return;
      const caller = callerOf(request);
      const sentPlain = option === true || (option.clear === true && (request.body as { data?: unknown } | undefined)?.data === undefined);
      const payload = sentPlain ? request.body : await request.decryptPayload(option.plain);
      const fingerprint = service.fingerprint({ method: request.method, route: request.routeOptions.url ?? request.url, params: request.params, payload });
      const scope = service.scopeOf(caller);
      const claim = await service.claim(scope, key, fingerprint);
      if (claim.kind === 'replay') {
        return reply.code(claim.status).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(claim.body);
      }
      heldClaims.set(request, { scope, key, token: claim.token });
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const held = heldClaims.get(request);
      if (!held) return payload;
      heldClaims.delete(request);
      // API answers are JSON text by the time they are sent.
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
      try {
        if (body === undefined) throw new Error('the answer is not text');
        await service.complete(held.scope, held.key, held.token, { status: reply.statusCode, body });
      } catch (error) {
        // The answer still goes out; the key stays claimed until its lease ends, and then a retry runs again.
        request.log.error({ err: error }, 'the answer to an idempotent request could not be stored');
      }
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['services', 'auth', 'decrypt', 'envelope'] },
);
