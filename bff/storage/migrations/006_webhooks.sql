-- Signed webhooks: per merchant and mode, endpoints with a signing secret (sealed with the master key like the
-- private keys: the server must sign with it, so it cannot be a one-way digest); one delivery per outbox event and
-- enabled endpoint, written in the transaction of the event; one row per attempt, the delivery log.

CREATE TABLE webhook_endpoints (
  id                text PRIMARY KEY,
  merchant_id       integer NOT NULL REFERENCES merchants(id),
  mode              text NOT NULL CHECK (mode IN ('test', 'live')),
  url               text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  secret_sealed     bytea NOT NULL,
  created_at        timestamptz NOT NULL,
  secret_rotated_at timestamptz,
  -- A disabled endpoint gets no new deliveries and its pending ones end; it is kept for its log.
  disabled_at       timestamptz
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id, mode, created_at);

CREATE TABLE webhook_deliveries (
  id                text PRIMARY KEY,
  endpoint_id       text NOT NULL REFERENCES webhook_endpoints(id),
  event_id          text NOT NULL REFERENCES domain_events(id),
  status            text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts          integer NOT NULL DEFAULT 0,
  -- When the next attempt is due (app clock); null once the delivery ended.
  next_attempt_at   timestamptz,
  -- Retries stop here (3 days after the delivery was made); the delivery is then failed.
  deliver_until     timestamptz NOT NULL,
  -- A resend is a delivery of its own, of the same event to the same endpoint.
  resend_of         text REFERENCES webhook_deliveries(id),
  last_error        text,
  created_at        timestamptz NOT NULL,
  completed_at      timestamptz,
  CHECK ((status = 'pending') = (completed_at IS NULL))
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

-- The delivery log. An attempt is written when it starts and completed when its answer (or failure) is known, so
-- an attempt cut short by a process that died shows as interrupted rather than vanishing.
CREATE TABLE webhook_attempts (
  delivery_id       text NOT NULL REFERENCES webhook_deliveries(id),
  attempt           integer NOT NULL CHECK (attempt >= 1),
  started_at        timestamptz NOT NULL,
  finished_at       timestamptz,
  status_code       integer,
  -- Why it failed without an HTTP answer (timeout, refused connection): a short reason, never a response body.
  error             text,
  latency_ms        integer,
  PRIMARY KEY (delivery_id, attempt)
);
