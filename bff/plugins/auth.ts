import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { ClientTokens } from '../crypto/client-tokens.ts';
import { FrameTokens } from '../crypto/frame-token.ts';
import type { Caller, KeyCaller, MemberCaller, Mode } from '../domain/merchant.ts';
import { can, type Permission } from '../domain/roles.ts';
import { forbidden, invalid, unauthenticated } from '../errors.ts';
import { isOriginAllowed } from '../security/origins.ts';
import { requestOrigin } from '../security/session-cookie.ts';
import { CSRF_HEADER, MODE_HEADER } from '../../shared/contract/team.ts';
import type { AuditAction } from '../../shared/contract/audit-actions.ts';

/**
 * Routes declare who may call them with `config: { auth: 'any' | 'secret' | 'session' }`. The `api-key` header
 * resolves merchant, mode and key kind before the body is read, so unauthenticated requests cost no parsing.
 *
 * A signed-in team member (the dashboard) is the other kind of caller: its session cookie resolves member, role
 * and merchant, and the mode comes from the `checkout-mode` header (default test). A member reaches only routes
 * that accept one: `session` routes, and `secret` routes that declare the `permission` a role must hold
 * (`domain/roles.ts`); any other route still needs an api-key. Every state-changing call with the cookie must send
 * the session's CSRF token (`x-csrf-token`) and, when the browser says where it comes from, come from the
 * dashboard's own origin. A route that declares `stepUp` needs a second factor proved within the last minutes
 * (`requireStepUp`), and is recorded in the audit log when it succeeds.
 *
 * The checkout frame also sends its frame session token (`checkout-session`) on every call. The token names the
 * merchant, the mode and the page origin the backend checked when it opened the session; the key the embedding
 * page posted to the frame must belong to that merchant and mode, or a page at one merchant's allowed origin
 * could show another merchant's checkout (or a live checkout in a test session).
 */
export type AuthRequirement = 'any' | 'secret' | 'session';

export const FRAME_SESSION_HEADER = 'checkout-session';
/** An order's client token, which the merchant's server got when it created the order with the secret key. */
export const CLIENT_TOKEN_HEADER = 'checkout-client-token';
/** A customer session, which the merchant's server opened for a customer it vouches for. */
export const CUSTOMER_SESSION_HEADER = 'checkout-customer-session';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** What a team member's role must allow; a `secret` route with one accepts members too. */
    permission?: Permission;
    /** A member must have stepped up; the success is audited as `audit`. */
    stepUp?: { audit: AuditAction };
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Signs and verifies the checkout frame's session tokens. */
    frameTokens: FrameTokens;
    /** The team's session cookie's name (`security/session-cookie.ts`). */
    sessionCookieName: string;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route has no auth requirement');
  return request.caller;
}

/** The signed-in member calling, or a refusal: for routes that only a member may call. */
export function memberOf(request: FastifyRequest): MemberCaller {
  const caller = callerOf(request);
  if (caller.kind !== 'member') throw forbidden('Only a signed-in team member can do this.', 'session_required');
  return caller;
}

/**
 * Refuses (`AUTH403`, `step_up_required`) a member who has not proved a second factor within the step-up window
 * (`POST /checkout/team/step-up`). An api-key caller is the merchant's server: nothing to step up.
 */
export function requireStepUp(request: FastifyRequest): void {
  const caller = callerOf(request);
  if (caller.kind !== 'member') return;
  if (!request.server.teamSessions.steppedUp(caller.member.session)) {
    throw forbidden('Confirm it is you: prove a second factor again (TOTP, backup code or passkey) to do this.', 'step_up_required');
  }
}

