import type { Payment, PaymentStage } from '../domain/order.ts';
import type { EndReason, PaymentChanges, PaymentState, StatusId } from '../domain/lifecycle.ts';
import type { Queryable } from '../storage/storage.ts';
import type { NewJob } from './jobs.ts';

type PaymentRow = {
  id: number; order_id: number; reference: string; payment_option: Payment['option']; status_id: StatusId; stage: PaymentStage;
  response_code: string; response_message: string; remarks: string; amount_minor: number; fee_minor: number;
  customer_fee_minor: number; subsidiary_fee_minor: number; total_minor: number; fee_rate: string; instrument: string | null;
  card_brand: string | null; card_first6: string | null; card_last4: string | null; card_expiry: string | null; save_card: boolean;
  auth_session: string | null; transfer_account: string | null; raw_response_code: string | null; reason: EndReason | null; processor: string;
  transfer_bank: string | null; transfer_expires_at: Date | null; received_minor: number; excess_minor: number;
  created_at: Date; updated_at: Date; confirmed_at: Date | null;
};

function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id, orderId: row.order_id, reference: row.reference, option: row.payment_option, statusId: row.status_id, stage: row.stage,
    responseCode: row.response_code, responseMessage: row.response_message, remarks: row.remarks, amountMinor: row.amount_minor,
    feeMinor: row.fee_minor, customerFeeMinor: row.customer_fee_minor, subsidiaryFeeMinor: row.subsidiary_fee_minor,
    totalMinor: row.total_minor, feeRate: Number(row.fee_rate), instrument: row.instrument, cardBrand: row.card_brand,
    cardFirst6: row.card_first6, cardLast4: row.card_last4, cardExpiry: row.card_expiry, saveCard: row.save_card,
    authSession: row.auth_session, rawResponseCode: row.raw_response_code, reason: row.reason, processor: row.processor,
    transferAccount: row.transfer_account, transferBank: row.transfer_bank,
    transferExpiresAt: row.transfer_expires_at, receivedMinor: row.received_minor, excessMinor: row.excess_minor,
    createdAt: row.created_at, updatedAt: row.updated_at, confirmedAt: row.confirmed_at,
  };
}

/** A payment row as `json_agg` gives it inside another statement: the same columns, its times as ISO 8601 texts. */
export type PaymentJson = Omit<PaymentRow, 'created_at' | 'updated_at' | 'confirmed_at' | 'transfer_expires_at'> & {
  created_at: string; updated_at: string; confirmed_at: string | null; transfer_expires_at: string | null;
};

export function paymentFromJson(json: PaymentJson): Payment {
  return toPayment({
    ...json, created_at: new Date(json.created_at), updated_at: new Date(json.updated_at),
    confirmed_at: json.confirmed_at === null ? null : new Date(json.confirmed_at),
    transfer_expires_at: json.transfer_expires_at === null ? null : new Date(json.transfer_expires_at),
  });
}

export type NewPayment = Pick<Payment,
  'orderId' | 'reference' | 'option' | 'amountMinor' | 'feeMinor' | 'customerFeeMinor' | 'subsidiaryFeeMinor' | 'totalMinor' |
  'feeRate' | 'instrument' | 'cardBrand' | 'cardFirst6' | 'cardLast4' | 'cardExpiry' | 'saveCard' | 'processor'> & { remarks: string; now: Date };

