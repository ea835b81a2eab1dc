import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { TEAM_LIMITS } from '../domain/team.ts';
import type { RequestOrigin } from '../services/team-audit.ts';

/**
 * The team's session cookie: HttpOnly (no script reads it), Secure, SameSite=Strict (no other site's page sends
 * it), Path=/. In production its name carries the `__Host-` prefix, which makes browsers refuse it unless it is
 * Secure, host-only and for `/`; elsewhere it is `checkout_session`, so clients that keep cookies only over https
 * (the tests' HTTP clients, curl) can use a development server over http. Browsers keep Secure cookies of
 * http://localhost too.
 */
export function sessionCookieName(environment: Config['environment']): string {
  return environment === 'production' ? '__Host-checkout_session' : 'checkout_session';
}

export function setSessionCookie(reply: FastifyReply, name: string, token: string): void {
  reply.setCookie(name, token, { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: TEAM_LIMITS.absoluteMs / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, name: string): void {
  reply.clearCookie(name, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
}

/** Where a call came from, for the audit log and the per-address lockout. */
export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}