/** What a step-up action acted on, for its audit entry (`member:12`). */
const auditTargets = new WeakMap<FastifyRequest, string>();
export function auditTarget(request: FastifyRequest, target: string): void {
  auditTargets.set(request, target);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export default fp<{ publicBaseUrl: string; sessionCookieName: string }>(
  async (app, { publicBaseUrl, sessionCookieName }) => {
    const dashboardOrigin = new URL(publicBaseUrl).origin;
    app.decorate('frameTokens', new FrameTokens(app.signedTokens));
    app.decorate('sessionCookieName', sessionCookieName);
    app.decorateRequest('caller', null);

    async function signedInMember(request: FastifyRequest, token: string): Promise<MemberCaller> {
      const resolved = await app.teamSessions.resolve(token);
      const user = resolved?.session.stage === 'full' ? await app.team.findUser(resolved.session.userId) : undefined;
      const merchant = user ? await app.merchants.find(user.merchantId) : undefined;
      if (!resolved || !user || !merchant) throw unauthenticated('Your session has ended. Sign in again.', 'session_expired');
      if (merchant.disabled) throw forbidden('This merchant account is disabled.');
      const modeHeader = header(request, MODE_HEADER);
      if (modeHeader !== undefined && modeHeader !== 'test' && modeHeader !== 'live') throw invalid(`The ${MODE_HEADER} header must be test or live.`, undefined, 'invalid_field');
      const mode: Mode = modeHeader ?? 'test';
      if (!SAFE_METHODS.has(request.method)) {
        const origin = header(request, 'origin');
        if ((origin !== undefined && origin !== dashboardOrigin) || !app.teamSessions.csrfTokenMatches(resolved.digest, header(request, CSRF_HEADER))) {
          throw forbidden(`This call needs the session's CSRF token in ${CSRF_HEADER} (from GET /checkout/team/me), from the dashboard's own page.`, 'csrf_token_invalid');
        }
      }
      const { permission, stepUp } = request.routeOptions.config;
      if (permission && !can(user.role, permission)) {
        throw forbidden(`Your role (${user.role}) does not allow this (${permission}).`, 'permission_denied');
      }
      const caller: MemberCaller = { merchant, mode, kind: 'member', member: { user, session: resolved.session, merchant, mode, csrfToken: resolved.csrfToken } };
      request.caller = caller;
      if (stepUp) requireStepUp(request);
      return caller;
    }

    app.addHook('onRequest', async (request, reply) => {
      const { auth: requirement, permission } = request.routeOptions.config;
      if (!requirement) return;
      const key = header(request, 'api-key');
      const sessionToken = request.cookies[sessionCookieName];
      const acceptsMember = requirement === 'session' || permission !== undefined;
      if ((!key || key.trim() === '') && acceptsMember && sessionToken) {
        await signedInMember(request, sessionToken);
        reply.header('cache-control', 'no-store');
        return;
      }
      if (requirement === 'session') throw unauthenticated('Sign in to the dashboard first.', 'session_required');
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

    // Every action that needed a step-up is in the audit log once it succeeded.
    app.addHook('onResponse', async (request, reply) => {
      const { stepUp } = request.routeOptions.config;
      const caller = request.caller;
      if (!stepUp || caller?.kind !== 'member' || reply.statusCode >= 400) return;
      await app.audit
        .record(stepUp.audit, caller.member.user, requestOrigin(request), auditTargets.get(request) ?? null)
        .catch((error: unknown) => request.log.error({ err: error }, 'audit entry not written'));
    });
  },
  { name: 'auth', dependencies: ['services', 'cookie'] },
);

/** A call from the checkout frame: the key must be the one the frame's session was opened for. Answers the session's page origin. */
async function checkFrameSession(tokens: FrameTokens, request: FastifyRequest, caller: KeyCaller, now: Date): Promise<string | undefined> {
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
async function withGrants(tokens: ClientTokens, request: FastifyRequest, caller: KeyCaller, now: Date): Promise<KeyCaller> {
  const orderToken = header(request, CLIENT_TOKEN_HEADER);
  const sessionToken = header(request, CUSTOMER_SESSION_HEADER);
  if (orderToken === undefined && sessionToken === undefined) return caller;
  const granted: KeyCaller = { ...caller };
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
