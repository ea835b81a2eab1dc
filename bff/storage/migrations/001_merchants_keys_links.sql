-- Merchants ("subsidiaries"), their API keys and encryption keys, and payment links.

CREATE TABLE merchants (
  id              serial PRIMARY KEY,
  name            text NOT NULL,
  country         char(2) NOT NULL,
  support_email   text NOT NULL,
  logo_url        text,
  customization   jsonb,
  allowed_origins jsonb NOT NULL DEFAULT '[]'::jsonb,
  fee_rules       jsonb,
  legacy_encryption boolean NOT NULL DEFAULT true,
  disabled        boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Keys are stored as SHA-256 digests; `lookup` is the non-secret part of the key used to find the row.
CREATE TABLE api_keys (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  kind            text NOT NULL CHECK (kind IN ('publishable', 'secret')),
  lookup          text NOT NULL UNIQUE,
  key_digest      bytea NOT NULL,
  publishable_key text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  revoked_at      timestamptz,
  CHECK ((kind = 'publishable') = (publishable_key IS NOT NULL))
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, mode) WHERE revoked_at IS NULL;

-- Private halves are sealed with the master key (AES-256-GCM); only the public half is stored in the clear.
CREATE TABLE encryption_keys (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  algorithm       text NOT NULL,
  public_key      text NOT NULL,
  private_key_sealed bytea NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  retired_at      timestamptz
);
CREATE UNIQUE INDEX encryption_keys_active ON encryption_keys (merchant_id, mode, algorithm) WHERE retired_at IS NULL;

CREATE TABLE payment_links (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  reference       text NOT NULL UNIQUE,
  code            text NOT NULL UNIQUE,
  name            text NOT NULL,
  description     text NOT NULL,
  payment_type    text NOT NULL CHECK (payment_type IN ('SC', 'MC', 'SUB')),
  currency        char(3) NOT NULL,
  auth_option     text NOT NULL CHECK (auth_option IN ('AUTH', 'NOAUTH')),
  amount_minor    bigint CHECK (amount_minor > 0),
  mobile          text,
  background_image text,
  website         text,
  payer_limit     integer NOT NULL DEFAULT 0 CHECK (payer_limit >= 0),
  uses            integer NOT NULL DEFAULT 0,
  is_active       boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_links_merchant ON payment_links (merchant_id, created_at);
