import type { TeamSession, TeamUser } from '../domain/team.ts';
import type { AuditRow } from '../repositories/team-sessions.ts';
import type { StoredPasskey } from '../repositories/team-users.ts';
import type { SignInOutcome } from '../services/sign-in.ts';

/** The team API's wire shapes (`shared/contract/team.ts`): never a digest, hash or sealed secret. */
export const presentMember = (user: TeamUser) => ({
  id: user.id,
  email: user.email,
  role: user.role,
  status: user.status,
  twoFactor: { totp: user.hasTotp, passkeys: user.passkeys },
  lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
  createdAt: user.createdAt.toISOString(),
});

export const presentSession = (session: TeamSession, currentId: number) => ({
  id: session.id,
  current: session.id === currentId,
  createdAt: session.createdAt.toISOString(),
  lastSeenAt: session.lastSeenAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  ip: session.ip,
  userAgent: session.userAgent,
});

export const presentPasskey = (passkey: StoredPasskey) => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
});

export const presentAuditEntry = (entry: AuditRow) => ({
  id: entry.id,
  at: entry.at.toISOString(),
  action: entry.action,
  actor: { id: entry.actorId, email: entry.actorEmail, role: entry.actorRole },
  ip: entry.ip,
  target: entry.target,
});

/** A sign-in step's answer; the session's id goes in the cookie, never in the body. */
export const presentSignIn = (outcome: SignInOutcome) => ({
  status: outcome.status,
  secondFactors: outcome.secondFactors,
  totp: outcome.totp,
  backupCodes: outcome.backupCodes,
  csrfToken: outcome.issued.csrfToken,
});
