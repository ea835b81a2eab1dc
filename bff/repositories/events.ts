import type { DomainEvent, DomainEventType } from '../domain/events.ts';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';

type EventRow = { id: string; merchant_id: number; mode: Mode; type: DomainEventType; order_id: number | null; data: unknown; created_at: Date };

const toEvent = (row: EventRow): DomainEvent => ({
  id: row.id, merchantId: row.merchant_id, mode: row.mode, type: row.type, orderId: row.order_id, data: row.data, createdAt: row.created_at,
});

export async function insertDomainEvent(db: Queryable, event: DomainEvent): Promise<void> {
  await db.query('INSERT INTO domain_events (id, merchant_id, mode, type, order_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    event.id, event.merchantId, event.mode, event.type, event.orderId, JSON.stringify(event.data), event.createdAt,
  ]);
}

export async function findDomainEvent(db: Queryable, id: string): Promise<DomainEvent | undefined> {
  const [row] = await db.query<EventRow>('SELECT * FROM domain_events WHERE id = $1', [id]);
  return row && toEvent(row);
}

/** A merchant's events in one mode, newest first (optionally of one order). */
export async function listDomainEvents(db: Queryable, merchantId: number, mode: Mode, options: { orderId?: number; limit: number }): Promise<DomainEvent[]> {
  const rows = await db.query<EventRow>(
    `SELECT * FROM domain_events WHERE merchant_id = $1 AND mode = $2 AND ($3::integer IS NULL OR order_id = $3)
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [merchantId, mode, options.orderId ?? null, options.limit],
  );
  return rows.map(toEvent);
}
