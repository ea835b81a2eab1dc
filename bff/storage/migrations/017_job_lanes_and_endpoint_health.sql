-- Lanes of the job queue, and the health of webhook endpoints (issue 36, item 2).
--
-- Every job belongs to a lane, and each process runs each lane with its own number of slots: webhook deliveries in
-- theirs, everything else (expiries, re-queries, charges, refunds, maintenance) in the payments lane, which
-- deliveries to endpoints that never answer cannot fill. The lane follows from the kind; generated here, so every
-- writer of jobs (enqueue, the outbox's fan-out statement, migrations) puts a job in its lane without knowing of lanes.
ALTER TABLE jobs ADD COLUMN lane text NOT NULL
  GENERATED ALWAYS AS (CASE WHEN kind = 'webhook.deliver' THEN 'webhooks' ELSE 'payments' END) STORED;
-- A lane's claim reads its own due jobs in order, without walking the other lane's backlog.
CREATE INDEX jobs_due_by_lane ON jobs (lane, run_at, id) WHERE dead_at IS NULL;

-- An endpoint's timeouts in a row; at the limit its breaker opens until paused_until (deliveries wait, their
-- attempts untouched). Any attempt that ends other than by timing out resets both.
ALTER TABLE webhook_endpoints ADD COLUMN consecutive_timeouts integer NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN paused_until timestamptz;

-- Attempts in flight (started, not finished) are counted per endpoint before another starts; the recent ones are
-- few, whatever the size of the log (an attempt cut short by a dying process stays unfinished, and ages out).
CREATE INDEX webhook_attempts_unfinished ON webhook_attempts (started_at) WHERE finished_at IS NULL;

-- A delivery turned away from a busy endpoint waits for it: the attempt that frees the endpoint brings the first of
-- them forward (one that waits for its backoff after a failed attempt, or for an open breaker, is not one of them).
ALTER TABLE webhook_deliveries ADD COLUMN waits_for_endpoint boolean NOT NULL DEFAULT false;
-- A delivery turned away moves its endpoint's other due deliveries with it: found among the pending ones only.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
