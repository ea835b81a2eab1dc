import type { z } from 'zod';
import type { meSchema } from '../../shared/contract/team.ts';
import type { ApiClient } from './client.ts';

/**
 * The dashboard's session: what the screens ask of the team-accounts backend (`SessionApi`), and the state every
 * call carries (`SessionState`: the CSRF token of the last answer that gave one, and the mode of the test/live
 * switch). The implementation over the contract's endpoints (`team-session.ts`) comes with zod and the team
 * contract, so it is loaded on first use (`connectedSession`): the shell holds none of it.
 */

export type Mode = 'test' | 'live';

/** The signed-in member, its merchant, mode, permissions, CSRF token, second factors and setup: `GET /checkout/team/me`. */
export type Me = z.output<typeof meSchema>;
export type Role = Me['user']['role'];
export type SetupStatus = Me['setup'];

/** Second factors a password sign-in may finish with. */
export type SecondFactor = 'totp' | 'backup_code';

/** A new authenticator-app secret: typed in, or scanned from the `otpauth://` URI's QR code. */
export type TotpSecret = { secret: string; uri: string };

/**
 * Where a sign-in stands after a step: signed in; a code wanted; or (the merchant requires two factors) an
 * authenticator app to add before any session, confirmed with `confirmTotp`.
 */
export type SignInStep =
  | { step: 'signed_in'; me: Me }
  | { step: 'second_factor'; factors: readonly SecondFactor[]; passkey: boolean }
  | { step: 'enrol_totp'; totp: TotpSecret };

/** A second factor proved again before an action that needs one (a refund). */
export type StepUpProof = { method: SecondFactor; code: string } | { method: 'passkey' };

/** Why a session call was refused, as the screens word it (never the server's message text). */
export type SessionFailure =
  | 'invalid_credentials'
  | 'invalid_code'
  | 'passkey_cancelled'
  | 'passkey_unavailable'
  | 'invitation_invalid'
  | 'weak_password'
  | 'too_many_attempts'
  | 'sign_in_expired'
  | 'not_available'
  | 'network';

export class SessionError extends Error {
  constructor(readonly failure: SessionFailure) {
    super(failure);
    this.name = 'SessionError';
  }
}

export interface SessionApi {
  /** The current session, or null when nobody is signed in (the GET "me" answering 401). */
  me(): Promise<Me | null>;
  /** E-mail and password: signed in, a second factor wanted, or TOTP to enrol first. */
  signInWithPassword(email: string, password: string): Promise<SignInStep>;
  /** Finishes a password sign-in with a 6-digit code (`totp`) or a backup code. */
  verifySecondFactor(factor: SecondFactor, code: string): Promise<Me>;
  /** The whole WebAuthn ceremony (options from the server, `navigator.credentials.get`, verification). */
  signInWithPasskey(): Promise<Me>;
  /** Accepts a team invitation (the token of its link) with the new member's password. */
  acceptInvitation(token: string, password: string): Promise<SignInStep>;
  /** A signed-in member without a second factor starts adding an authenticator app (its password again). */
  startTotp(password: string): Promise<TotpSecret>;
  /** Confirms the authenticator app of an `enrol_totp` step or of `startTotp`: the session, and the backup codes (shown once). */
  confirmTotp(code: string): Promise<{ me: Me; backupCodes: string[] }>;
  /** Proves a second factor again: the actions that need one are allowed for a few minutes. */
  stepUp(proof: StepUpProof): Promise<void>;
  /** Moves the dashboard to test or live data; answers the session as it now is. */
  switchMode(mode: Mode): Promise<Me>;
  signOut(): Promise<void>;
}

const STORED_MODE = 'dashboard.mode';

/**
 * What every API call carries besides the cookie: the CSRF token (it changes at every sign-in step and step-up)
 * and the mode (`checkout-mode`), kept for the tab (sessionStorage) so a reload stays on the same data.
 */
export class SessionState {
  csrfToken: string | undefined;
  #mode: Mode = 'test';

  constructor() {
    try {
      if (sessionStorage.getItem(STORED_MODE) === 'live') this.#mode = 'live';
    } catch {
      // No storage: test data, the safe default.
    }
  }

  get mode(): Mode {
    return this.#mode;
  }

  set mode(mode: Mode) {
    this.#mode = mode;
    try {
      sessionStorage.setItem(STORED_MODE, mode);
    } catch {
      // The choice lasts for this page.
    }
  }

  /** After an answer that names the session: its token and mode. */
  adopt(me: Me): void {
    this.csrfToken = me.csrfToken;
    this.mode = me.mode;
  }

  clear(): void {
    this.csrfToken = undefined;
  }
}

/** The session over the backend's team endpoints, its implementation loaded on first use. */
export function connectedSession(api: ApiClient, state: SessionState): SessionApi {
  let loaded: Promise<SessionApi> | undefined;
  const load = () => (loaded ??= import('./team-session.ts').then(({ TeamSession }) => new TeamSession(api, state)));
  const lazily =
    <K extends keyof SessionApi>(name: K) =>
    async (...args: Parameters<SessionApi[K]>): Promise<Awaited<ReturnType<SessionApi[K]>>> => {
      const session = await load().catch(() => Promise.reject(new SessionError('network')));
      return (session[name] as (...inner: Parameters<SessionApi[K]>) => Promise<Awaited<ReturnType<SessionApi[K]>>>)(...args);
    };
  return {
    me: lazily('me'),
    signInWithPassword: lazily('signInWithPassword'),
    verifySecondFactor: lazily('verifySecondFactor'),
    signInWithPasskey: lazily('signInWithPasskey'),
    acceptInvitation: lazily('acceptInvitation'),
    startTotp: lazily('startTotp'),
    confirmTotp: lazily('confirmTotp'),
    stepUp: lazily('stepUp'),
    switchMode: lazily('switchMode'),
    signOut: lazily('signOut'),
  };
}
