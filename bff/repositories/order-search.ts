import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from './schema.ts';
import type { OrderState } from '../../shared/contract/orders.ts';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import { db, run, startsWith } from './sql.ts';

/**
 * The merchant's view of its orders: one query for lists, searches and exports, newest first, by keyset, through
 * `order_summaries` (migration 015: each order's state and last attempt, kept by triggers), with its customer, its
 * link and subscription references and that attempt's details.
 */
export type { OrderState };

export type OrderFilter = {
  merchantId: number;
  mode: Mode;
  search?: string | undefined;
  states?: readonly OrderState[] | undefined;
  method?: 'C' | 'bank-transfer' | undefined;
  currency?: string | undefined;
  amountMinMinor?: number | undefined;
  amountMaxMinor?: number | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  linkReference?: string | undefined;
  subscriptionReference?: string | undefined;
  customer?: CustomerKey | undefined;
};

/** A customer as the merchant knows it: by e-mail (case-insensitive), or by mobile number when it gave no e-mail. */
export type CustomerKey = { email: string } | { mobile: string };

/** A position in the newest-first order: the last row of the previous page. */
export type OrderPosition = { createdAt: Date; id: number };

export type OrderListRow = {
  id: number;
  reference: string;
  created_by: 'server' | 'browser';
  state: OrderState;
  status_id: number;
  amount_minor: number;
  currency: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
  customer_email: string | null;
  customer_first_name: string;
  customer_last_name: string;
  customer_mobile: string | null;
  link_reference: string | null;
  subscription_reference: string | null;
  payment_reference: string | null;
  payment_option: 'C' | 'bank-transfer' | null;
  card_brand: string | null;
  card_last4: string | null;
  transfer_account: string | null;
  transfer_bank: string | null;
  received_minor: number | null;
  fee_minor: number | null;
  customer_fee_minor: number | null;
  subsidiary_fee_minor: number | null;
};

function baseQuery(filter: OrderFilter) {
  let query = db
    .selectFrom('order_summaries as v')
    .innerJoin('orders as o', 'o.id', 'v.order_id')
    .innerJoin('customers as c', 'c.id', 'o.customer_id')
    .leftJoin('order_payments as p', 'p.id', 'v.payment_id')
    .leftJoin('payment_links as l', 'l.id', 'o.payment_link_id')
    .leftJoin('subscriptions as s', 's.id', 'o.subscription_id')
    .select([
      'o.id', 'o.reference', 'o.created_by', 'v.state', 'o.status_id', 'o.amount_minor', 'o.currency', 'o.description', 'o.created_at', 'o.updated_at',
      'c.email as customer_email', 'c.first_name as customer_first_name', 'c.last_name as customer_last_name', 'c.mobile as customer_mobile',
      'l.reference as link_reference', 's.reference as subscription_reference',
      'p.reference as payment_reference', 'p.payment_option', 'p.card_brand', 'p.card_last4', 'p.transfer_account', 'p.transfer_bank',
      'p.received_minor', 'p.fee_minor', 'p.customer_fee_minor', 'p.subsidiary_fee_minor',
    ])
    .where('v.merchant_id', '=', filter.merchantId)
    .where('v.mode', '=', filter.mode);
  if (filter.from) query = query.where('v.created_at', '>=', filter.from);
  if (filter.to) query = query.where('v.created_at', '<', filter.to);
  if (filter.currency) query = query.where('v.currency', '=', filter.currency);
  if (filter.amountMinMinor !== undefined) query = query.where('v.amount_minor', '>=', filter.amountMinMinor);
  if (filter.amountMaxMinor !== undefined) query = query.where('v.amount_minor', '<=', filter.amountMaxMinor);
  if (filter.method) query = query.where('v.method', '=', filter.method);
  if (filter.states) query = query.where('v.state', 'in', filter.states);
  if (filter.linkReference) query = query.where('l.reference', '=', filter.linkReference);
  if (filter.subscriptionReference) query = query.where('s.reference', '=', filter.subscriptionReference);
  if (filter.customer) {
    const customer = filter.customer;
    query = 'email' in customer
      ? query.where(sql<SqlBool>`lower(c.email) = ${customer.email.toLowerCase()}`)
      : query.where('c.email', 'is', null).where('c.mobile', '=', customer.mobile);
  }
  if (filter.search) query = query.where('v.order_id', 'in', searchMatches(filter.merchantId, filter.mode, filter.search));
  return query;
}

