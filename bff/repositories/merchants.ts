import type { Merchant, KeyKind, Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';

type MerchantRow = {
  id: number;
  name: string;
  country: string;
  support_email: string;
  logo_url: string | null;
  customization: Record<string, unknown>[] | null;
  allowed_origins: string[];
  fee_rules: unknown;
  legacy_encryption: boolean;
  disabled: boolean;
  created_at: Date;
};

const MERCHANT_COLUMNS = 'id, name, country, support_email, logo_url, customization, allowed_origins, fee_rules, legacy_encryption, disabled, created_at';

function toMerchant(row: MerchantRow): Merchant {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    supportEmail: row.support_email,
    logoUrl: row.logo_url,
    customization: row.customization,
    allowedOrigins: row.allowed_origins,
    feeRules: row.fee_rules,
    legacyEncryption: row.legacy_encryption,
    disabled: row.disabled,
    createdAt: row.created_at,
  };
}

export type NewMerchant = { name: string; country: string; supportEmail: string; allowedOrigins?: string[] };

export async function insertMerchant(db: Queryable, merchant: NewMerchant): Promise<Merchant> {
  const [row] = await db.query<MerchantRow>(
    `INSERT INTO merchants (name, country, support_email, allowed_origins) VALUES ($1, $2, $3, $4) RETURNING ${MERCHANT_COLUMNS}`,
    [merchant.name, merchant.country, merchant.supportEmail, JSON.stringify(merchant.allowedOrigins ?? [])],
  );
  return toMerchant(row!);
}

export async function findMerchant(db: Queryable, id: number): Promise<Merchant | undefined> {
  const [row] = await db.query<MerchantRow>(`SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE id = $1`, [id]);
  return row && toMerchant(row);
}

export async function updateAllowedOrigins(db: Queryable, id: number, origins: string[]): Promise<Merchant | undefined> {
  const [row] = await db.query<MerchantRow>(
    `UPDATE merchants SET allowed_origins = $2, updated_at = now() WHERE id = $1 RETURNING ${MERCHANT_COLUMNS}`,
    [id, JSON.stringify(origins)],
  );
  return row && toMerchant(row);
}

/** The business name, support e-mail and checkout customization (undefined: kept). */
export async function updateProfile(
  db: Queryable,
  id: number,
  change: { name?: string | undefined; supportEmail?: string | undefined; customization?: Record<string, unknown>[] | null | undefined },
): Promise<Merchant | undefined> {
  const [row] = await db.query<MerchantRow>(
    `UPDATE merchants SET name = COALESCE($2, name), support_email = COALESCE($3, support_email),
            customization = CASE WHEN $4::boolean THEN $5::jsonb ELSE customization END, updated_at = now()
      WHERE id = $1 RETURNING ${MERCHANT_COLUMNS}`,
    [id, change.name ?? null, change.supportEmail ?? null, change.customization !== undefined, change.customization == null ? null : JSON.stringify(change.customization)],
  );
  return row && toMerchant(row);
}

export async function updateLogo(db: Queryable, id: number, logoUrl: string | null): Promise<Merchant | undefined> {
  const [row] = await db.query<MerchantRow>(`UPDATE merchants SET logo_url = $2, updated_at = now() WHERE id = $1 RETURNING ${MERCHANT_COLUMNS}`, [id, logoUrl]);
  return row && toMerchant(row);
}

export async function listMerchants(db: Queryable): Promise<Merchant[]> {
  const rows = await db.query<MerchantRow>(`SELECT ${MERCHANT_COLUMNS} FROM merchants ORDER BY id`);
  return rows.map(toMerchant);
}

/** Held until the transaction ends: serialises the first start's sandbox-merchant creation across processes. */
export async function lockForSandboxCreation(db: Queryable): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(7301202)');
}

export async function countMerchants(db: Queryable): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM merchants');
  return row?.count ?? 0;
}

export async function insertApiKey(
  db: Queryable,
  key: { merchantId: number; mode: Mode; kind: KeyKind; lookup: string; digest: Buffer; publishableKey: string | null },
): Promise<void> {
  await db.query(
    'INSERT INTO api_keys (merchant_id, mode, kind, lookup, key_digest, publishable_key) VALUES ($1, $2, $3, $4, $5, $6)',
    [key.merchantId, key.mode, key.kind, key.lookup, key.digest, key.publishableKey],
  );
}

