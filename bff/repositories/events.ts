import type { DomainEvent } from '../domain/events.ts';
import type { Queryable } from '../storage/storage.ts';

export async function insertDomainEvent(db: Queryable, event: DomainEvent): Promise<void> {
  await db.query('INSERT INTO domain_events (id, merchant_id, mode, type, order_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    event.id, event.merchantId, event.mode, event.type, event.orderId, JSON.stringify(event.data), event.createdAt,
  ]);
}
