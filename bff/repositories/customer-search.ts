import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import type { CustomerKey, OrderPosition } from './order-search.ts';
import { db, run, startsWith } from './sql.ts';

/**
 * The merchant's customers. `customers` holds a row per order (the details the order was made with), so a
 * customer here is an identity over rows: the lower-cased e-mail, or the mobile number of rows without one. Each
 * identity is listed at its first row (its anchor: the earliest by `created_at, id`), and the list is ordered by
 * the anchor, newest first. The anchor never changes when the customer orders again, so keyset pages over it never
 * repeat or skip a customer while orders arrive (docs/decisions.md, "Customers: keyset over an aggregate").
 */
export type CustomerFilter = {
  merchantId: number;
  mode: Mode;
  search?: string | undefined;
  /** On the customer's last order. */
  from?: Date | undefined;
  to?: Date | undefined;
  customer?: CustomerKey | undefined;
};

export type CustomerRow = {
  anchor_id: number;
  anchor_at: Date;
  email: string | null;
  anchor_mobile: string | null;
  first_name: string;
  last_name: string;
  mobile: string | null;
  country: string | null;
  orders_count: number;
  paid_count: number;
  first_order_at: Date;
  last_order_at: Date;
  paid_totals: { currency: string; minor: number }[];
};

export type SavedCardListRow = { id: number; brand: string; last4: string; expiry: string; created_at: Date };

/** Row `x` is of the same customer as the anchor `a` (same merchant and mode). */
const sameIdentity = (x: string): RawBuilder<SqlBool> => {
  const alias = sql.raw(x);
  return sql<SqlBool>`${alias}.merchant_id = a.merchant_id AND ${alias}.mode = a.mode
    AND ((a.email IS NOT NULL AND lower(${alias}.email) = lower(a.email)) OR (a.email IS NULL AND ${alias}.email IS NULL AND ${alias}.mobile = a.mobile))`;
};

/** Customer rows of `key` under alias `x` (merchant and mode are the caller's to add). */
export const ofCustomer = (x: string, key: CustomerKey): RawBuilder<SqlBool> => {
  const alias = sql.raw(x);
  return 'email' in key
    ? sql<SqlBool>`lower(${alias}.email) = ${key.email.toLowerCase()}`
    : sql<SqlBool>`(${alias}.email IS NULL AND ${alias}.mobile = ${key.mobile})`;
};

function baseQuery(filter: CustomerFilter) {
  let query = db
    .selectFrom('customers as a')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('customers as lc')
          .select(['lc.first_name', 'lc.last_name', 'lc.mobile', 'lc.country'])
          .where(sameIdentity('lc'))
          .orderBy('lc.created_at', 'desc')
          .orderBy('lc.id', 'desc')
          .limit(1)
          .as('latest'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('orders as so')
          .innerJoin('customers as sc', 'sc.id', 'so.customer_id')
          .where(sameIdentity('sc'))
          .select([
            sql<number>`count(*)::int`.as('orders_count'),
            sql<number>`(count(*) FILTER (WHERE so.status_id = 5))::int`.as('paid_count'),
            sql<Date>`min(so.created_at)`.as('first_order_at'),
            sql<Date>`max(so.created_at)`.as('last_order_at'),
          ])
          .as('stats'),
      (join) => join.onTrue(),
    )
    .select([
      'a.id as anchor_id', 'a.created_at as anchor_at', 'a.email', 'a.mobile as anchor_mobile',
      'latest.first_name', 'latest.last_name', 'latest.mobile', 'latest.country',
      'stats.orders_count', 'stats.paid_count', 'stats.first_order_at', 'stats.last_order_at',
    ])
    .select(
      sql<CustomerRow['paid_totals']>`(SELECT coalesce(json_agg(json_build_object('currency', t.currency, 'minor', t.total) ORDER BY t.currency), '[]'::json)
        FROM (SELECT pt.currency, sum(pt.amount_minor)::bigint AS total FROM orders pt JOIN customers pc ON pc.id = pt.customer_id
               WHERE ${sameIdentity('pc')} AND pt.status_id = 5 GROUP BY pt.currency) t)`.as('paid_totals'),
    )
    .where('a.merchant_id', '=', filter.merchantId)
    .where('a.mode', '=', filter.mode)
    // The anchor: no row of the same customer came before it.
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('customers as e').select(sql`1`.as('one')).where(sameIdentity('e')).where(sql<SqlBool>`(e.created_at, e.id) < (a.created_at, a.id)`))),
    );
  if (filter.customer) query = query.where(ofCustomer('a', filter.customer));
  if (filter.from) query = query.where('stats.last_order_at', '>=', filter.from);
  if (filter.to) query = query.where('stats.last_order_at', '<', filter.to);
  if (filter.search) query = query.where(searchMatches(filter.search));
  return query;
}

/** An e-mail by prefix (any case), or a mobile number by prefix with or without its `+`, on any row of the customer. */
function searchMatches(text: string): RawBuilder<SqlBool> {
  const digits = text.replace(/^\+/, '');
  const ways: RawBuilder<SqlBool>[] = [];
  if (text.includes('@') || /[A-Za-z]/.test(text)) ways.push(sql<SqlBool>`lower(a.email) LIKE ${startsWith(text.toLowerCase())}`);
  if (/^\d+$/.test(digits)) {
    ways.push(sql<SqlBool>`EXISTS (SELECT 1 FROM customers m WHERE ${sameIdentity('m')}
      AND (m.mobile LIKE ${startsWith(digits)} OR m.mobile LIKE ${startsWith(`+${digits}`)}))`);
  }
  return ways.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(ways, sql` OR `)})`;
}

/** A page of customers after `after` (newest anchor first). */
export async function listCustomers(on: Queryable, filter: CustomerFilter, limit: number, after?: OrderPosition): Promise<CustomerRow[]> {
  let query = baseQuery(filter);
  if (after) query = query.where(sql<SqlBool>`(a.created_at, a.id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(limit)) as Promise<CustomerRow[]>;
}

/** The shoppers (customers the merchant's server vouched for) whose orders carry this customer's identity. */
function shoppersOf(merchantId: number, mode: Mode, key: CustomerKey) {
  return db
    .selectFrom('orders as so')
    .innerJoin('customers as sc', 'sc.id', 'so.customer_id')
    .select('so.shopper_id')
    .where('so.merchant_id', '=', merchantId)
    .where('so.mode', '=', mode)
    .where('so.shopper_id', 'is not', null)
    .where(ofCustomer('sc', key))
    .$narrowType<{ shopper_id: number }>();
}

/** The customer's saved cards, newest first: brand, last four, expiry (never the token). */
export async function listCustomerCards(on: Queryable, merchantId: number, mode: Mode, key: CustomerKey): Promise<SavedCardListRow[]> {
  const query = db
    .selectFrom('saved_cards as card')
    .select(['card.id', 'card.brand', 'card.last4', 'card.expiry', 'card.created_at'])
    .where('card.shopper_id', 'in', shoppersOf(merchantId, mode, key))
    .orderBy('card.created_at', 'desc')
    .orderBy('card.id', 'desc');
  return run(on, query) as Promise<SavedCardListRow[]>;
}

/** Deletes one of the customer's saved cards; false when it has no such card. */
export async function deleteCustomerCard(on: Queryable, merchantId: number, mode: Mode, key: CustomerKey, cardId: number): Promise<boolean> {
  const query = db
    .deleteFrom('saved_cards')
    .where('id', '=', cardId)
    .where('shopper_id', 'in', shoppersOf(merchantId, mode, key))
    .returning('id');
  return (await run(on, query)).length > 0;
}