/** A new attempt starts Pending in the `processing` stage, before the processor is asked anything. */
export async function insertPayment(db: Queryable, payment: NewPayment): Promise<Payment> {
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO order_payments (order_id, reference, payment_option, status_id, stage, response_code, response_message, remarks,
       amount_minor, fee_minor, customer_fee_minor, subsidiary_fee_minor, total_minor, fee_rate, instrument, card_brand,
       card_first6, card_last4, card_expiry, save_card, processor, created_at, updated_at)
     VALUES ($1, $2, $3, 2, 'processing', '02', 'Processing', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18, $17, $17)
     RETURNING *`,
    [payment.orderId, payment.reference, payment.option, payment.remarks, payment.amountMinor, payment.feeMinor, payment.customerFeeMinor,
      payment.subsidiaryFeeMinor, payment.totalMinor, payment.feeRate, payment.instrument, payment.cardBrand, payment.cardFirst6,
      payment.cardLast4, payment.cardExpiry, payment.saveCard, payment.now, payment.processor],
  );
  return toPayment(row!);
}

/**
 * Takes the order's row lock for the rest of the transaction (concurrent attempts on one order queue here) and draws
 * the id of the attempt about to start, so the jobs written with it can name it.
 */
export async function lockOrderForAttempt(db: Queryable, orderId: number): Promise<{ status: StatusId; paymentId: number } | undefined> {
  const [row] = await db.query<{ status_id: StatusId; payment_id: number }>(
    `SELECT status_id, nextval(pg_get_serial_sequence('order_payments', 'id'))::int AS payment_id FROM orders WHERE id = $1 FOR UPDATE`,
    [orderId],
  );
  return row && { status: row.status_id, paymentId: row.payment_id };
}

/**
 * Starts an attempt in one statement, under the order's lock: the attempt (Pending, `processing`), the order's
 * planned transition, its timeline entry and the job that looks at the attempt again in time. Nothing is written,
 * and undefined returned, while another attempt of the order is open; `orderMoved` is false when the order was
 * not in the plan's state.
 */
export async function insertAttempt(
  db: Queryable,
  payment: NewPayment & { id: number },
  consequences: { order: { from: StatusId; to: StatusId }; timeline: { name: string; detail: unknown }; job: NewJob },
): Promise<{ payment: Payment; orderMoved: boolean } | undefined> {
  const { order, timeline, job } = consequences;
  const [row] = await db.query<PaymentRow & { order_moved: boolean }>(
    `WITH p AS (
       INSERT INTO order_payments (id, order_id, reference, payment_option, status_id, stage, response_code, response_message, remarks,
         amount_minor, fee_minor, customer_fee_minor, subsidiary_fee_minor, total_minor, fee_rate, instrument, card_brand,
         card_first6, card_last4, card_expiry, save_card, processor, created_at, updated_at)
       SELECT $19, $1, $2, $3, 2, 'processing', '02', 'Processing', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18, $17, $17
        WHERE NOT EXISTS (SELECT 1 FROM order_payments WHERE order_id = $1 AND status_id = 2)
       RETURNING *),
     o AS (UPDATE orders SET status_id = $21, updated_at = $17 WHERE id = $1 AND status_id = $20 AND EXISTS (SELECT 1 FROM p) RETURNING id),
     e AS (INSERT INTO order_events (order_id, name, source, detail, created_at) SELECT $1, $22, 'system', $23, $17 FROM p),
     j AS (INSERT INTO jobs (kind, key, payload, run_at, created_at) SELECT $24, $25, $26, $27, $28 FROM p ON CONFLICT (key) DO NOTHING)
     SELECT p.*, EXISTS (SELECT 1 FROM o) AS order_moved FROM p`,
    [payment.orderId, payment.reference, payment.option, payment.remarks, payment.amountMinor, payment.feeMinor, payment.customerFeeMinor,
      payment.subsidiaryFeeMinor, payment.totalMinor, payment.feeRate, payment.instrument, payment.cardBrand, payment.cardFirst6,
      payment.cardLast4, payment.cardExpiry, payment.saveCard, payment.now, payment.processor, payment.id, order.from, order.to,
      timeline.name, JSON.stringify(timeline.detail), job.kind, job.key ?? null, JSON.stringify(job.payload), job.runAt, job.now],
  );
  return row && { payment: toPayment(row), orderMoved: row.order_moved };
}

/**
 * Starts an attempt on an order with none open, in one statement that needs no transaction: the order's guarded
 * update (from the status the caller read, and only while no attempt of it is open) takes its row lock, and only
 * when it moved are the attempt (Pending, `processing`), its timeline entry and its job written, the job keyed
 * `<kind>:<attempt id>` as `jobKey` keys it. Undefined, with nothing written, when the order is no longer in that
 * status or has an attempt open: the update re-reads a row a concurrent attempt changed, so two never both start.
 */
export async function insertAttemptOnIdleOrder(
  db: Queryable,
  payment: NewPayment,
  consequences: {
    order: { from: StatusId; to: StatusId };
    timeline: { name: string; detail: unknown };
    job: { kind: string; context: Record<string, string>; runAt: Date };
  },
): Promise<Payment | undefined> {
  const { order, timeline, job } = consequences;
  const [row] = await db.query<PaymentRow>(
    `WITH o AS (
       UPDATE orders SET status_id = $20, updated_at = $17
        WHERE id = $1 AND status_id = $19 AND NOT EXISTS (SELECT 1 FROM order_payments WHERE order_id = $1 AND status_id = 2)
       RETURNING id),
     p AS (
       INSERT INTO order_payments (order_id, reference, payment_option, status_id, stage, response_code, response_message, remarks,
         amount_minor, fee_minor, customer_fee_minor, subsidiary_fee_minor, total_minor, fee_rate, instrument, card_brand,
         card_first6, card_last4, card_expiry, save_card, processor, created_at, updated_at)
       SELECT o.id, $2, $3, 2, 'processing', '02', 'Processing', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18, $17, $17 FROM o
       RETURNING *),
     e AS (INSERT INTO order_events (order_id, name, source, detail, created_at) SELECT $1, $21, 'system', $22, $17 FROM p),
     j AS (INSERT INTO jobs (kind, key, payload, run_at, created_at)
           SELECT $23, $23 || ':' || p.id, jsonb_build_object('paymentId', p.id) || $24::jsonb, $25, $17 FROM p ON CONFLICT (key) DO NOTHING)
     SELECT * FROM p`,
    [payment.orderId, payment.reference, payment.option, payment.remarks, payment.amountMinor, payment.feeMinor, payment.customerFeeMinor,
      payment.subsidiaryFeeMinor, payment.totalMinor, payment.feeRate, payment.instrument, payment.cardBrand, payment.cardFirst6,
      payment.cardLast4, payment.cardExpiry, payment.saveCard, payment.now, payment.processor, order.from, order.to,
      timeline.name, JSON.stringify(timeline.detail), job.kind, JSON.stringify(job.context), job.runAt],
  );
  return row && toPayment(row);
}

export async function findPaymentById(db: Queryable, id: number): Promise<Payment | undefined> {
  const [row] = await db.query<PaymentRow>('SELECT * FROM order_payments WHERE id = $1', [id]);
  return row && toPayment(row);
}

export async function findPaymentByReference(db: Queryable, reference: string): Promise<Payment | undefined> {
  const [row] = await db.query<PaymentRow>('SELECT * FROM order_payments WHERE reference = $1', [reference]);
  return row && toPayment(row);
}

export async function findPaymentByAccount(db: Queryable, account: string): Promise<Payment | undefined> {
  const [row] = await db.query<PaymentRow>('SELECT * FROM order_payments WHERE transfer_account = $1', [account]);
  return row && toPayment(row);
}

export async function listPayments(db: Queryable, orderId: number): Promise<Payment[]> {
  const rows = await db.query<PaymentRow>('SELECT * FROM order_payments WHERE order_id = $1 ORDER BY id', [orderId]);
  return rows.map(toPayment);
}

/** Attempts still waiting on something (processor, customer authentication, money). */
export async function listOpenPayments(db: Queryable, orderId: number): Promise<Payment[]> {
  const rows = await db.query<PaymentRow>(`SELECT * FROM order_payments WHERE order_id = $1 AND status_id = 2 ORDER BY id`, [orderId]);
  return rows.map(toPayment);
}

/**
 * Applies a planned transition as one UPDATE guarded by the state the payment was read in: undefined when the row
 * is no longer in that state (another request or job got there first), and nothing changed. In the same statement,
 * only when the payment moved: the order's timeline entry; the order's planned transition guarded by the status
 * the caller read (`orderMoved` false when the order was not in it, for the caller to move it under its lock); the
 * attempt's `payment.requery` job deleted when the move ends the attempt (`requeryKey`), since nothing is left to
 * ask; the job that ends the new state in time (`job`, once per key); and with `withOrderPayments`, every attempt of the order as it now is (the moved one as written) and whether
 * the order has refunds, for the merchant's event.
 */
export async function applyPaymentPlan(
  db: Queryable,
  id: number,
  plan: { from: PaymentState; to: PaymentState; changes: PaymentChanges },
  now: Date,
  consequences: {
    orderId: number;
    timeline: { name: string; detail: unknown };
    order: { from: StatusId; to: StatusId } | undefined;
    requeryKey: string | null;
    job: NewJob | undefined;
    withOrderPayments: boolean;
  },
): Promise<{ payment: Payment; orderMoved: boolean; orderPayments: Payment[] | undefined; hasRefunds: boolean } | undefined> {
  const { orderId, timeline, order, requeryKey, job, withOrderPayments } = consequences;
  const sets = ['status_id = $2', 'stage = $3', 'updated_at = $4'];
  const params: unknown[] = [id, plan.to.status, plan.to.stage, now, plan.from.status, plan.from.stage, orderId, timeline.name,
    JSON.stringify(timeline.detail), order !== undefined, order?.from ?? null, order?.to ?? null, requeryKey, withOrderPayments,
    job?.kind ?? null, job?.key ?? null, job ? JSON.stringify(job.payload) : null, job?.runAt ?? null];
  for (const [key, value] of Object.entries(plan.changes) as [keyof PaymentChanges, unknown][]) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${COLUMNS[key]} = $${params.length}`);
  }
  // The other attempts are read with the statement's snapshot, which does not see its own update: the moved row
  // comes from the update's RETURNING, the others from the table.
  const rows = await db.query<PaymentRow & { moved: boolean; order_moved: boolean; has_refunds: boolean }>(
    `WITH p AS (UPDATE order_payments SET ${sets.join(', ')} WHERE id = $1 AND status_id = $5 AND stage = $6 RETURNING *),
     o AS (UPDATE orders SET status_id = $12, updated_at = $4 WHERE id = $7 AND $10 AND status_id = $11 AND EXISTS (SELECT 1 FROM p) RETURNING id),
     e AS (INSERT INTO order_events (order_id, name, source, detail, created_at) SELECT $7, $8, 'system', $9, $4 FROM p),
     j AS (DELETE FROM jobs WHERE key = $13 AND EXISTS (SELECT 1 FROM p)),
     k AS (INSERT INTO jobs (kind, key, payload, run_at, created_at) SELECT $15, $16, $17, $18, $4 FROM p WHERE $15::text IS NOT NULL
           ON CONFLICT (key) DO NOTHING)
     SELECT p.*, true AS moved, EXISTS (SELECT 1 FROM o) AS order_moved,
            $14 AND EXISTS (SELECT 1 FROM refunds WHERE order_id = $7) AS has_refunds
       FROM p
     UNION ALL
     SELECT q.*, false, false, false FROM order_payments q WHERE $14 AND q.order_id = $7 AND q.id <> $1 AND EXISTS (SELECT 1 FROM p)
     ORDER BY id`,
    params,
  );
  const moved = rows.find((row) => row.moved);
  if (!moved) return undefined;
  return {
    payment: toPayment(moved),
    orderMoved: moved.order_moved,
    orderPayments: withOrderPayments ? rows.map(toPayment) : undefined,
    hasRefunds: moved.has_refunds,
  };
}

