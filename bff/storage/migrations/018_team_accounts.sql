-- Team accounts (issue 32): members of a merchant with a role, their second factors, server-side sessions,
-- one-time invitation and reset tokens, sign-in failures for lockout, and the audit log. No secret is stored in
-- the clear: passwords as argon2id strings, session ids, tokens and backup codes as digests, TOTP secrets sealed
-- under the master key.

CREATE TABLE team_users (
  id               serial PRIMARY KEY,
  merchant_id      integer NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  email            text NOT NULL,
  role             text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
  -- Null until the invitation is accepted.
  password_hash    text,
  totp_sealed      bytea,
  -- A secret shown but not yet confirmed by a code.
  totp_pending     bytea,
  -- The last TOTP time step accepted: a code is never accepted twice.
  totp_last_step   bigint,
  last_sign_in_at  timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
-- One account per e-mail: signing in names no merchant.
CREATE UNIQUE INDEX team_users_email ON team_users (lower(email));
CREATE INDEX team_users_merchant ON team_users (merchant_id, id);

CREATE TABLE team_settings (
  merchant_id        integer PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  require_two_factor boolean NOT NULL DEFAULT false
);

CREATE TABLE team_backup_codes (
  user_id  integer NOT NULL REFERENCES team_users (id) ON DELETE CASCADE,
  digest   bytea NOT NULL,
  used_at  timestamptz,
  PRIMARY KEY (user_id, digest)
);

CREATE TABLE team_passkeys (
  id             serial PRIMARY KEY,
  user_id        integer NOT NULL REFERENCES team_users (id) ON DELETE CASCADE,
  credential_id  text NOT NULL UNIQUE,
  public_key     bytea NOT NULL,
  counter        bigint NOT NULL,
  transports     jsonb NOT NULL DEFAULT '[]',
  name           text NOT NULL,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz
);
CREATE INDEX team_passkeys_user ON team_passkeys (user_id);

-- Invitations and password resets: the link carries the token, the table its digest; used once, then kept as used.
CREATE TABLE team_tokens (
  digest      bytea PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES team_users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('invitation', 'password_reset')),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX team_tokens_user ON team_tokens (user_id, purpose);

-- A session: its id's digest (the cookie holds the id). `stage` is `full`, or a sign-in still waiting for its
-- second factor (`second_factor`) or for TOTP enrolment (`enrolment`), which nothing but that step accepts.
CREATE TABLE team_sessions (
  id               serial PRIMARY KEY,
  digest           bytea NOT NULL UNIQUE,
  user_id          integer NOT NULL REFERENCES team_users (id) ON DELETE CASCADE,
  stage            text NOT NULL CHECK (stage IN ('full', 'second_factor', 'enrolment')),
  created_at       timestamptz NOT NULL,
  last_seen_at     timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  stepped_up_at    timestamptz,
  ip               text,
  user_agent       text,
  revoked_at       timestamptz
);
CREATE INDEX team_sessions_user ON team_sessions (user_id, created_at DESC);

-- WebAuthn challenges, each used once within its minutes.
CREATE TABLE team_challenges (
  challenge   text PRIMARY KEY,
  purpose     text NOT NULL CHECK (purpose IN ('registration', 'authentication')),
  user_id     integer REFERENCES team_users (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);

-- Failed sign-in steps, per account (`account:<digest of the e-mail>`, known or not) and per address (`ip:...`).
CREATE TABLE team_sign_in_failures (
  key  text NOT NULL,
  at   timestamptz NOT NULL
);
CREATE INDEX team_sign_in_failures_key ON team_sign_in_failures (key, at);

CREATE TABLE team_audit (
  id           serial PRIMARY KEY,
  -- Null for a failed sign-in with an e-mail no merchant has.
  merchant_id  integer REFERENCES merchants (id) ON DELETE CASCADE,
  actor_id     integer,
  actor_email  text,
  actor_role   text,
  ip           text,
  action       text NOT NULL,
  target       text,
  created_at   timestamptz NOT NULL
);
CREATE INDEX team_audit_newest ON team_audit (merchant_id, created_at DESC, id DESC);
