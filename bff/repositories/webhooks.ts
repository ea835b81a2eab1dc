import type { DomainEvent } from '../domain/events.ts';
import type { JobClaim } from '../jobs/kinds.ts';
import type { Mode } from '../domain/merchant.ts';
import type { DeliveryStatus, EndpointHealth, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../domain/webhooks.ts';
import type { Queryable } from '../storage/storage.ts';

type EndpointRow = {
  id: string; merchant_id: number; mode: Mode; url: string; created_at: Date; secret_rotated_at: Date | null; disabled_at: Date | null;
};
const ENDPOINT_COLUMNS = 'id, merchant_id, mode, url, created_at, secret_rotated_at, disabled_at';

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id, merchantId: row.merchant_id, mode: row.mode, url: row.url, createdAt: row.created_at,
  secretRotatedAt: row.secret_rotated_at, disabledAt: row.disabled_at,
});

export async function insertEndpoint(
  db: Queryable,
  endpoint: { id: string; merchantId: number; mode: Mode; url: string; secretSealed: Buffer; createdAt: Date },
): Promise<WebhookEndpoint> {
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, merchant_id, mode, url, secret_sealed, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING ${ENDPOINT_COLUMNS}`,
    [endpoint.id, endpoint.merchantId, endpoint.mode, endpoint.url, endpoint.secretSealed, endpoint.createdAt],
  );
  return toEndpoint(row!);
}

/** Serialises endpoint changes of one merchant and mode (the enabled-endpoint limit is checked under it). */
export async function lockMerchantEndpoints(db: Queryable, merchantId: number): Promise<void> {
  await db.query('SELECT id FROM merchants WHERE id = $1 FOR UPDATE', [merchantId]);
}

export async function countEnabledEndpoints(db: Queryable, merchantId: number, mode: Mode): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND disabled_at IS NULL',
    [merchantId, mode],
  );
  return row!.count;
}

export async function listEndpoints(db: Queryable, merchantId: number, mode: Mode): Promise<WebhookEndpoint[]> {
  const rows = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 ORDER BY created_at, id`,
    [merchantId, mode],
  );
  return rows.map(toEndpoint);
}

export async function findEndpoint(db: Queryable, merchantId: number, mode: Mode, id: string): Promise<WebhookEndpoint | undefined> {
  const [row] = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND id = $3`,
    [merchantId, mode, id],
  );
  return row && toEndpoint(row);
}

/** A new secret for an enabled endpoint; undefined when it is disabled. */
export async function replaceSecret(db: Queryable, id: string, secretSealed: Buffer, now: Date): Promise<WebhookEndpoint | undefined> {
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET secret_sealed = $2, secret_rotated_at = $3 WHERE id = $1 AND disabled_at IS NULL RETURNING ${ENDPOINT_COLUMNS}`,
    [id, secretSealed, now],
  );
  return row && toEndpoint(row);
}

/** Disables the endpoint (once) and ends its pending deliveries with `reason`. */
export async function disableEndpoint(db: Queryable, id: string, now: Date, reason: string): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET disabled_at = $2 WHERE id = $1 AND disabled_at IS NULL', [id, now]);
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $3, completed_at = $2
      WHERE endpoint_id = $1 AND status = 'pending'`,
    [id, now, reason],
  );
}

export async function insertDelivery(
  db: Queryable,
  delivery: { id: string; endpointId: string; eventId: string; deliverUntil: Date; resendOf: string | null; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, next_attempt_at, deliver_until, resend_of, created_at)
     VALUES ($1, $2, $3, 'pending', $6, $4, $5, $6)`,
    [delivery.id, delivery.endpointId, delivery.eventId, delivery.deliverUntil, delivery.resendOf, delivery.createdAt],
  );
}

