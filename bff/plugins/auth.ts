import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { ClientTokens } from '../crypto/client-tokens.ts';
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
/** An order's client token, which the merchant's server got when it created the order with the secret key. */
export const CLIENT_TOKEN_HEADER = 'checkout-client-token';
/** A customer session, which the merchant's server opened for a customer it vouches for. */
export const CUSTOMER_SESSION_HEADER = 'checkout-customer-session';

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

export default fp(
  async (app) => {
    app.decorate('frameTokens', new FrameTokens(app.signedTokens));
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request, reply) => {
      const requirement = request.routeOptions.config.auth;
      if (!requirement) return;
      const key = header(request, 'api-key');
      if (!key || key.trim() === '') throw unauthenticated('The api-key header is required.');
      const caller = await app.merchants.authenticate(key.trim());
      if (!caller) throw unauthenticated('The api-key is not valid.');
      if (caller.merchant.disabled) throw forbidden('This merchant account is disabled.');
      if (requirement === 'secret' && caller.kind !== 'secret') {
        throw forbidden('This operation needs the secret key; a publishable key was sent.');
      }
      const frameOrigin = await checkFrameSession(app.frameTokens, request, caller, app.clock.now());
      request.caller = await withGrants(app.clientTokens, request, frameOrigin === undefined ? caller : { ...caller, frameOrigin }, app.clock.now());
      // Answers to authenticated calls carry customer details, card tokens or keys: no cache may keep them.
      reply.header('cache-control', 'no-store');
    });
  },
  { name: 'auth', dependencies: ['services'] },
);

/** A call from the checkout frame: the key must be the one the frame's session was opened for. Answers the session's page origin. */
async function checkFrameSession(tokens: FrameTokens, request: FastifyRequest, caller: Caller, now: Date): Promise<string | undefined> {
  const token = header(request, FRAME_SESSION_HEADER);
  if (token === undefined) return undefined;
  const claims = await tokens.verify(token, now);
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
  return claims.origin;
}

/** A request header's value; the first one when it was sent more than once. */
function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * What the merchant's server granted this call: an order (client token) and a customer (customer session). Both are
 * signed for one merchant and mode; a grant that does not verify, or names another merchant or mode, is refused
 * rather than ignored, so an integration mistake shows at once.
 */
async function withGrants(tokens: ClientTokens, request: FastifyRequest, caller: Caller, now: Date): Promise<Caller> {
  const orderToken = header(request, CLIENT_TOKEN_HEADER);
  const sessionToken = header(request, CUSTOMER_SESSION_HEADER);
  if (orderToken === undefined && sessionToken === undefined) return caller;
  const granted: Caller = { ...caller };
  const belongs = (grant: { merchantId: number; mode: string }) => grant.merchantId === caller.merchant.id && grant.mode === caller.mode;
  if (orderToken !== undefined) {
    const grant = await tokens.verifyOrder(orderToken, now);
    if (!grant || !belongs(grant)) {
      throw forbidden(`The ${CLIENT_TOKEN_HEADER} is not valid for this api-key or has expired; create the order again on your server for a new one.`);
    }
    granted.orderGrant = grant.reference;
  }
  if (sessionToken !== undefined) {
    const grant = await tokens.verifyCustomer(sessionToken, now);
    if (!grant || !belongs(grant)) {
      throw forbidden(`The ${CUSTOMER_SESSION_HEADER} is not valid for this api-key or has expired; open a new customer session on your server.`);
    }
    granted.shopper = { id: grant.shopperId, reference: grant.shopperReference };
  }
  return granted;
}