/**
 * The orders one search box matches, each way by an index (see migration 015): order and payment references,
 * transfer accounts and link references by prefix; customer e-mails by prefix, case-insensitively; mobile numbers
 * by prefix, with or without the leading `+`; a card's last four exactly.
 */
function searchMatches(merchantId: number, mode: Mode, text: string): SelectQueryBuilder<Database & { so: Database['orders'] }, 'so', { id: number }> {
  const prefix = startsWith(text);
  const ofMerchant = db.selectFrom('orders as so').where('so.merchant_id', '=', merchantId).where('so.mode', '=', mode);
  let matches = ofMerchant.select('so.id').where(sql<SqlBool>`so.reference LIKE ${prefix}`)
    .union(ofMerchant.innerJoin('order_payments as sp', 'sp.order_id', 'so.id').select('so.id').where(sql<SqlBool>`sp.reference LIKE ${prefix}`))
    .union(ofMerchant.innerJoin('payment_links as sl', 'sl.id', 'so.payment_link_id').select('so.id').where(sql<SqlBool>`sl.reference LIKE ${prefix}`));
  if (text.includes('@') || /[A-Za-z]/.test(text)) {
    matches = matches.union(
      ofMerchant.innerJoin('customers as sc', 'sc.id', 'so.customer_id').select('so.id').where(sql<SqlBool>`lower(sc.email) LIKE ${startsWith(text.toLowerCase())}`),
    );
  }
  const digits = text.replace(/^\+/, '');
  if (/^\d+$/.test(digits)) {
    if (/^\d{4}$/.test(text)) {
      matches = matches.union(ofMerchant.innerJoin('order_payments as sp4', 'sp4.order_id', 'so.id').select('so.id').where('sp4.card_last4', '=', text));
    }
    matches = matches
      .union(ofMerchant.innerJoin('order_payments as spa', 'spa.order_id', 'so.id').select('so.id').where(sql<SqlBool>`spa.transfer_account::text LIKE ${startsWith(digits)}`))
      .union(
        ofMerchant
          .innerJoin('customers as sm', 'sm.id', 'so.customer_id')
          .select('so.id')
          .where((eb) => eb.or([sql<SqlBool>`sm.mobile LIKE ${startsWith(digits)}`, sql<SqlBool>`sm.mobile LIKE ${startsWith(`+${digits}`)}`])),
      );
  }
  return matches;
}

/** A page of orders after `after` (newest first); one more row than `limit` tells whether another page follows. */
export async function listOrders(on: Queryable, filter: OrderFilter, limit: number, after?: OrderPosition): Promise<OrderListRow[]> {
  let query = baseQuery(filter);
  if (after) query = query.where(sql<SqlBool>`(v.created_at, v.order_id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('v.created_at', 'desc').orderBy('v.order_id', 'desc').limit(limit)) as Promise<OrderListRow[]>;
}

/**
 * The order a merchant's server means by `reference`, as a list row: its own when both its server and a browser made
 * one under that reference (the secret key's choice in `chooseOrder`, bff/services/orders.ts).
 */
export async function findOrderRow(on: Queryable, merchantId: number, mode: Mode, reference: string): Promise<OrderListRow | undefined> {
  const query = baseQuery({ merchantId, mode }).where('o.reference', '=', reference).orderBy(sql`o.created_by = 'server'`, 'desc').limit(1);
  const [row] = (await run(on, query)) as OrderListRow[];
  return row;
}
