import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { FrameTokens } from '../crypto/frame-token.ts';
import type { Caller } from '../domain/merchant.ts';
import { forbidden, unauthenticated } from '../errors.ts';
import { isOriginAllowed } from '../security/origins.ts';

/**
 * Routes declare who may call them with `config: { auth: 'any' | 'secret' }`. The `api-key` header resolves
 * merchant, mode and key kind before the body is read, so unauthenticated requests cost no parsing.
 *
 * The checkout frame also sends its frame session token (`checkout-session`) on every call. The token names the
 * merchant, the mode and the page origin the backend checked when it opened the session; the key the embedding
 * page posted to the frame must belong to that merchant and mode, or a page at one merchant's allowed origin
 * could show another merchant's checkout (or a live checkout in a test session).
 */
export type AuthRequirement = 'any' | 'secret';

export const FRAME_SESSION_HEADER = 'checkout-session';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Signs and verifies the checkout frame's session tokens. */
    frameTokens: FrameTokens;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route has no auth requirement');
  return request.caller;
}

export default fp<{ masterKey: Buffer }>(
  async (app, { masterKey }) => {
    app.decorate('frameTokens', new FrameTokens(masterKey));
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      const requirement = request.routeOptions.config.auth;
      if (!requirement) return;
      const header = request.headers['api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || key.trim() === '') throw unauthenticated('The api-key header is required.');
      const caller = await app.merchants.authenticate(key.trim());
      if (!caller) throw unauthenticated('The api-key is not valid.');
      if (caller.merchant.disabled) throw forbidden('This merchant account is disabled.');
      if (requirement === 'secret' && caller.kind !== 'secret') {
        throw forbidden('This operation needs the secret key; a publishable key was sent.');
      }
      checkFrameSession(app.frameTokens, request, caller, app.clock.now());
      request.caller = caller;
    });
  },
  { name: 'auth', dependencies: ['services'] },
);

/** A call from the checkout frame: the key must be the one the frame's session was opened for. */
function checkFrameSession(tokens: FrameTokens, request: FastifyRequest, caller: Caller, now: Date): void {
  const header = request.headers[FRAME_SESSION_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (token === undefined) return;
  const claims = tokens.verify(token, now);
  if (!claims) throw forbidden('The checkout session is not valid or has expired. Reload the page to start again.');
  if (claims.merchantId !== caller.merchant.id) {
    throw forbidden("The api-key belongs to another merchant than this checkout session's; a page may only show its own merchant's checkout.");
  }
  if (claims.mode !== caller.mode) {
    throw forbidden(`The api-key is a ${caller.mode} key but this checkout session was opened with a ${claims.mode} key.`);
  }
  if (!isOriginAllowed(claims.origin, caller.merchant, claims.mode)) {
    throw forbidden(`The origin ${claims.origin} is no longer allowed to embed this merchant's checkout.`);
  }
}
