import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import type { Role } from '../../shared/contract/permissions.ts';
import type { Clock } from '../../bff/services/clock.ts';

/** The session cookie's name outside production (`bff/security/session-cookie.ts`). */
export const SESSION_COOKIE = 'checkout_session';
export const STRONG_PASSWORD = 'violet-harbour-lantern-42';

/** Invites `email` to the merchant as the CLI does (no inviter), and answers the token of its link. */
export async function invitationToken(app: FastifyInstance, merchantId: number, email: string, role: Role): Promise<string> {
  const { link } = await app.team.invite(merchantId, email, role, null, { ip: null, userAgent: null });
  return tokenOf(link.url);
}

export const tokenOf = (url: string): string => new URL(url.replace('#/', '')).searchParams.get('token')!;

/** The code an authenticator app shows now, by the app's clock. */
export const totpCode = (secret: string, clock: Clock): Promise<string> => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

/**
 * A browser of the dashboard: keeps the session cookie the server sets and the CSRF token of the last answer that
 * gave one, and sends both.
 */
export class TeamBrowser {
  cookie: string | undefined;
  csrfToken: string | undefined;
  mode: 'test' | 'live' | undefined;

  constructor(private readonly app: FastifyInstance) {}

  async call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...(this.csrfToken && method !== 'GET' ? { 'x-csrf-token': this.csrfToken } : {}),
        ...(this.mode ? { 'checkout-mode': this.mode } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const set = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    if (set) this.cookie = set.value === '' ? undefined : set.value;
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
    const token = json ? (response.json() as { data?: { csrfToken?: unknown } } | undefined)?.data?.csrfToken : undefined;
    if (typeof token === 'string') this.csrfToken = token;
    return response;
  }

  signIn(email: string, password = STRONG_PASSWORD) {
    return this.call('POST', '/checkout/team/sign-in', { email, password });
  }

  accept(token: string, password = STRONG_PASSWORD) {
    return this.call('POST', '/checkout/team/invitations/accept', { token, password });
  }

  async enrolTotp(clock: Clock, password = STRONG_PASSWORD): Promise<{ secret: string; backupCodes: string[] }> {
    const started = await this.call('POST', '/checkout/team/me/totp', { password });
    if (started.statusCode !== 200) throw new Error(`TOTP enrolment refused: ${started.body}`);
    const { secret } = started.json().data as { secret: string };
    const confirmed = await this.call('POST', '/checkout/team/me/totp/confirm', { code: await totpCode(secret, clock) });
    if (confirmed.statusCode !== 200) throw new Error(`TOTP confirmation refused: ${confirmed.body}`);
    return { secret, backupCodes: confirmed.json().data.backupCodes };
  }
}

/** A member who accepted its invitation and is signed in (password only: its merchant does not require two factors). */
export async function signedInMember(app: FastifyInstance, merchantId: number, role: Role, email = `${role}.${Math.random().toString(36).slice(2, 8)}@team.test`) {
  const browser = new TeamBrowser(app);
  const accepted = await browser.accept(await invitationToken(app, merchantId, email, role));
  if (accepted.json().data?.status !== 'signed_in') throw new Error(`invitation not accepted: ${accepted.body}`);
  return { browser, email };
}