/**
 * Records an outbox event with its fan-out in one statement: the event, one pending delivery per endpoint of its
 * merchant and mode enabled at that moment (in endpoint order, each taking the next of `deliveryIds`, which holds
 * at least as many ids as a merchant may have enabled endpoints) and each delivery's `webhook.deliver` job, due now.
 * `jobContext` is added to every job's payload.
 */
export async function insertEventWithDeliveries(
  db: Queryable,
  event: DomainEvent,
  fanOut: { deliveryIds: readonly string[]; deliverUntil: Date; jobContext: Record<string, string> },
): Promise<void> {
  await db.query(
    `WITH v AS (INSERT INTO domain_events (id, merchant_id, mode, type, order_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id),
     ep AS (SELECT id, (row_number() OVER (ORDER BY created_at, id))::int AS n
              FROM webhook_endpoints WHERE merchant_id = $2 AND mode = $3 AND disabled_at IS NULL AND EXISTS (SELECT 1 FROM v)),
     d AS (INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, next_attempt_at, deliver_until, resend_of, created_at)
           SELECT ($8::text[])[ep.n], ep.id, $1, 'pending', $7, $9, NULL, $7 FROM ep RETURNING id)
     INSERT INTO jobs (kind, key, payload, run_at, created_at)
     SELECT 'webhook.deliver', 'webhook.deliver:' || d.id, jsonb_build_object('deliveryId', d.id) || $10::jsonb, $7, $7 FROM d
         ON CONFLICT (key) DO NOTHING`,
    [event.id, event.merchantId, event.mode, event.type, event.orderId, JSON.stringify(event.data), event.createdAt,
      fanOut.deliveryIds, fanOut.deliverUntil, JSON.stringify(fanOut.jobContext)],
  );
}

/** Everything one attempt needs: the delivery's state, where it goes, the sealed secret and the event to send. */
export type DeliveryToSend = {
  status: DeliveryStatus;
  deliverUntil: Date;
  endpointId: string;
  url: string;
  endpointDisabled: boolean;
  secretSealed: Buffer;
  event: { id: string; type: string; createdAt: Date; data: unknown };
};

type SendRow = {
  status: DeliveryStatus; deliver_until: Date; endpoint_id: string; url: string; disabled_at: Date | null; secret_sealed: Uint8Array;
  event_id: string; type: string; event_created_at: Date; data: unknown;
};
const SEND_COLUMNS = `d.status, d.deliver_until, e.id AS endpoint_id, e.url, e.disabled_at, e.secret_sealed,
            v.id AS event_id, v.type, v.created_at AS event_created_at, v.data`;
const SEND_FROM = `FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       JOIN domain_events v ON v.id = d.event_id`;
const toSend = (row: SendRow): DeliveryToSend => ({
  status: row.status,
  deliverUntil: row.deliver_until,
  endpointId: row.endpoint_id,
  url: row.url,
  endpointDisabled: row.disabled_at !== null,
  secretSealed: Buffer.from(row.secret_sealed),
  event: { id: row.event_id, type: row.type, createdAt: row.event_created_at, data: row.data },
});

/**
 * A delivery to send, with its endpoint's health and attempts in flight, the endpoint's row locked until the
 * transaction ends: attempts of one endpoint start one after another, in any process. An attempt in flight is one of
 * its pending deliveries' started since `since` and not finished; one started earlier and never finished was cut
 * short by a process that died. The count is a statement of its own, after the lock: a statement's snapshot is
 * taken when it starts, so counted in the locking statement it would miss an attempt committed while that waited.
 */
