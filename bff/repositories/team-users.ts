import type { Role } from '../domain/roles.ts';
import type { TeamUser } from '../domain/team.ts';
import type { Queryable } from '../storage/storage.ts';

/** Team members, their second factors, one-time tokens and the merchant's team settings. */
type UserRow = {
  id: number;
  merchant_id: number;
  email: string;
  role: Role;
  password_hash: string | null;
  has_totp: boolean;
  passkeys: number;
  last_sign_in_at: Date | null;
  created_at: Date;
};

const USER_COLUMNS = `u.id, u.merchant_id, u.email, u.role, u.password_hash, u.totp_sealed IS NOT NULL AS has_totp,
  (SELECT count(*)::int FROM team_passkeys p WHERE p.user_id = u.id) AS passkeys, u.last_sign_in_at, u.created_at`;

const toUser = (row: UserRow): TeamUser => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  status: row.password_hash === null ? 'invited' : 'active',
  hasTotp: row.has_totp,
  passkeys: Number(row.passkeys),
  lastSignInAt: row.last_sign_in_at,
  createdAt: row.created_at,
});

/** A user with its password hash, for the sign-in step only. */
export type UserWithPassword = { user: TeamUser; passwordHash: string | null };

export async function insertUser(db: Queryable, merchantId: number, email: string, role: Role, now: Date): Promise<TeamUser | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO team_users (merchant_id, email, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
    [merchantId, email, role, now],
  );
  return row ? findUser(db, row.id) : undefined;
}

export async function findUser(db: Queryable, id: number): Promise<TeamUser | undefined> {
  const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM team_users u WHERE u.id = $1`, [id]);
  return row && toUser(row);
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserWithPassword | undefined> {
  const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM team_users u WHERE lower(u.email) = lower($1)`, [email]);
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function findPasswordHash(db: Queryable, id: number): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM team_users WHERE id = $1', [id]);
  return row?.password_hash ?? null;
}

