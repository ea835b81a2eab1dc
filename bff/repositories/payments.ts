import type { Payment, PaymentStage } from '../domain/order.ts';
import { PAYMENT_TRANSITIONS, type PaymentEvent, type StatusId } from '../domain/order-state.ts';
import type { Queryable } from '../storage/storage.ts';

type PaymentRow = {
  id: number; order_id: number; reference: string; payment_option: Payment['option']; status_id: StatusId; stage: PaymentStage;
  response_code: string; response_message: string; remarks: string; amount_minor: number; fee_minor: number;
  customer_fee_minor: number; subsidiary_fee_minor: number; total_minor: number; fee_rate: string; instrument: string | null;
  card_brand: string | null; card_first6: string | null; card_last4: string | null; card_expiry: string | null; save_card: boolean;
  auth_session: string | null; auth_attempts: number; transfer_account: string | null;
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
    authSession: row.auth_session,
    authAttempts: row.auth_attempts, transferAccount: row.transfer_account, transferBank: row.transfer_bank,
    transferExpiresAt: row.transfer_expires_at, receivedMinor: row.received_minor, excessMinor: row.excess_minor,
    createdAt: row.created_at, updatedAt: row.updated_at, confirmedAt: row.confirmed_at,
  };
}

export type NewPayment = Pick<Payment,
  'orderId' | 'reference' | 'option' | 'amountMinor' | 'feeMinor' | 'customerFeeMinor' | 'subsidiaryFeeMinor' | 'totalMinor' |
  'feeRate' | 'instrument' | 'cardBrand' | 'cardFirst6' | 'cardLast4' | 'cardExpiry' | 'saveCard'> & { remarks: string; now: Date };

