import type { Refund } from '../domain/refunds.ts';
import { paymentFromJson, type PaymentJson } from './payments.ts';
import { refundFromJson, type RefundJson } from './refunds.ts';
import type { FeeRule } from '../domain/fees.ts';
import type { Mode } from '../domain/merchant.ts';
import type { Customer, Order, OrderOrigin, Payment } from '../domain/order.ts';
import type { StatusId } from '../domain/lifecycle.ts';
import type { Queryable } from '../storage/storage.ts';

type OrderRow = {
  id: number; merchant_id: number; mode: Mode; reference: string; processor_reference: string; amount_minor: number;
  currency: string; description: string | null; items: { name: string; amountMinor: number }[]; redirect_url: string | null;
  payment_link_id: number | null; frequency_id: number | null; number_of_payments: number | null; auth_option: 'AUTH' | 'NOAUTH';
  fee_rules: FeeRule[]; status_id: StatusId; created_at: Date; updated_at: Date; created_by: OrderOrigin; shopper_id: number | null;
  subscription_id: number | null; subscription_reference: string | null; recurring_period: number | null;
  customer_id: number; email: string | null; first_name: string; last_name: string; mobile: string | null; country: string | null;
};

const SELECT_ORDER = `SELECT o.*, c.email, c.first_name, c.last_name, c.mobile, c.country, s.reference AS subscription_reference
  FROM orders o JOIN customers c ON c.id = o.customer_id LEFT JOIN subscriptions s ON s.id = o.subscription_id`;

function toOrder(row: OrderRow): Order {
  return {
    id: row.id, merchantId: row.merchant_id, mode: row.mode, reference: row.reference, processorReference: row.processor_reference,
    customer: { id: row.customer_id, email: row.email, firstName: row.first_name, lastName: row.last_name, mobile: row.mobile, country: row.country?.trim() ?? null },
    amountMinor: row.amount_minor, currency: row.currency, description: row.description, items: row.items, redirectUrl: row.redirect_url,
    paymentLinkId: row.payment_link_id, frequencyId: row.frequency_id, numberOfPayments: row.number_of_payments, authOption: row.auth_option,
    feeRules: row.fee_rules, statusId: row.status_id, createdAt: row.created_at, updatedAt: row.updated_at,
    createdBy: row.created_by, shopperId: row.shopper_id,
    subscriptionId: row.subscription_id, subscriptionReference: row.subscription_reference, recurringPeriod: row.recurring_period,
  };
}

export type NewOrder = Omit<Order, 'id' | 'customer' | 'statusId' | 'createdAt' | 'updatedAt' | 'subscriptionId' | 'subscriptionReference' | 'recurringPeriod'> & {
  customerId: number;
  paymentMeta: unknown;
  /** A recurring charge's subscription and period (the pair is unique: one order per period). */
  recurring?: { subscriptionId: number; period: number };
};

/**
 * Inserts the order, or returns undefined when this reference is already used by an order of the same origin. Times come from the
 * app's clock (never the database's), so an order and its payments share one timeline.
 */