export async function revokeApiKeys(db: Queryable, merchantId: number, mode: Mode): Promise<void> {
  await db.query('UPDATE api_keys SET revoked_at = now() WHERE merchant_id = $1 AND mode = $2 AND revoked_at IS NULL', [merchantId, mode]);
}

export type StoredApiKey = { mode: Mode; kind: KeyKind; digest: Buffer; merchant: Merchant };

/** The live key row with this lookup, with its merchant; revoked keys are not found. */
export async function findApiKey(db: Queryable, lookup: string): Promise<StoredApiKey | undefined> {
  const [row] = await db.query<MerchantRow & { mode: Mode; kind: KeyKind; key_digest: Uint8Array }>(
    `SELECT k.mode, k.kind, k.key_digest, ${MERCHANT_COLUMNS.split(', ').map((column) => `m.${column}`).join(', ')}
       FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.lookup = $1 AND k.revoked_at IS NULL`,
    [lookup],
  );
  if (!row) return undefined;
  return { mode: row.mode, kind: row.kind, digest: Buffer.from(row.key_digest), merchant: toMerchant(row) };
}

export async function findPublishableKey(db: Queryable, merchantId: number, mode: Mode): Promise<string | undefined> {
  const [row] = await db.query<{ publishable_key: string }>(
    `SELECT publishable_key FROM api_keys
      WHERE merchant_id = $1 AND mode = $2 AND kind = 'publishable' AND revoked_at IS NULL
      ORDER BY id DESC LIMIT 1`,
    [merchantId, mode],
  );
  return row?.publishable_key;
}

export type StoredEncryptionKey = { id: number; algorithm: string; publicKey: string; privateKeySealed: Buffer };

export async function insertEncryptionKey(
  db: Queryable,
  key: { merchantId: number; mode: Mode; algorithm: string; publicKey: string; privateKeySealed: Buffer },
): Promise<void> {
  await db.query(
    'INSERT INTO encryption_keys (merchant_id, mode, algorithm, public_key, private_key_sealed) VALUES ($1, $2, $3, $4, $5)',
    [key.merchantId, key.mode, key.algorithm, key.publicKey, key.privateKeySealed],
  );
}

export async function retireEncryptionKeys(db: Queryable, merchantId: number, mode: Mode): Promise<void> {
  await db.query('UPDATE encryption_keys SET retired_at = now() WHERE merchant_id = $1 AND mode = $2 AND retired_at IS NULL', [merchantId, mode]);
}

export async function findActiveEncryptionKeys(db: Queryable, merchantId: number, mode: Mode): Promise<StoredEncryptionKey[]> {
  const rows = await db.query<{ id: number; algorithm: string; public_key: string; private_key_sealed: Uint8Array }>(
    `SELECT id, algorithm, public_key, private_key_sealed FROM encryption_keys
      WHERE merchant_id = $1 AND mode = $2 AND retired_at IS NULL ORDER BY id`,
    [merchantId, mode],
  );
  return rows.map((row) => ({ id: row.id, algorithm: row.algorithm, publicKey: row.public_key, privateKeySealed: Buffer.from(row.private_key_sealed) }));
}

/** The oldest merchant's test publishable key: the sandbox merchant the demo page uses. */
export async function findFirstTestPublishableKey(db: Queryable): Promise<string | undefined> {
  const [row] = await db.query<{ publishable_key: string }>(
    `SELECT k.publishable_key FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.kind = 'publishable' AND k.mode = 'test' AND k.revoked_at IS NULL AND NOT m.disabled
      ORDER BY m.id, k.id DESC LIMIT 1`,
  );
  return row?.publishable_key;
}

/** The setup checklist's facts for a merchant in a mode (the dashboard's Home), in one statement. */
export async function setupFacts(db: Queryable, merchantId: number, mode: Mode): Promise<{ apiKeys: boolean; webhook: boolean; firstTestPayment: boolean }> {
  const [row] = await db.query<{ api_keys: boolean; webhook: boolean; first_test_payment: boolean }>(
    `SELECT
       EXISTS (SELECT 1 FROM api_keys WHERE merchant_id = $1 AND mode = $2 AND revoked_at IS NULL) AS api_keys,
       EXISTS (SELECT 1 FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND disabled_at IS NULL) AS webhook,
       EXISTS (SELECT 1 FROM orders WHERE merchant_id = $1 AND mode = 'test' AND status_id IN (5, 6)) AS first_test_payment`,
    [merchantId, mode],
  );
  return { apiKeys: row!.api_keys, webhook: row!.webhook, firstTestPayment: row!.first_test_payment };
}