export async function listUsers(db: Queryable, merchantId: number): Promise<TeamUser[]> {
  const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM team_users u WHERE u.merchant_id = $1 ORDER BY u.id`, [merchantId]);
  return rows.map(toUser);
}

export async function countOwners(db: Queryable, merchantId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM team_users WHERE merchant_id = $1 AND role = 'owner'", [merchantId]);
  return Number(row?.count ?? 0);
}

/** Locks the merchant's owners while a change that could leave none is checked and made. */
export async function lockOwners(db: Queryable, merchantId: number): Promise<void> {
  await db.query("SELECT id FROM team_users WHERE merchant_id = $1 AND role = 'owner' FOR UPDATE", [merchantId]);
}

export async function updateRole(db: Queryable, id: number, role: Role, now: Date): Promise<void> {
  await db.query('UPDATE team_users SET role = $2, updated_at = $3 WHERE id = $1', [id, role, now]);
}

export async function deleteUser(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM team_users WHERE id = $1', [id]);
}

export async function setPassword(db: Queryable, id: number, passwordHash: string, now: Date): Promise<void> {
  await db.query('UPDATE team_users SET password_hash = $2, updated_at = $3 WHERE id = $1', [id, passwordHash, now]);
}

export async function recordSignIn(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE team_users SET last_sign_in_at = $2 WHERE id = $1', [id, now]);
}

/** The sealed TOTP secret, the pending one, and the last step accepted. */
export async function findTotp(db: Queryable, id: number): Promise<{ sealed: Buffer | null; pending: Buffer | null; lastStep: number | null }> {
  const [row] = await db.query<{ totp_sealed: Buffer | null; totp_pending: Buffer | null; totp_last_step: number | string | null }>(
    'SELECT totp_sealed, totp_pending, totp_last_step FROM team_users WHERE id = $1',
    [id],
  );
  return {
    sealed: row?.totp_sealed ? Buffer.from(row.totp_sealed) : null,
    pending: row?.totp_pending ? Buffer.from(row.totp_pending) : null,
    lastStep: row?.totp_last_step == null ? null : Number(row.totp_last_step),
  };
}

export async function setPendingTotp(db: Queryable, id: number, sealed: Buffer, now: Date): Promise<void> {
  await db.query('UPDATE team_users SET totp_pending = $2, updated_at = $3 WHERE id = $1', [id, sealed, now]);
}

/** Makes the pending secret the active one, if it is still the one confirmed. */
export async function activateTotp(db: Queryable, id: number, pending: Buffer, step: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE team_users SET totp_sealed = totp_pending, totp_pending = NULL, totp_last_step = $3, updated_at = $4 WHERE id = $1 AND totp_pending = $2 RETURNING id',
    [id, pending, step, now],
  );
  return rows.length === 1;
}

/** Records the step a code matched, only if no later or equal step was accepted meanwhile (a replay races). */
export async function acceptTotpStep(db: Queryable, id: number, step: number): Promise<boolean> {
  const rows = await db.query(
    'UPDATE team_users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id',
    [id, step],
  );
  return rows.length === 1;
}

export async function clearTotp(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE team_users SET totp_sealed = NULL, totp_pending = NULL, totp_last_step = NULL, updated_at = $2 WHERE id = $1', [id, now]);
  await db.query('DELETE FROM team_backup_codes WHERE user_id = $1', [id]);
}

export async function replaceBackupCodes(db: Queryable, userId: number, digests: readonly Buffer[]): Promise<void> {
  await db.query('DELETE FROM team_backup_codes WHERE user_id = $1', [userId]);
  for (const digest of digests) await db.query('INSERT INTO team_backup_codes (user_id, digest) VALUES ($1, $2)', [userId, digest]);
}

/** Spends a backup code: true once, for an unused code of this user. */
export async function useBackupCode(db: Queryable, userId: number, digest: Buffer, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE team_backup_codes SET used_at = $3 WHERE user_id = $1 AND digest = $2 AND used_at IS NULL RETURNING user_id', [userId, digest, now]);
  return rows.length === 1;
}

export async function countBackupCodesLeft(db: Queryable, userId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM team_backup_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return Number(row?.count ?? 0);
}

export async function requiresTwoFactor(db: Queryable, merchantId: number): Promise<boolean> {
  const [row] = await db.query<{ require_two_factor: boolean }>('SELECT require_two_factor FROM team_settings WHERE merchant_id = $1', [merchantId]);
  return row?.require_two_factor ?? false;
}

export async function setRequiresTwoFactor(db: Queryable, merchantId: number, required: boolean): Promise<void> {
  await db.query(
    'INSERT INTO team_settings (merchant_id, require_two_factor) VALUES ($1, $2) ON CONFLICT (merchant_id) DO UPDATE SET require_two_factor = $2',
    [merchantId, required],
  );
}

export type TokenPurpose = 'invitation' | 'password_reset';

export async function insertToken(db: Queryable, digest: Buffer, userId: number, purpose: TokenPurpose, now: Date, expiresAt: Date): Promise<void> {
  // A new link replaces the unused ones of the same purpose.
  await db.query('UPDATE team_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose, now]);
  await db.query('INSERT INTO team_tokens (digest, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [digest, userId, purpose, now, expiresAt]);
}

/** Spends a token: its user, once, before it expires; undefined for anything else. */
export async function useToken(db: Queryable, digest: Buffer, purpose: TokenPurpose, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ user_id: number }>(
    'UPDATE team_tokens SET used_at = $3 WHERE digest = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id',
    [digest, purpose, now],
  );
  return row?.user_id;
}

export type StoredPasskey = { id: number; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string; createdAt: Date; lastUsedAt: Date | null; userId: number };

type PasskeyRow = { id: number; user_id: number; credential_id: string; public_key: Buffer; counter: number | string; transports: string[]; name: string; created_at: Date; last_used_at: Date | null };
const toPasskey = (row: PasskeyRow): StoredPasskey => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export async function listPasskeys(db: Queryable, userId: number): Promise<StoredPasskey[]> {
  return (await db.query<PasskeyRow>('SELECT * FROM team_passkeys WHERE user_id = $1 ORDER BY id', [userId])).map(toPasskey);
}

export async function findPasskeyByCredential(db: Queryable, credentialId: string): Promise<StoredPasskey | undefined> {
  const [row] = await db.query<PasskeyRow>('SELECT * FROM team_passkeys WHERE credential_id = $1', [credentialId]);
  return row && toPasskey(row);
}

export async function insertPasskey(
  db: Queryable,
  passkey: { userId: number; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string },
  now: Date,
): Promise<StoredPasskey> {
  const [row] = await db.query<PasskeyRow>(
    'INSERT INTO team_passkeys (user_id, credential_id, public_key, counter, transports, name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
    [passkey.userId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.counter, JSON.stringify(passkey.transports), passkey.name, now],
  );
  return toPasskey(row!);
}

export async function recordPasskeyUse(db: Queryable, id: number, counter: number, now: Date): Promise<void> {
  await db.query('UPDATE team_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [id, counter, now]);
}

export async function deletePasskey(db: Queryable, userId: number, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM team_passkeys WHERE user_id = $1 AND id = $2 RETURNING id', [userId, id])).length === 1;
}
