/**
 * What the dashboard needs from the team-accounts backend, as an interface its endpoints are wired into at merge
 * (dashboard/README.md, "The session module"). Nothing here names a route: the backend's contract does, and the
 * implementation of `SessionApi` calls it through `ApiClient.call`. Until then `notConnectedSession` answers that
 * nobody is signed in, so the dashboard shows its sign-in screen and says sign-in is not available yet.
 */

export type Mode = 'test' | 'live';
export type Role = 'owner' | 'admin' | 'developer' | 'support' | 'viewer';

/** What the merchant has set up, for Home's checklist. */
export interface SetupStatus {
  apiKeys: boolean;
  allowedOrigin: boolean;
  webhook: boolean;
  firstTestPayment: boolean;
  logo: boolean;
}

/** The signed-in team member, from the session's GET "me" answer. */
export interface Me {
  user: { email: string; name: string; role: Role };
  merchant: { name: string };
  /** Which data the session shows: test or live (a property of the server-side session). */
  mode: Mode;
  /** Sent back in the `x-csrf-token` header on every call that is not a GET (api/client.ts). */
  csrfToken: string;
  setup: SetupStatus;
}

/** Second factors a password sign-in may finish with. */
export type SecondFactor = 'totp' | 'backup_code';

/** Where a sign-in stands after a step. */
export type SignInStep = { step: 'second_factor'; factors: readonly SecondFactor[] } | { step: 'signed_in'; me: Me };

/** Why a session call was refused, as the sign-in screens word it (never the server's message text). */
export type SessionFailure =
  | 'invalid_credentials'
  | 'invalid_code'
  | 'passkey_cancelled'
  | 'passkey_unavailable'
  | 'invitation_invalid'
  | 'weak_password'
  | 'too_many_attempts'
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
  /** E-mail and password: signed in, or a second factor is wanted. */
  signInWithPassword(email: string, password: string): Promise<SignInStep>;
  /** Finishes a password sign-in with a 6-digit code (`totp`) or a backup code. */
  verifySecondFactor(factor: SecondFactor, code: string): Promise<Me>;
  /** The whole WebAuthn ceremony (options from the server, `navigator.credentials.get`, verification). */
  signInWithPasskey(): Promise<Me>;
  /** Accepts a team invitation (the token of its link) with the new member's name and password. */
  acceptInvitation(token: string, member: { name: string; password: string }): Promise<SignInStep>;
  /** Moves the session to test or live data; answers the session as it now is. */
  switchMode(mode: Mode): Promise<Me>;
  signOut(): Promise<void>;
}

const notAvailable = async (): Promise<never> => {
  throw new SessionError('not_available');
};

/** The stand-in until the team-accounts endpoints are wired in: nobody is ever signed in. */
export const notConnectedSession: SessionApi = {
  me: async () => null,
  signInWithPassword: notAvailable,
  verifySecondFactor: notAvailable,
  signInWithPasskey: notAvailable,
  acceptInvitation: notAvailable,
  switchMode: notAvailable,
  signOut: async () => undefined,
};
