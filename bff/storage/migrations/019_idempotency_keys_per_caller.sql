-- Idempotency keys per caller too (issue 36, item 7): a key used with the secret key and the same key used with the
-- publishable key are different keys, and publishable-key callers are told apart by what their grants let them see
-- (client token, customer session). `caller` is 'secret' or 'publishable:' and a keyed digest of the grants
-- (bff/services/idempotency.ts, callerScope); the grants themselves are not stored.
-- Rows from before this migration cannot say who used them; they are taken as the secret key's, whose retries are
-- the ones a merchant's server relies on, and they are gone within 24 hours anyway.
ALTER TABLE idempotency_keys ADD COLUMN caller text NOT NULL DEFAULT 'secret'
  CHECK (caller = 'secret' OR caller LIKE 'publishable:%');
ALTER TABLE idempotency_keys ALTER COLUMN caller DROP DEFAULT;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (merchant_id, mode, caller, key);