export async function lockDeliveryToSend(
  db: Queryable,
  id: string,
  since: Date,
): Promise<{ delivery: DeliveryToSend; health: EndpointHealth; inFlight: number } | undefined> {
  const [row] = await db.query<SendRow & { consecutive_timeouts: number; paused_until: Date | null }>(
    `SELECT ${SEND_COLUMNS}, e.consecutive_timeouts, e.paused_until ${SEND_FROM} WHERE d.id = $1 FOR UPDATE OF e`,
    [id],
  );
  if (!row) return undefined;
  const [counted] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE a.finished_at IS NULL AND a.started_at > $2 AND d.endpoint_id = $1 AND d.status = 'pending'`,
    [row.endpoint_id, since],
  );
  return { delivery: toSend(row), health: { consecutiveTimeouts: row.consecutive_timeouts, pausedUntil: row.paused_until }, inFlight: counted!.count };
}

/** The endpoint's health, its row locked until the transaction ends. */
export async function lockEndpointHealth(db: Queryable, endpointId: string): Promise<EndpointHealth> {
  const [row] = await db.query<{ consecutive_timeouts: number; paused_until: Date | null }>(
    'SELECT consecutive_timeouts, paused_until FROM webhook_endpoints WHERE id = $1 FOR UPDATE',
    [endpointId],
  );
  return { consecutiveTimeouts: row?.consecutive_timeouts ?? 0, pausedUntil: row?.paused_until ?? null };
}

export async function saveEndpointHealth(db: Queryable, endpointId: string, health: EndpointHealth): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET consecutive_timeouts = $2, paused_until = $3 WHERE id = $1', [
    endpointId,
    health.consecutiveTimeouts,
    health.pausedUntil,
  ]);
}

/**
 * A pending delivery waits until `at` without an attempt (its endpoint is busy or its breaker open), and so do the
 * endpoint's other deliveries due by `now` whose jobs no process holds: one statement moves them all, rather than
 * each being claimed only to be turned away. Its own job is released here too (`claim`, as the runner would after an
 * `again`), so an attempt ending a moment later finds it free to wake. Their attempts and the jobs' attempt counts
 * are untouched. Those that wait for a busy endpoint (`forEndpoint`) are brought forward one by one as its attempts
 * end (`wakeNextWaiting`).
 */
export async function deferEndpointDeliveries(
  db: Queryable,
  delivery: { id: string; endpointId: string; claim: JobClaim | undefined },
  wait: { until: Date; forEndpoint: boolean },
  now: Date,
): Promise<void> {
  await db.query(
    `WITH waiting AS (
       SELECT id FROM webhook_deliveries WHERE endpoint_id = $2 AND status = 'pending' AND next_attempt_at <= $4 AND id <> $1),
     moved AS (
       UPDATE jobs j SET run_at = $3 FROM waiting w
        WHERE j.key = 'webhook.deliver:' || w.id AND j.dead_at IS NULL AND j.run_at <= $4 AND (j.locked_until IS NULL OR j.locked_until <= $4)
        RETURNING w.id),
     released AS (
       UPDATE jobs SET run_at = $3, locked_by = NULL, locked_until = NULL, attempts = 0 WHERE id = $6 AND locked_by = $7 RETURNING id)
     UPDATE webhook_deliveries SET next_attempt_at = $3, waits_for_endpoint = $5
      WHERE status = 'pending' AND (id = $1 OR id IN (SELECT id FROM moved))`,
    [delivery.id, delivery.endpointId, wait.until, now, wait.forEndpoint, delivery.claim?.jobId ?? null, delivery.claim?.worker ?? null],
  );
}

/**
 * An attempt at the endpoint ended: the delivery that has waited longest for it is due now (its job too, unless a
 * process holds it), so a healthy endpoint's deliveries follow one another without a gap.
 */
export async function wakeNextWaiting(db: Queryable, endpointId: string, now: Date): Promise<void> {
  await db.query(
    `WITH next AS (
       SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND waits_for_endpoint AND next_attempt_at > $2
        ORDER BY next_attempt_at, id LIMIT 1),
     woken AS (
       UPDATE jobs j SET run_at = $2 FROM next
        WHERE j.key = 'webhook.deliver:' || next.id AND j.dead_at IS NULL AND (j.locked_until IS NULL OR j.locked_until <= $2)
        RETURNING next.id)
     UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id IN (SELECT id FROM woken)`,
    [endpointId, now],
  );
}

/** Counts and logs the start of an attempt on a pending delivery; its number, or undefined when it is not pending. */
export async function startAttempt(db: Queryable, deliveryId: string, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ attempts: number }>(
    `WITH counted AS (
       UPDATE webhook_deliveries SET attempts = attempts + 1, waits_for_endpoint = false WHERE id = $1 AND status = 'pending' RETURNING attempts)
     INSERT INTO webhook_attempts (delivery_id, attempt, started_at) SELECT $1, attempts, $2 FROM counted RETURNING attempt AS attempts`,
    [deliveryId, now],
  );
  return row?.attempts;
}

export async function finishAttempt(
  db: Queryable,
  deliveryId: string,
  attempt: number,
  outcome: { finishedAt: Date; statusCode: number | null; error: string | null; latencyMs: number | null },
): Promise<void> {
  await db.query(
    `UPDATE webhook_attempts SET finished_at = $3, status_code = $4, error = $5, latency_ms = $6 WHERE delivery_id = $1 AND attempt = $2`,
    [deliveryId, attempt, outcome.finishedAt, outcome.statusCode, outcome.error, outcome.latencyMs],
  );
}

/** Records where a pending delivery stands after an attempt: still pending (next attempt due), or ended. */
export async function settleDelivery(
  db: Queryable,
  id: string,
  state: { status: DeliveryStatus; nextAttemptAt: Date | null; lastError: string | null; completedAt: Date | null },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, last_error = $4, completed_at = $5 WHERE id = $1 AND status = 'pending'`,
    [id, state.status, state.nextAttemptAt, state.lastError, state.completedAt],
  );
}