/** A new attempt starts Pending in the `processing` stage, before the processor is asked anything. */
export async function insertPayment(db: Queryable, payment: NewPayment): Promise<Payment> {
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO order_payments (order_id, reference, payment_option, status_id, stage, response_code, response_message, remarks,
       amount_minor, fee_minor, customer_fee_minor, subsidiary_fee_minor, total_minor, fee_rate, instrument, card_brand,
       card_first6, card_last4, card_expiry, save_card, created_at, updated_at)
     VALUES ($1, $2, $3, 2, 'processing', '02', 'Processing', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
     RETURNING *`,
    [payment.orderId, payment.reference, payment.option, payment.remarks, payment.amountMinor, payment.feeMinor, payment.customerFeeMinor,
      payment.subsidiaryFeeMinor, payment.totalMinor, payment.feeRate, payment.instrument, payment.cardBrand, payment.cardFirst6,
      payment.cardLast4, payment.cardExpiry, payment.saveCard, payment.now],
  );
  return toPayment(row!);
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
 * Open attempts of one stage whose clock ran out, oldest first: transfers past their account's expiry, 3-D Secure
 * initiated before the cut-off, processing untouched since before it (interrupted between processor and database).
 */
const DUE_COLUMN = { transfer: 'transfer_expires_at', authentication: 'created_at', processing: 'updated_at' } as const;

export async function listDueAttempts(db: Queryable, stage: keyof typeof DUE_COLUMN, dueAt: Date, limit: number): Promise<Payment[]> {
  const column = DUE_COLUMN[stage];
  const rows = await db.query<PaymentRow>(
    `SELECT * FROM order_payments WHERE stage = $1 AND status_id = 2 AND ${column} <= $2 ORDER BY ${column} LIMIT $3`,
    [stage, dueAt, limit],
  );
  return rows.map(toPayment);
}

/**
 * Counts a wrong one-time code in one guarded statement, so concurrent wrong codes are all counted. The code that
 * reaches the limit also takes the answer (stage back to `processing`) so exactly one request declines the
 * payment. Undefined when the payment no longer awaits authentication or has no tries left.
 */
export async function recordWrongCode(db: Queryable, id: number, maxAttempts: number, now: Date): Promise<Payment | undefined> {
  const { from } = PAYMENT_TRANSITIONS['wrong-code'];
  const [row] = await db.query<PaymentRow>(
    `UPDATE order_payments
        SET auth_attempts = auth_attempts + 1,
            stage = CASE WHEN auth_attempts + 1 >= $3 THEN 'processing' ELSE stage END,
            updated_at = $4
      WHERE id = $1 AND status_id = ANY($2::smallint[]) AND stage = 'authentication' AND auth_attempts < $3
      RETURNING *`,
    [id, from, maxAttempts, now],
  );
  return row && toPayment(row);
}

/** Takes the customer's 3-D Secure answer: only one request can, and only while tries are left. */
export async function takeAuthenticationAnswer(db: Queryable, id: number, maxAttempts: number, now: Date): Promise<Payment | undefined> {
  const { from } = PAYMENT_TRANSITIONS['answer-authentication'];
  const [row] = await db.query<PaymentRow>(
    `UPDATE order_payments SET stage = 'processing', updated_at = $4
      WHERE id = $1 AND status_id = ANY($2::smallint[]) AND stage = 'authentication' AND auth_attempts < $3
      RETURNING *`,
    [id, from, maxAttempts, now],
  );
  return row && toPayment(row);
}

export type PaymentPatch = Partial<{
  stage: PaymentStage;
  responseCode: string;
  responseMessage: string;
  remarks: string;
  authSession: string | null;
  authAttempts: number;
  transferAccount: string;
  transferBank: string;
  transferExpiresAt: Date;
  receivedMinor: number;
  excessMinor: number;
  confirmedAt: Date;
}>;

const COLUMNS: Record<keyof PaymentPatch, string> = {
  stage: 'stage', responseCode: 'response_code', responseMessage: 'response_message', remarks: 'remarks', authSession: 'auth_session',  authAttempts: 'auth_attempts', transferAccount: 'transfer_account', transferBank: 'transfer_bank',
  transferExpiresAt: 'transfer_expires_at', receivedMinor: 'received_minor', excessMinor: 'excess_minor', confirmedAt: 'confirmed_at',
};

/**
 * Applies a state-machine event with its field changes, guarded by the states (and optionally the stage) the
 * event may start from. Undefined when the guard fails: someone else got there first, nothing changed.
 */
export async function transitionPayment(
  db: Queryable,
  id: number,
  event: PaymentEvent,
  patch: PaymentPatch,
  options: { stage?: PaymentStage; now: Date },
): Promise<Payment | undefined> {
  const { from, to } = PAYMENT_TRANSITIONS[event];
  const sets = ['status_id = $2', 'updated_at = $4'];
  const params: unknown[] = [id, to, from, options.now];
  for (const [key, value] of Object.entries(patch) as [keyof PaymentPatch, unknown][]) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${COLUMNS[key]} = $${params.length}`);
  }
  let guard = 'status_id = ANY($3::smallint[])';
  if (options.stage) {
    params.push(options.stage);
    guard += ` AND stage = $${params.length}`;
  }
  const [row] = await db.query<PaymentRow>(`UPDATE order_payments SET ${sets.join(', ')} WHERE id = $1 AND ${guard} RETURNING *`, params);
  return row && toPayment(row);
}

export type SavedCardRow = { token: string; brand: string; first6: string; last4: string; expiry: string };

export async function saveCard(db: Queryable, customerId: number, card: SavedCardRow, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO saved_cards (customer_id, token, brand, first6, last4, expiry, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (customer_id, first6, last4, expiry) DO UPDATE SET token = EXCLUDED.token`,
    [customerId, card.token, card.brand, card.first6, card.last4, card.expiry, now],
  );
}

export async function listSavedCards(db: Queryable, customerId: number): Promise<SavedCardRow[]> {
  return db.query<SavedCardRow>('SELECT token, brand, first6, last4, expiry FROM saved_cards WHERE customer_id = $1 ORDER BY id DESC', [customerId]);
}

export async function findSavedCard(db: Queryable, customerId: number, token: string): Promise<SavedCardRow | undefined> {
  const [row] = await db.query<SavedCardRow>('SELECT token, brand, first6, last4, expiry FROM saved_cards WHERE customer_id = $1 AND token = $2', [customerId, token]);
  return row;
}
