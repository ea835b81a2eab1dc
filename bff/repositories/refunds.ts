import type { Refund, RefundState } from '../domain/refunds.ts';
import type { Queryable } from '../storage/storage.ts';

type RefundRow = {
  id: number; reference: string; order_id: number; payment_id: number; payment_reference: string; amount_minor: number | string;
  currency: string; reason: string | null; state: RefundState; response_code: string | null; response_message: string | null;
  processor_reference: string | null; processor: string; created_at: Date; updated_at: Date; completed_at: Date | null;
};

const SELECT_REFUND = `SELECT r.*, p.reference AS payment_reference FROM refunds r JOIN order_payments p ON p.id = r.payment_id`;

function toRefund(row: RefundRow): Refund {
  return {
    id: row.id, reference: row.reference, orderId: row.order_id, paymentId: row.payment_id, paymentReference: row.payment_reference,
    amountMinor: Number(row.amount_minor), currency: row.currency.trim(), reason: row.reason, state: row.state, responseCode: row.response_code,
    responseMessage: row.response_message, processorReference: row.processor_reference, processor: row.processor,
    createdAt: row.created_at, updatedAt: row.updated_at, completedAt: row.completed_at,
  };
}

/** A refund row (with its payment's reference) as `json_agg` gives it inside another statement: its times as ISO 8601 texts. */
export type RefundJson = Omit<RefundRow, 'created_at' | 'updated_at' | 'completed_at'> & { created_at: string; updated_at: string; completed_at: string | null };

export function refundFromJson(json: RefundJson): Refund {
  return toRefund({
    ...json, created_at: new Date(json.created_at), updated_at: new Date(json.updated_at),
    completed_at: json.completed_at === null ? null : new Date(json.completed_at),
  });
}

export type NewRefund = Pick<Refund, 'reference' | 'orderId' | 'paymentId' | 'amountMinor' | 'currency' | 'reason' | 'processor'>;

/** A new refund starts `processing`, before the processor is asked anything. */
export async function insertRefund(db: Queryable, refund: NewRefund, now: Date): Promise<Refund> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO refunds (reference, order_id, payment_id, amount_minor, currency, reason, state, processor, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7, $8, $8) RETURNING id`,
    [refund.reference, refund.orderId, refund.paymentId, refund.amountMinor, refund.currency, refund.reason, refund.processor, now],
  );
  return (await findRefundById(db, row!.id))!;
}

export async function findRefundById(db: Queryable, id: number): Promise<Refund | undefined> {
  const [row] = await db.query<RefundRow>(`${SELECT_REFUND} WHERE r.id = $1`, [id]);
  return row && toRefund(row);
}

export async function listRefunds(db: Queryable, orderId: number): Promise<Refund[]> {
  const rows = await db.query<RefundRow>(`${SELECT_REFUND} WHERE r.order_id = $1 ORDER BY r.id`, [orderId]);
  return rows.map(toRefund);
}

/**
 * Ends a processing refund with the processor's answer, once: undefined when it was not processing any more (the
 * request and its re-query job raced, and the other one recorded the answer).
 */
export async function completeRefund(
  db: Queryable,
  id: number,
  outcome: { state: 'succeeded' | 'failed'; responseCode: string; responseMessage: string; processorReference: string | null },
  now: Date,
): Promise<Refund | undefined> {
  const rows = await db.query<{ id: number }>(
    `UPDATE refunds SET state = $2, response_code = $3, response_message = $4, processor_reference = $5, updated_at = $6, completed_at = $6
      WHERE id = $1 AND state = 'processing' RETURNING id`,
    [id, outcome.state, outcome.responseCode, outcome.responseMessage, outcome.processorReference, now],
  );
  return rows.length === 1 ? findRefundById(db, id) : undefined;
}