type DeliveryRow = {
  id: string; endpoint_id: string; event_id: string; event_type: string; status: DeliveryStatus; next_attempt_at: Date | null;
  deliver_until: Date; resend_of: string | null; last_error: string | null; created_at: Date; completed_at: Date | null;
};
type AttemptRow = {
  delivery_id: string; attempt: number; started_at: Date; finished_at: Date | null; status_code: number | null; error: string | null;
  latency_ms: number | null;
};

async function withAttempts(db: Queryable, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db.query<AttemptRow>(
    'SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt',
    [rows.map((row) => row.id)],
  );
  const byDelivery = new Map<string, WebhookAttempt[]>();
  for (const row of attempts) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push({ attempt: row.attempt, startedAt: row.started_at, finishedAt: row.finished_at, statusCode: row.status_code, error: row.error, latencyMs: row.latency_ms });
    byDelivery.set(row.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id, endpointId: row.endpoint_id, eventId: row.event_id, eventType: row.event_type, status: row.status,
    attempts: byDelivery.get(row.id) ?? [], nextAttemptAt: row.next_attempt_at, deliverUntil: row.deliver_until,
    resendOf: row.resend_of, lastError: row.last_error, createdAt: row.created_at, completedAt: row.completed_at,
  }));
}

const DELIVERY_SELECT = `SELECT d.id, d.endpoint_id, d.event_id, v.type AS event_type, d.status, d.next_attempt_at, d.deliver_until,
       d.resend_of, d.last_error, d.created_at, d.completed_at
  FROM webhook_deliveries d
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  JOIN domain_events v ON v.id = d.event_id`;

/** The endpoint's latest deliveries, newest first, each with its attempts. */
export async function listDeliveries(db: Queryable, merchantId: number, mode: Mode, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  const rows = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT} WHERE e.merchant_id = $1 AND e.mode = $2 AND e.id = $3 ORDER BY d.created_at DESC, d.id LIMIT $4`,
    [merchantId, mode, endpointId, limit],
  );
  return withAttempts(db, rows);
}

export async function findDelivery(db: Queryable, merchantId: number, mode: Mode, id: string): Promise<WebhookDelivery | undefined> {
  const rows = await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE e.merchant_id = $1 AND e.mode = $2 AND d.id = $3`, [merchantId, mode, id]);
  return (await withAttempts(db, rows))[0];
}
