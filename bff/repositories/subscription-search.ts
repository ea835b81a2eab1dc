import { sql, type SqlBool } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import { ofCustomer } from './customer-search.ts';
import type { CustomerKey, OrderPosition } from './order-search.ts';
import { db, run } from './sql.ts';

/** The merchant's subscriptions across its links, newest first by keyset, with their customer, link and first order. */
export type SubscriptionState = 'active' | 'past_due' | 'cancelled' | 'completed';

export type SubscriptionFilter = {
  merchantId: number;
  mode: Mode;
  states?: readonly SubscriptionState[] | undefined;
  linkReference?: string | undefined;
  customer?: CustomerKey | undefined;
  /** On when the subscription started. */
  from?: Date | undefined;
  to?: Date | undefined;
};

export type SubscriptionListRow = {
  id: number;
  reference: string;
  state: SubscriptionState;
  amount_minor: number;
  currency: string;
  frequency_id: number;
  payments_total: number | null;
  payments_made: number;
  next_due_at: Date | null;
  created_at: Date;
  ended_at: Date | null;
  customer_email: string | null;
  customer_first_name: string;
  customer_last_name: string;
  customer_mobile: string | null;
  link_reference: string | null;
  first_order_reference: string;
};

function baseQuery(filter: SubscriptionFilter) {
  let query = db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .innerJoin('orders as fo', 'fo.id', 's.first_order_id')
    .leftJoin('payment_links as l', 'l.id', 's.payment_link_id')
    .select([
      's.id', 's.reference', 's.state', 's.amount_minor', 's.currency', 's.frequency_id', 's.payments_total', 's.payments_made',
      's.next_due_at', 's.created_at', 's.ended_at',
      'c.email as customer_email', 'c.first_name as customer_first_name', 'c.last_name as customer_last_name', 'c.mobile as customer_mobile',
      'l.reference as link_reference', 'fo.reference as first_order_reference',
    ])
    .where('s.merchant_id', '=', filter.merchantId)
    .where('s.mode', '=', filter.mode);
  if (filter.states) query = query.where('s.state', 'in', filter.states);
  if (filter.linkReference) query = query.where('l.reference', '=', filter.linkReference);
  if (filter.customer) query = query.where(ofCustomer('c', filter.customer));
  if (filter.from) query = query.where('s.created_at', '>=', filter.from);
  if (filter.to) query = query.where('s.created_at', '<', filter.to);
  return query;
}

/** A page of subscriptions after `after` (newest first); one more row than asked tells whether another page follows. */
export async function listSubscriptions(on: Queryable, filter: SubscriptionFilter, limit: number, after?: OrderPosition): Promise<SubscriptionListRow[]> {
  let query = baseQuery(filter);
  if (after) query = query.where(sql<SqlBool>`(s.created_at, s.id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit)) as Promise<SubscriptionListRow[]>;
}
