import { sql, type SqlBool } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import { db, run } from './sql.ts';

/** The merchant's domain events (the outbox), newest first by keyset, each with its webhook deliveries counted by state. */
export type EventFilter = {
  merchantId: number;
  mode: Mode;
  types?: readonly string[] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

/** Events have text ids (`evt_...`): the position is the last row's time and id. */
export type EventPosition = { createdAt: Date; id: string };

export type EventListRow = {
  id: string;
  type: string;
  created_at: Date;
  order_reference: string | null;
  deliveries_total: number;
  deliveries_pending: number;
  deliveries_succeeded: number;
  deliveries_failed: number;
  last_attempt_at: Date | null;
};

export async function listEvents(on: Queryable, filter: EventFilter, limit: number, after?: EventPosition): Promise<EventListRow[]> {
  let query = db
    .selectFrom('domain_events as e')
    .leftJoin('orders as o', 'o.id', 'e.order_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .whereRef('d.event_id', '=', 'e.id')
          .select([
            sql<number>`count(*)::int`.as('deliveries_total'),
            sql<number>`(count(*) FILTER (WHERE d.status = 'pending'))::int`.as('deliveries_pending'),
            sql<number>`(count(*) FILTER (WHERE d.status = 'succeeded'))::int`.as('deliveries_succeeded'),
            sql<number>`(count(*) FILTER (WHERE d.status = 'failed'))::int`.as('deliveries_failed'),
            sql<Date | null>`(SELECT max(wa.started_at) FROM webhook_attempts wa JOIN webhook_deliveries wd ON wd.id = wa.delivery_id WHERE wd.event_id = e.id)`.as('last_attempt_at'),
          ])
          .as('ds'),
      (join) => join.onTrue(),
    )
    .select(['e.id', 'e.type', 'e.created_at', 'o.reference as order_reference'])
    .select(['ds.deliveries_total', 'ds.deliveries_pending', 'ds.deliveries_succeeded', 'ds.deliveries_failed', 'ds.last_attempt_at'])
    .where('e.merchant_id', '=', filter.merchantId)
    .where('e.mode', '=', filter.mode);
  if (filter.types) query = query.where('e.type', 'in', filter.types);
  if (filter.from) query = query.where('e.created_at', '>=', filter.from);
  if (filter.to) query = query.where('e.created_at', '<', filter.to);
  if (after) query = query.where(sql<SqlBool>`(e.created_at, e.id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(limit)) as Promise<EventListRow[]>;
}
