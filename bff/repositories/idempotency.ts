import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';

/**
 * Whose key it is: keys are scoped per merchant, mode and caller (`secret`, or `publishable:` and a digest of the
 * caller's grants), so a browser and the merchant's server never share a key.
 */
export type IdempotencyScope = { merchantId: number; mode: Mode; caller: string };

export type IdempotencyRecord = {
  fingerprint: Buffer;
  claimToken: string;
  leaseUntil: Date;
  /** The stored answer; null while the request holding the claim is still running. */
  response: { status: number; body: string } | null;
  createdAt: Date;
};

/** A claim: who holds the key (`claimToken`), on which request, until when. */
export type IdempotencyClaim = { fingerprint: Buffer; claimToken: string; leaseUntil: Date; createdAt: Date };

type KeyRow = {
  fingerprint: Uint8Array;
  claim_token: string;
  lease_until: Date;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
};

const toRecord = (row: KeyRow): IdempotencyRecord => ({
  fingerprint: Buffer.from(row.fingerprint),
  claimToken: row.claim_token,
  leaseUntil: row.lease_until,
  response: row.response_status !== null && row.response_body !== null ? { status: row.response_status, body: row.response_body } : null,
  createdAt: row.created_at,
});

/** Claims a key nobody holds. One statement: of any number of concurrent claims exactly one gets true. */
export async function insertIdempotencyKey(db: Queryable, scope: IdempotencyScope, key: string, claim: IdempotencyClaim): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO idempotency_keys (merchant_id, mode, caller, key, fingerprint, claim_token, lease_until, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (merchant_id, mode, caller, key) DO NOTHING
     RETURNING claim_token`,
    [scope.merchantId, scope.mode, scope.caller, key, claim.fingerprint, claim.claimToken, claim.leaseUntil, claim.createdAt],
  );
  return rows.length === 1;
}

export async function findIdempotencyKey(db: Queryable, scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.query<KeyRow>(
    `SELECT fingerprint, claim_token, lease_until, response_status, response_body, created_at
     FROM idempotency_keys WHERE merchant_id = $1 AND mode = $2 AND caller = $3 AND key = $4`,
    [scope.merchantId, scope.mode, scope.caller, key],
  );
  return row && toRecord(row);
}

/**
 * Replaces the claim `expectedToken` holds with a new one, dropping any stored answer (compare-and-set: of
 * concurrent takeovers of one claim exactly one gets true).
 */
export async function takeOverIdempotencyKey(
  db: Queryable,
  scope: IdempotencyScope,
  key: string,
  expectedToken: string,
  claim: IdempotencyClaim,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE idempotency_keys
     SET fingerprint = $6, claim_token = $7, lease_until = $8, created_at = $9, response_status = NULL, response_body = NULL, completed_at = NULL
     WHERE merchant_id = $1 AND mode = $2 AND caller = $3 AND key = $4 AND claim_token = $5
     RETURNING claim_token`,
    [scope.merchantId, scope.mode, scope.caller, key, expectedToken, claim.fingerprint, claim.claimToken, claim.leaseUntil, claim.createdAt],
  );
  return rows.length === 1;
}

/** Stores the answer of the request holding `claimToken`; false when its claim was taken over meanwhile. */
export async function completeIdempotencyKey(
  db: Queryable,
  scope: IdempotencyScope,
  key: string,
  claimToken: string,
  response: { status: number; body: string; completedAt: Date },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE idempotency_keys SET response_status = $6, response_body = $7, completed_at = $8
     WHERE merchant_id = $1 AND mode = $2 AND caller = $3 AND key = $4 AND claim_token = $5 AND response_status IS NULL
     RETURNING claim_token`,
    [scope.merchantId, scope.mode, scope.caller, key, claimToken, response.status, response.body, response.completedAt],
  );
  return rows.length === 1;
}

/** Deletes keys first used before `before`; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'WITH purged AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS count FROM purged',
    [before],
  );
  return row?.count ?? 0;
}
