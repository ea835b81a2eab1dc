import type { AuditAction } from '../../shared/contract/audit-actions.ts';
import type { Role } from '../domain/roles.ts';
import type { SessionStage, TeamSession } from '../domain/team.ts';
import type { Queryable } from '../storage/storage.ts';

/** Team sessions, WebAuthn challenges, failed sign-in steps and the audit log. */
type SessionRow = {
  id: number;
  user_id: number;
  stage: SessionStage;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  stepped_up_at: Date | null;
  ip: string | null;
  user_agent: string | null;
};
const SESSION_COLUMNS = 'id, user_id, stage, created_at, last_seen_at, expires_at, stepped_up_at, ip, user_agent';
const toSession = (row: SessionRow): TeamSession => ({
  id: row.id,
  userId: row.user_id,
  stage: row.stage,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  steppedUpAt: row.stepped_up_at,
  ip: row.ip,
  userAgent: row.user_agent,
});

export type NewSession = {
  digest: Buffer;
  userId: number;
  stage: SessionStage;
  createdAt: Date;
  expiresAt: Date;
  steppedUpAt: Date | null;
  ip: string | null;
  userAgent: string | null;
};

export async function insertSession(db: Queryable, session: NewSession): Promise<TeamSession> {
  const [row] = await db.query<SessionRow>(
    `INSERT INTO team_sessions (digest, user_id, stage, created_at, last_seen_at, expires_at, stepped_up_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8) RETURNING ${SESSION_COLUMNS}`,
    [session.digest, session.userId, session.stage, session.createdAt, session.expiresAt, session.steppedUpAt, session.ip, session.userAgent],
  );
  return toSession(row!);
}

/** A session by its id's digest, unless revoked or past its absolute expiry (idle expiry is the service's rule). */
export async function findSession(db: Queryable, digest: Buffer, now: Date): Promise<TeamSession | undefined> {
  const [row] = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM team_sessions WHERE digest = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [digest, now],
  );
  return row && toSession(row);
}

export async function touchSession(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE team_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
}

/** Gives a session a new id (its digest) and, when given, a new step-up time: the old cookie stops working. */
export async function rotateSession(db: Queryable, id: number, digest: Buffer, now: Date, steppedUpAt?: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE team_sessions SET digest = $2, last_seen_at = $3, stepped_up_at = COALESCE($4, stepped_up_at) WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
    [id, digest, now, steppedUpAt ?? null],
  );
  return rows.length === 1;
}

export async function revokeSession(db: Queryable, userId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE team_sessions SET revoked_at = $3 WHERE user_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id', [userId, id, now]);
  return rows.length === 1;
}

export async function revokeUserSessions(db: Queryable, userId: number, now: Date): Promise<void> {
  await db.query('UPDATE team_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
}

/** The user's open sessions (signed in, not expired, not revoked), newest first. */
export async function listOpenSessions(db: Queryable, userId: number, now: Date, idleSince: Date): Promise<TeamSession[]> {
  const rows = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM team_sessions
     WHERE user_id = $1 AND stage = 'full' AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at > $3
     ORDER BY created_at DESC, id DESC`,
    [userId, now, idleSince],
  );
  return rows.map(toSession);
}

export async function insertChallenge(db: Queryable, challenge: string, purpose: 'registration' | 'authentication', userId: number | null, expiresAt: Date): Promise<void> {
  await db.query('INSERT INTO team_challenges (challenge, purpose, user_id, expires_at) VALUES ($1, $2, $3, $4)', [challenge, purpose, userId, expiresAt]);
}

/** Spends a challenge: true once, before it expires, for its purpose (and user, when it was made for one). */
export async function useChallenge(db: Queryable, challenge: string, purpose: 'registration' | 'authentication', userId: number | null, now: Date): Promise<boolean> {
  await db.query('DELETE FROM team_challenges WHERE expires_at <= $1', [now]);
  const rows = await db.query(
    'DELETE FROM team_challenges WHERE challenge = $1 AND purpose = $2 AND user_id IS NOT DISTINCT FROM $3 AND expires_at > $4 RETURNING challenge',
    [challenge, purpose, userId, now],
  );
  return rows.length === 1;
}

export async function recordFailures(db: Queryable, keys: readonly string[], now: Date): Promise<void> {
  for (const key of keys) await db.query('INSERT INTO team_sign_in_failures (key, at) VALUES ($1, $2)', [key, now]);
}

/** Failures of `key` since `since`, and the time of the one `nth` from the latest (when there are that many). */
export async function recentFailures(db: Queryable, key: string, since: Date): Promise<Date[]> {
  const rows = await db.query<{ at: Date }>('SELECT at FROM team_sign_in_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT 200', [key, since]);
  return rows.map((row) => row.at);
}

export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM team_sign_in_failures WHERE key = $1', [key]);
}

export async function purgeFailures(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM team_sign_in_failures WHERE at < $1', [before]);
}

export type AuditRecord = {
  merchantId: number | null;
  actorId: number | null;
  actorEmail: string | null;
  actorRole: Role | null;
  ip: string | null;
  action: AuditAction;
  target: string | null;
  at: Date;
};

export async function insertAudit(db: Queryable, entry: AuditRecord): Promise<void> {
  await db.query(
    'INSERT INTO team_audit (merchant_id, actor_id, actor_email, actor_role, ip, action, target, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [entry.merchantId, entry.actorId, entry.actorEmail, entry.actorRole, entry.ip, entry.action, entry.target, entry.at],
  );
}

export type AuditRow = AuditRecord & { id: number };
export type AuditFilter = { merchantId: number; from?: Date | undefined; to?: Date | undefined };

/** Newest first by keyset after `after` (the last row of the previous page); `limit + 1` rows tell whether more follow. */
export async function pageAudit(db: Queryable, filter: AuditFilter, limit: number, after?: { createdAt: Date; id: number }): Promise<AuditRow[]> {
  const conditions = ['merchant_id = $1'];
  const params: unknown[] = [filter.merchantId];
  if (filter.from) conditions.push(`created_at >= $${params.push(filter.from)}`);
  if (filter.to) conditions.push(`created_at < $${params.push(filter.to)}`);
  if (after) conditions.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
  const rows = await db.query<{ id: number; merchant_id: number; actor_id: number | null; actor_email: string | null; actor_role: Role | null; ip: string | null; action: AuditAction; target: string | null; created_at: Date }>(
    `SELECT * FROM team_audit WHERE ${conditions.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.push(limit + 1)}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    actorRole: row.actor_role,
    ip: row.ip,
    action: row.action,
    target: row.target,
    at: row.created_at,
  }));
}
