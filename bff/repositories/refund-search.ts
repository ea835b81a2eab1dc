import { sql, type SqlBool } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import { db, run } from './sql.ts';

/** The merchant's refunds, newest first (by when they were requested), by keyset; an order names the merchant. */
export type RefundFilter = {
  merchantId: number;
  mode: Mode;
  state?: 'processing' | 'succeeded' | 'failed' | undefined;
  orderReference?: string | undefined;
  currency?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

export type RefundPosition = { createdAt: Date; id: number };

export async function listRefunds(on: Queryable, filter: RefundFilter, limit: number, after?: RefundPosition) {
  let query = db
    .selectFrom('refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('order_payments as p', 'p.id', 'r.payment_id')
    .select([
      'r.id', 'r.reference', 'r.state', 'r.amount_minor', 'r.currency', 'r.reason', 'r.response_code', 'r.response_message', 'r.created_at', 'r.completed_at',
      'o.reference as order_reference', 'p.reference as payment_reference',
    ])
    .where('o.merchant_id', '=', filter.merchantId)
    .where('o.mode', '=', filter.mode);
  if (filter.state) query = query.where('r.state', '=', filter.state);
  if (filter.orderReference) query = query.where('o.reference', '=', filter.orderReference);
  if (filter.currency) query = query.where('r.currency', '=', filter.currency);
  if (filter.from) query = query.where('r.created_at', '>=', filter.from);
  if (filter.to) query = query.where('r.created_at', '<', filter.to);
  if (after) query = query.where(sql<SqlBool>`(r.created_at, r.id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit));
}

export type RefundListRow = Awaited<ReturnType<typeof listRefunds>>[number];