const COLUMNS: Record<keyof PaymentChanges, string> = {
  responseCode: 'response_code', responseMessage: 'response_message', rawResponseCode: 'raw_response_code', reason: 'reason', remarks: 'remarks',
  authSession: 'auth_session', transferAccount: 'transfer_account', transferBank: 'transfer_bank', transferExpiresAt: 'transfer_expires_at',
  receivedMinor: 'received_minor', excessMinor: 'excess_minor', confirmedAt: 'confirmed_at',
};

export type SavedCardRow = { token: string; brand: string; first6: string; last4: string; expiry: string };

/** Saved cards belong to a shopper: a customer the merchant's server vouched for, never an e-mail address. */
export async function saveCard(db: Queryable, shopperId: number, card: SavedCardRow, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO saved_cards (shopper_id, token, brand, first6, last4, expiry, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (shopper_id, first6, last4, expiry) DO UPDATE SET token = EXCLUDED.token`,
    [shopperId, card.token, card.brand, card.first6, card.last4, card.expiry, now],
  );
}

export async function listSavedCards(db: Queryable, shopperId: number): Promise<SavedCardRow[]> {
  return db.query<SavedCardRow>('SELECT token, brand, first6, last4, expiry FROM saved_cards WHERE shopper_id = $1 ORDER BY id DESC', [shopperId]);
}

export async function findSavedCard(db: Queryable, shopperId: number, token: string): Promise<SavedCardRow | undefined> {
  const [row] = await db.query<SavedCardRow>('SELECT token, brand, first6, last4, expiry FROM saved_cards WHERE shopper_id = $1 AND token = $2', [shopperId, token]);
  return row;
}
