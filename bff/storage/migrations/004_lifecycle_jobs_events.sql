-- The payments core: why an attempt ended (a closed set, never its message text), the processor's own code,
-- durable jobs (timed work and deliveries, claimed with FOR UPDATE SKIP LOCKED so any number of processes share
-- them), the outbox of domain events, and the sandbox acquirer's own records.

ALTER TABLE order_payments ADD COLUMN reason text CHECK (reason IN (
  'declined', 'authentication-failed', 'authentication-expired', 'account-expired', 'superseded', 'interrupted', 'already-paid'));
ALTER TABLE order_payments ADD COLUMN raw_response_code text;
ALTER TABLE order_payments ADD COLUMN processor text NOT NULL DEFAULT 'sandbox';

-- Attempts that ended before this migration get their reason from what was recorded then.
UPDATE order_payments SET reason = CASE
    WHEN response_code = '04' THEN 'account-expired'
    WHEN response_message = 'Authentication expired' THEN 'authentication-expired'
    WHEN response_message = 'Superseded by a new payment attempt' THEN 'superseded'
    WHEN remarks LIKE 'Interrupted while processing%' THEN 'interrupted'
    WHEN remarks LIKE '%already paid by another attempt%' OR remarks LIKE '%after the order was paid by another attempt%' THEN 'already-paid'
    ELSE 'declined' END
  WHERE status_id = 4;

CREATE TABLE jobs (
  id              bigserial PRIMARY KEY,
  kind            text NOT NULL,
  -- At most one pending job per key (an attempt's expiry, an event's fan-out): enqueueing it again is a no-op.
  key             text UNIQUE,
  payload         jsonb NOT NULL,
  run_at          timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  -- A claim is a lease: a process that dies holding it loses it when the lease ends, and the job runs again.
  locked_by       text,
  locked_until    timestamptz,
  last_error      text,
  -- Jobs that gave up stay for the operator to see; done jobs are deleted.
  dead_at         timestamptz,
  created_at      timestamptz NOT NULL
);
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE dead_at IS NULL;

CREATE TABLE domain_events (
  id              text PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  type            text NOT NULL,
  order_id        integer REFERENCES orders(id),
  -- The object as it was when the event happened (for an order: what verify returned at that moment).
  data            jsonb NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX domain_events_merchant ON domain_events (merchant_id, mode, created_at DESC);

-- The sandbox issuer counts wrong one-time codes on its own challenge now, not on the payment.
ALTER TABLE order_payments DROP COLUMN auth_attempts;

-- The sandbox acquirer's own book: every charge it decided and every 3-D Secure challenge it runs. A real acquirer
-- keeps these on its side; the sandbox keeps them here so a restart forgets nothing.
CREATE TABLE sandbox_charges (
  reference       text PRIMARY KEY,
  -- 'approved' or 'declined' once decided; 'challenge' while its 3-D Secure page waits for the customer.
  state           text NOT NULL CHECK (state IN ('challenge', 'approved', 'declined')),
  -- The issuer's code after a passed challenge (test cards decide it), or the final code.
  code            text NOT NULL,
  card_token      text,
  wrong_codes     integer NOT NULL DEFAULT 0,
  -- The customer's answer on the challenge page: null while none was given.
  passed          boolean,
  amount_minor    bigint NOT NULL,
  currency        char(3) NOT NULL,
  -- What the issuer's page shows: who is paid, with which card (brand and last four only).
  merchant_name   text NOT NULL,
  instrument      text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);

CREATE TABLE sandbox_cards (
  token           text PRIMARY KEY,
  -- What the sandbox needs to decide a later charge on the card: its test-card verdict, never the number.
  code            text NOT NULL,
  created_at      timestamptz NOT NULL
);

-- Attempts open when this migration runs get the jobs that end them in time.
INSERT INTO jobs (kind, key, payload, run_at, created_at)
SELECT 'payment.expire-transfer', 'payment.expire-transfer:' || id, json_build_object('paymentId', id), transfer_expires_at, updated_at
  FROM order_payments WHERE status_id = 2 AND stage = 'transfer' AND transfer_expires_at IS NOT NULL;
INSERT INTO jobs (kind, key, payload, run_at, created_at)
SELECT 'payment.expire-authentication', 'payment.expire-authentication:' || id, json_build_object('paymentId', id), created_at + interval '15 minutes', updated_at
  FROM order_payments WHERE status_id = 2 AND stage = 'authentication';
INSERT INTO jobs (kind, key, payload, run_at, created_at)
SELECT 'payment.requery', 'payment.requery:' || id, json_build_object('paymentId', id), updated_at + interval '2 minutes', updated_at
  FROM order_payments WHERE status_id = 2 AND stage = 'processing';
