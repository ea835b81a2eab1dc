import type { Role } from './roles.ts';
import type { Merchant, Mode } from './merchant.ts';

/** A member of a merchant's team as the services see it (no secret ever leaves the repository in this shape). */
export type TeamUser = {
  id: number;
  merchantId: number;
  email: string;
  role: Role;
  status: 'invited' | 'active';
  hasTotp: boolean;
  passkeys: number;
  lastSignInAt: Date | null;
  createdAt: Date;
};

/** Where a session stands: open, or a sign-in waiting for its second factor or for TOTP enrolment. */
export type SessionStage = 'full' | 'second_factor' | 'enrolment';

export type TeamSession = {
  id: number;
  userId: number;
  stage: SessionStage;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  steppedUpAt: Date | null;
  ip: string | null;
  userAgent: string | null;
};

/** A signed-in member on a request: who, in which session, for which merchant and mode. */
export type SignedInMember = { user: TeamUser; session: TeamSession; merchant: Merchant; mode: Mode; csrfToken: string };

/** Sign-in and session lifetimes, lockout thresholds. */
export const TEAM_LIMITS = {
  /** A session unused this long ends. */
  idleMs: 30 * 60_000,
  /** A session ends this long after sign-in whatever its use. */
  absoluteMs: 12 * 3_600_000,
  /** A sign-in waiting for its second factor or enrolment. */
  pendingMs: 10 * 60_000,
  stepUpMs: 5 * 60_000,
  invitationMs: 7 * 24 * 3_600_000,
  passwordResetMs: 3_600_000,
  challengeMs: 5 * 60_000,
  failureWindowMs: 15 * 60_000,
  failuresPerAccount: 10,
  failuresPerAddress: 50,
  lockoutMs: 15 * 60_000,
  backupCodes: 10,
} as const;