export async function insertOrder(db: Queryable, order: NewOrder, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO orders (merchant_id, mode, reference, processor_reference, customer_id, amount_minor, currency, description, items,
       redirect_url, payment_link_id, frequency_id, number_of_payments, auth_option, fee_rules, payment_meta, created_at, updated_at,
       created_by, shopper_id, subscription_id, recurring_period)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18, $19, $20, $21)
     ON CONFLICT DO NOTHING RETURNING id`,
    [order.merchantId, order.mode, order.reference, order.processorReference, order.customerId, order.amountMinor, order.currency,
      order.description, JSON.stringify(order.items), order.redirectUrl, order.paymentLinkId, order.frequencyId, order.numberOfPayments,
      order.authOption, JSON.stringify(order.feeRules), order.paymentMeta === undefined ? null : JSON.stringify(order.paymentMeta), now,
      order.createdBy, order.shopperId, order.recurring?.subscriptionId ?? null, order.recurring?.period ?? null],
  );
  return row?.id;
}

/**
 * A new order from a create, with its customer details (kept as they were given: a later order with the same e-mail
 * never changes them) and its `order-created` timeline entry, in one statement: undefined, with nothing written, when
 * its origin already used the reference, or when `besideServerOrder` is false and the merchant's server made an order
 * under it. The customer's id is drawn first so the order can name it; the statement is atomic, so no customer is
 * left without its order.
 */
export async function insertCreatedOrder(
  db: Queryable,
  order: Omit<NewOrder, 'customerId' | 'recurring'> & { customer: Omit<Customer, 'id'>; besideServerOrder: boolean },
  now: Date,
): Promise<Order | undefined> {
  const [row] = await db.query<OrderRow>(
    `WITH drawn AS (SELECT nextval(pg_get_serial_sequence('customers', 'id'))::int AS customer_id),
     o AS (
       INSERT INTO orders (merchant_id, mode, reference, processor_reference, customer_id, amount_minor, currency, description, items,
         redirect_url, payment_link_id, frequency_id, number_of_payments, auth_option, fee_rules, payment_meta, created_at, updated_at,
         created_by, shopper_id)
       SELECT $1, $2, $3, $4, drawn.customer_id, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17, $18 FROM drawn
        WHERE $19 OR NOT EXISTS (SELECT 1 FROM orders WHERE merchant_id = $1 AND mode = $2 AND reference = $3 AND created_by = 'server')
       ON CONFLICT DO NOTHING
       RETURNING *),
     c AS (
       INSERT INTO customers (id, merchant_id, mode, email, first_name, last_name, mobile, country, created_at)
       SELECT o.customer_id, $1, $2, lower($20), $21, $22, $23, $24, $16 FROM o
       RETURNING id, email, first_name, last_name, mobile, country),
     created AS (INSERT INTO order_events (order_id, name, source, detail, created_at) SELECT o.id, 'order-created', 'system', NULL, $16 FROM o)
     SELECT o.*, c.email, c.first_name, c.last_name, c.mobile, c.country, NULL::text AS subscription_reference FROM o JOIN c ON c.id = o.customer_id`,
    [order.merchantId, order.mode, order.reference, order.processorReference, order.amountMinor, order.currency, order.description,
      JSON.stringify(order.items), order.redirectUrl, order.paymentLinkId, order.frequencyId, order.numberOfPayments, order.authOption,
      JSON.stringify(order.feeRules), order.paymentMeta === undefined ? null : JSON.stringify(order.paymentMeta), now, order.createdBy,
      order.shopperId, order.besideServerOrder, order.customer.email, order.customer.firstName, order.customer.lastName,
      order.customer.mobile, order.customer.country],
  );
  return row && toOrder(row);
}

/** The orders under a merchant's reference: at most one per origin, the server's first. */
export async function findOrders(db: Queryable, merchantId: number, mode: Mode, reference: string): Promise<Order[]> {
  const rows = await db.query<OrderRow>(
    `${SELECT_ORDER} WHERE o.merchant_id = $1 AND o.mode = $2 AND o.reference = $3 ORDER BY o.created_by DESC`,
    [merchantId, mode, reference],
  );
  return rows.map(toOrder);
}

/** An order with its payment attempts and refunds, each in the order they were made, as one consistent read. */
export type OrderWithAttempts = { order: Order; payments: Payment[]; refunds: Refund[] };

/**
 * `findOrders` with each order's payments and refunds, in one statement: one snapshot (no attempt can land between
 * reading the order and reading its attempts), and one round trip, where three separate statements cost three
 * parses and plans. The attempts come aggregated as JSON and are turned into the same domain objects as
 * `listPayments` and `listRefunds` give.
 */
export async function findOrdersWithAttempts(db: Queryable, merchantId: number, mode: Mode, reference: string): Promise<OrderWithAttempts[]> {
  const rows = await db.query<OrderRow & { payments: PaymentJson[]; refunds: RefundJson[] }>(
    `SELECT o.*, c.email, c.first_name, c.last_name, c.mobile, c.country, s.reference AS subscription_reference,
       (SELECT coalesce(json_agg(p ORDER BY p.id), '[]'::json) FROM order_payments p WHERE p.order_id = o.id) AS payments,
       (SELECT coalesce(json_agg(r ORDER BY r.id), '[]'::json)
          FROM (SELECT r.*, p.reference AS payment_reference FROM refunds r JOIN order_payments p ON p.id = r.payment_id WHERE r.order_id = o.id) r) AS refunds
     FROM orders o JOIN customers c ON c.id = o.customer_id LEFT JOIN subscriptions s ON s.id = o.subscription_id
     WHERE o.merchant_id = $1 AND o.mode = $2 AND o.reference = $3 ORDER BY o.created_by DESC`,
    [merchantId, mode, reference],
  );
  return rows.map((row) => ({ order: toOrder(row), payments: row.payments.map(paymentFromJson), refunds: row.refunds.map(refundFromJson) }));
}

export async function findOrderById(db: Queryable, id: number): Promise<Order | undefined> {
  const [row] = await db.query<OrderRow>(`${SELECT_ORDER} WHERE o.id = $1`, [id]);
  return row && toOrder(row);
}

/** Takes the order's row lock for the rest of the transaction: concurrent attempts on one order queue here. */
export async function lockOrder(db: Queryable, id: number): Promise<StatusId | undefined> {
  const [row] = await db.query<{ status_id: StatusId }>('SELECT status_id FROM orders WHERE id = $1 FOR UPDATE', [id]);
  return row?.status_id;
}

/**
 * The order's row lock when no other transaction holds it (`SKIP LOCKED`): `held` at once otherwise, for a caller
 * that already holds another lock the holder may wait for (a subscription's), so the two never wait on each other.
 */
export async function lockOrderUnlessHeld(db: Queryable, id: number): Promise<StatusId | 'held'> {
  const [row] = await db.query<{ status_id: StatusId }>('SELECT status_id FROM orders WHERE id = $1 FOR UPDATE SKIP LOCKED', [id]);
  return row?.status_id ?? 'held';
}

/** Applies a planned transition, guarded by the status the order was read in; false when it moved on meanwhile. */
export async function applyOrderPlan(db: Queryable, id: number, plan: { from: StatusId; to: StatusId }, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE orders SET status_id = $2, updated_at = $4 WHERE id = $1 AND status_id = $3 RETURNING id', [id, plan.to, plan.from, now]);
  return rows.length === 1;
}

export async function insertEvent(db: Queryable, orderId: number, name: string, source: 'client' | 'system', detail: unknown, now: Date): Promise<void> {
  await db.query('INSERT INTO order_events (order_id, name, source, detail, created_at) VALUES ($1, $2, $3, $4, $5)', [
    orderId, name, source, detail === undefined ? null : JSON.stringify(detail), now,
  ]);
}

export async function listEvents(db: Queryable, orderId: number): Promise<{ name: string; source: string; detail: unknown; createdAt: Date }[]> {
  const rows = await db.query<{ name: string; source: string; detail: unknown; created_at: Date }>(
    'SELECT name, source, detail, created_at FROM order_events WHERE order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows.map((row) => ({ name: row.name, source: row.source, detail: row.detail, createdAt: row.created_at }));
}

/** Names (creating on first use) the customer a merchant's server vouches for, by the merchant's own customer id. */
export async function upsertShopper(db: Queryable, merchantId: number, mode: Mode, reference: string, now: Date): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO shoppers (merchant_id, mode, reference, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (merchant_id, mode, reference) DO UPDATE SET reference = EXCLUDED.reference RETURNING id`,
    [merchantId, mode, reference, now],
  );
  return row!.id;
}
