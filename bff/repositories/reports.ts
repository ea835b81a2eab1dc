import { sql, type RawBuilder } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import { db, run } from './sql.ts';

/**
 * The merchant's figures over a range, each a GROUP BY of UTC buckets (`date_trunc` of the UTC wall time) and
 * currency, so a year of days is four statements whatever the number of payments. Sums of bigint columns are
 * numeric in PostgreSQL; they are cast back to bigint, which the drivers read as numbers.
 */
export type Interval = 'day' | 'week' | 'month';
export type ReportScope = { merchantId: number; mode: Mode; from: Date; to: Date; interval: Interval };

/** The bucket a time falls in: the start of its UTC day, ISO week (from Monday) or month. `interval` is from a closed set. */
const bucketOf = (interval: Interval, column: string): RawBuilder<Date> =>
  sql<Date>`date_trunc(${sql.lit(interval)}, ${sql.ref(column)} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
const total = (column: string) => sql<number>`coalesce(sum(${sql.ref(column)}), 0)::bigint`;

/** Successful attempts by when they were confirmed: what customers paid and the fees, per method. */
export const collected = (on: Queryable, scope: ReportScope) =>
  run(
    on,
    db
      .selectFrom('order_payments as p')
      .innerJoin('orders as o', 'o.id', 'p.order_id')
      .select([
        bucketOf(scope.interval, 'p.confirmed_at').as('bucket'),
        'o.currency',
        'p.payment_option',
        sql<number>`count(*)::int`.as('payments'),
        total('p.total_minor').as('collected_minor'),
        total('p.customer_fee_minor').as('customer_fee_minor'),
        total('p.subsidiary_fee_minor').as('merchant_fee_minor'),
      ])
      .where('o.merchant_id', '=', scope.merchantId)
      .where('o.mode', '=', scope.mode)
      .where('p.status_id', '=', 5)
      .where('p.confirmed_at', '>=', scope.from)
      .where('p.confirmed_at', '<', scope.to)
      .groupBy([sql`1`, sql`2`, sql`3`]),
  );

/** Attempts by when they started, and how many of them succeeded, per method. */
export const attempts = (on: Queryable, scope: ReportScope) =>
  run(
    on,
    db
      .selectFrom('order_payments as p')
      .innerJoin('orders as o', 'o.id', 'p.order_id')
      .select([
        bucketOf(scope.interval, 'p.created_at').as('bucket'),
        'o.currency',
        'p.payment_option',
        sql<number>`count(*)::int`.as('attempts'),
        sql<number>`(count(*) FILTER (WHERE p.status_id IN (5, 6)))::int`.as('succeeded'),
      ])
      .where('o.merchant_id', '=', scope.merchantId)
      .where('o.mode', '=', scope.mode)
      .where('p.created_at', '>=', scope.from)
      .where('p.created_at', '<', scope.to)
      .groupBy([sql`1`, sql`2`, sql`3`]),
  );

/**
 * Orders by when they were created: how many, how many were paid (reversed ones included: they were), and how many
 * were abandoned: never paid, no attempt open (Initiated or Failed), and created before `abandonedBefore`.
 */
export const orders = (on: Queryable, scope: ReportScope, abandonedBefore: Date) =>
  run(
    on,
    db
      .selectFrom('orders as o')
      .select([
        bucketOf(scope.interval, 'o.created_at').as('bucket'),
        'o.currency',
        sql<number>`count(*)::int`.as('orders'),
        sql<number>`(count(*) FILTER (WHERE o.status_id IN (5, 6)))::int`.as('paid'),
        sql<number>`(count(*) FILTER (WHERE o.status_id IN (1, 4) AND o.created_at < ${abandonedBefore}))::int`.as('abandoned'),
      ])
      .where('o.merchant_id', '=', scope.merchantId)
      .where('o.mode', '=', scope.mode)
      .where('o.created_at', '>=', scope.from)
      .where('o.created_at', '<', scope.to)
      .groupBy([sql`1`, sql`2`]),
  );

/** Refunds that succeeded, by when they did. */
export const refunded = (on: Queryable, scope: ReportScope) =>
  run(
    on,
    db
      .selectFrom('refunds as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select([bucketOf(scope.interval, 'r.completed_at').as('bucket'), 'o.currency', total('r.amount_minor').as('refunded_minor')])
      .where('o.merchant_id', '=', scope.merchantId)
      .where('o.mode', '=', scope.mode)
      .where('r.state', '=', 'succeeded')
      .where('r.completed_at', '>=', scope.from)
      .where('r.completed_at', '<', scope.to)
      .groupBy([sql`1`, sql`2`]),
  );
