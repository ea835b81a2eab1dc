import type { Queryable } from '../storage/storage.ts';
import { db, run } from './sql.ts';

/**
 * The rows one order's detail and timeline are built from: the order's own columns the list does not carry, its
 * attempts, refunds, timeline rows (`order_events`), the merchant's events about it with each delivery and its
 * attempts, and the merchant's notes. Read only; the one write is a note.
 */
export async function findOrderExtras(on: Queryable, orderId: number) {
  const [row] = await run(
    on,
    db
      .selectFrom('orders as o')
      .leftJoin('payment_links as l', 'l.id', 'o.payment_link_id')
      .select(['o.items', 'o.fee_rules', 'o.created_by', 'o.recurring_period', 'l.reference as link_reference'])
      .where('o.id', '=', orderId),
  );
  return row;
}

export const listAttempts = (on: Queryable, orderId: number) =>
  run(on, db.selectFrom('order_payments').selectAll().where('order_id', '=', orderId).orderBy('id'));

export const listRefunds = (on: Queryable, orderId: number) =>
  run(
    on,
    db
      .selectFrom('refunds as r')
      .innerJoin('order_payments as p', 'p.id', 'r.payment_id')
      .selectAll('r')
      .select('p.reference as payment_reference')
      .where('r.order_id', '=', orderId)
      .orderBy('r.id'),
  );

export const listOrderEvents = (on: Queryable, orderId: number) =>
  run(on, db.selectFrom('order_events').select(['id', 'name', 'source', 'detail', 'created_at']).where('order_id', '=', orderId).orderBy('id'));

export const listNotes = (on: Queryable, orderId: number) =>
  run(on, db.selectFrom('order_notes').select(['id', 'text', 'author', 'created_at']).where('order_id', '=', orderId).orderBy('id'));

/** The merchant's events about the order, oldest first; `data` of each only for the partial transfers it reports. */
export const listDomainEvents = (on: Queryable, orderId: number) =>
  run(
    on,
    db
      .selectFrom('domain_events')
      .select(['id', 'type', 'created_at'])
      .select((eb) => eb.case().when('type', '=', 'transfer.partially_paid').then(eb.ref('data')).else(null).end().as('data'))
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id'),
  );

/** Every delivery of the order's events, with its endpoint's address; its attempts come from `listWebhookAttempts`. */
export const listDeliveries = (on: Queryable, orderId: number) =>
  run(
    on,
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('domain_events as v', 'v.id', 'd.event_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.event_id', 'v.type as event_type', 'e.url', 'd.status', 'd.resend_of', 'd.created_at'])
      .where('v.order_id', '=', orderId)
      .orderBy('d.created_at')
      .orderBy('d.id'),
  );

export const listWebhookAttempts = (on: Queryable, orderId: number) =>
  run(
    on,
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .innerJoin('domain_events as v', 'v.id', 'd.event_id')
      .select(['a.delivery_id', 'a.attempt', 'a.started_at', 'a.finished_at', 'a.status_code', 'a.error', 'a.latency_ms'])
      .where('v.order_id', '=', orderId)
      .orderBy('a.delivery_id')
      .orderBy('a.attempt'),
  );

export async function insertNote(on: Queryable, note: { orderId: number; text: string; author: string | null; createdAt: Date }) {
  const [row] = await run(
    on,
    db
      .insertInto('order_notes')
      .values({ order_id: note.orderId, text: note.text, author: note.author, created_at: note.createdAt })
      .returning(['id', 'text', 'author', 'created_at']),
  );
  return row!;
}

export type AttemptRow = Awaited<ReturnType<typeof listAttempts>>[number];
export type RefundRow = Awaited<ReturnType<typeof listRefunds>>[number];
export type OrderEventRow = Awaited<ReturnType<typeof listOrderEvents>>[number];
export type NoteRow = Awaited<ReturnType<typeof listNotes>>[number];
export type DomainEventRow = Awaited<ReturnType<typeof listDomainEvents>>[number];
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];
export type WebhookAttemptRow = Awaited<ReturnType<typeof listWebhookAttempts>>[number];
export type OrderExtras = NonNullable<Awaited<ReturnType<typeof findOrderExtras>>>;
