-- Idempotency keys (protocol.md 4.12), per merchant and mode. A row is "running" while its answer is NULL: the
-- request holding `claim_token` runs until `lease_until` (app clock), after which a retry may take the claim over.
-- Only a keyed fingerprint of the request is kept, never the request body (it can hold card data); the answer is
-- the JSON text the server sent, replayed byte for byte. Rows older than 24 hours count as absent and are purged.
CREATE TABLE idempotency_keys (
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  key             text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  fingerprint     bytea NOT NULL,
  claim_token     text NOT NULL,
  lease_until     timestamptz NOT NULL,
  response_status integer,
  response_body   text,
  created_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  PRIMARY KEY (merchant_id, mode, key),
  CHECK ((response_status IS NULL) = (response_body IS NULL)),
  CHECK ((response_status IS NULL) = (completed_at IS NULL))
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
