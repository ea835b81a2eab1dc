import type { Mode } from '../domain/merchant.ts';
import type { Subscription, SubscriptionRecord, SubscriptionState } from '../domain/subscription.ts';
import type { Queryable } from '../storage/storage.ts';

type Row = {
  id: number; reference: string; merchant_id: number; mode: Mode; payment_link_id: number | null; first_order_id: number;
  customer_id: number; shopper_id: number | null; card_token: string; card_label: string | null; amount_minor: number | string;
  currency: string; frequency_id: number; period_hours: number; payments_total: number | null; payments_made: number;
  anchor_at: Date; next_period: number; next_due_at: Date | null; failures: number; state: SubscriptionState;
  created_at: Date; updated_at: Date; ended_at: Date | null;
};

const toSubscription = (row: Row): Subscription => ({
  id: row.id, reference: row.reference, merchantId: row.merchant_id, mode: row.mode, paymentLinkId: row.payment_link_id,
  firstOrderId: row.first_order_id, customerId: row.customer_id, shopperId: row.shopper_id, cardToken: row.card_token,
  cardLabel: row.card_label, amountMinor: Number(row.amount_minor), currency: row.currency.trim(), frequencyId: row.frequency_id,
  periodHours: row.period_hours, paymentsTotal: row.payments_total, paymentsMade: row.payments_made, anchorAt: row.anchor_at,
  nextPeriod: row.next_period, nextDueAt: row.next_due_at, failures: row.failures, state: row.state, createdAt: row.created_at,
  updatedAt: row.updated_at, endedAt: row.ended_at,
});

export type NewSubscription = Omit<Subscription, 'id' | 'paymentsMade' | 'nextPeriod' | 'failures' | 'createdAt' | 'updatedAt' | 'endedAt'>;

/** Starts a subscription for its first order; undefined when that order already started one. */
export async function insertSubscription(db: Queryable, subscription: NewSubscription, now: Date): Promise<Subscription | undefined> {
  const [row] = await db.query<Row>(
    `INSERT INTO subscriptions (reference, merchant_id, mode, payment_link_id, first_order_id, customer_id, shopper_id, card_token,
       card_label, amount_minor, currency, frequency_id, period_hours, payments_total, anchor_at, next_due_at, state,
       created_at, updated_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18,
       CASE WHEN $17 = 'active' THEN NULL ELSE $18::timestamptz END)
     ON CONFLICT (first_order_id) DO NOTHING RETURNING *`,
    [subscription.reference, subscription.merchantId, subscription.mode, subscription.paymentLinkId, subscription.firstOrderId,
      subscription.customerId, subscription.shopperId, subscription.cardToken, subscription.cardLabel, subscription.amountMinor,
      subscription.currency, subscription.frequencyId, subscription.periodHours, subscription.paymentsTotal, subscription.anchorAt,
      subscription.nextDueAt, subscription.state, now],
  );
  return row && toSubscription(row);
}

export async function findSubscription(db: Queryable, id: number): Promise<Subscription | undefined> {
  const [row] = await db.query<Row>('SELECT * FROM subscriptions WHERE id = $1', [id]);
  return row && toSubscription(row);
}

/** Takes the subscription's row lock for the rest of the transaction: its charges and its cancel queue here. */
export async function lockSubscription(db: Queryable, id: number): Promise<Subscription | undefined> {
  const [row] = await db.query<Row>('SELECT * FROM subscriptions WHERE id = $1 FOR UPDATE', [id]);
  return row && toSubscription(row);
}

/** A merchant's subscription by its id or its reference, in one mode. */
export async function findMerchantSubscription(db: Queryable, merchantId: number, mode: Mode, key: { id: number } | { reference: string }): Promise<Subscription | undefined> {
  const [row] =
    'id' in key
      ? await db.query<Row>('SELECT * FROM subscriptions WHERE merchant_id = $1 AND mode = $2 AND id = $3', [merchantId, mode, key.id])
      : await db.query<Row>('SELECT * FROM subscriptions WHERE merchant_id = $1 AND mode = $2 AND reference = $3', [merchantId, mode, key.reference]);
  return row && toSubscription(row);
}

export type SubscriptionChanges = Partial<Pick<Subscription, 'state' | 'paymentsMade' | 'nextPeriod' | 'nextDueAt' | 'failures' | 'endedAt'>>;

const COLUMNS: Record<keyof SubscriptionChanges, string> = {
  state: 'state', paymentsMade: 'payments_made', nextPeriod: 'next_period', nextDueAt: 'next_due_at', failures: 'failures', endedAt: 'ended_at',
};

/** Applies changes guarded by the state the subscription was read in; undefined when it moved on meanwhile. */
export async function updateSubscription(db: Queryable, id: number, from: SubscriptionState, changes: SubscriptionChanges, now: Date): Promise<Subscription | undefined> {
  const sets = ['updated_at = $3'];
  const params: unknown[] = [id, from, now];
  for (const [key, value] of Object.entries(changes) as [keyof SubscriptionChanges, unknown][]) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${COLUMNS[key]} = $${params.length}`);
  }
  const [row] = await db.query<Row>(`UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $1 AND state = $2 RETURNING *`, params);
  return row && toSubscription(row);
}

/** The first order names the subscription it started (verify shows it as recurringPaymentId). */
export async function markFirstOrder(db: Queryable, orderId: number, subscriptionId: number): Promise<void> {
  await db.query('UPDATE orders SET subscription_id = $2 WHERE id = $1', [orderId, subscriptionId]);
}

/** The order of a period's charge: made once (the unique constraint), found again by whoever comes later. */
export async function findPeriodOrderId(db: Queryable, subscriptionId: number, period: number): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM orders WHERE subscription_id = $1 AND recurring_period = $2', [subscriptionId, period]);
  return row?.id;
}

/** How many orders of the subscription were paid (the first included), for tests and the merchant's list. */
export async function countPaidOrders(db: Queryable, subscriptionId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM orders WHERE subscription_id = $1 AND status_id = 5', [subscriptionId]);
  return row?.count ?? 0;
}

/** A subscription with what the merchant's list shows beside it: the customer, the first order, the link. */
export type { SubscriptionRecord };

type RecordRow = Row & { email: string | null; first_name: string; last_name: string; mobile: string | null; order_reference: string; link_reference: string | null };

const SELECT_RECORD = `SELECT s.*, c.email, c.first_name, c.last_name, c.mobile, o.reference AS order_reference, l.reference AS link_reference
  FROM subscriptions s JOIN customers c ON c.id = s.customer_id JOIN orders o ON o.id = s.first_order_id
  LEFT JOIN payment_links l ON l.id = s.payment_link_id`;

const toRecord = (row: RecordRow): SubscriptionRecord => ({
  ...toSubscription(row),
  customer: { email: row.email, firstName: row.first_name, lastName: row.last_name, mobile: row.mobile },
  orderReference: row.order_reference,
  linkReference: row.link_reference,
});

export async function findSubscriptionRecord(db: Queryable, id: number): Promise<SubscriptionRecord | undefined> {
  const [row] = await db.query<RecordRow>(`${SELECT_RECORD} WHERE s.id = $1`, [id]);
  return row && toRecord(row);
}

export async function listLinkSubscriptionRecords(db: Queryable, linkId: number): Promise<SubscriptionRecord[]> {
  const rows = await db.query<RecordRow>(`${SELECT_RECORD} WHERE s.payment_link_id = $1 ORDER BY s.id`, [linkId]);
  return rows.map(toRecord);
}
