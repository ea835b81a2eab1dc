import { notFound } from '../errors.ts';
import * as detail from '../repositories/order-detail.ts';
import { findOrderRow, type OrderListRow } from '../repositories/order-search.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { MerchantScope } from './order-lists.ts';

/** Everything stored about one order that its detail and timeline show (`../presenters/order-timeline.ts`). */
export type OrderRecord = {
  summary: OrderListRow;
  extras: detail.OrderExtras;
  attempts: detail.AttemptRow[];
  refunds: detail.RefundRow[];
  events: detail.OrderEventRow[];
  domainEvents: detail.DomainEventRow[];
  deliveries: detail.DeliveryRow[];
  webhookAttempts: detail.WebhookAttemptRow[];
  notes: detail.NoteRow[];
};

/**
 * One order as a merchant investigates it: read from the rows the payments core keeps, never written to them. The
 * merchant's notes are the one thing written here, to a table of their own.
 */
export class OrderDetails {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async find(scope: MerchantScope, reference: string): Promise<OrderRecord> {
    const summary = await this.order(scope, reference);
    const id = summary.id;
    // One statement after another: PGlite runs one at a time anyway, and a pool is not held for one request.
    const extras = await detail.findOrderExtras(this.storage, id);
    const attempts = await detail.listAttempts(this.storage, id);
    const refunds = await detail.listRefunds(this.storage, id);
    const events = await detail.listOrderEvents(this.storage, id);
    const domainEvents = await detail.listDomainEvents(this.storage, id);
    const deliveries = await detail.listDeliveries(this.storage, id);
    const webhookAttempts = await detail.listWebhookAttempts(this.storage, id);
    const notes = await detail.listNotes(this.storage, id);
    return { summary, extras: extras!, attempts, refunds, events, domainEvents, deliveries, webhookAttempts, notes };
  }

  /** Adds a note (its text already checked and masked by the contract's schema); `author` is a team member, or null for the merchant's server. */
  async addNote(scope: MerchantScope, reference: string, text: string, author: string | null = null): Promise<detail.NoteRow> {
    const order = await this.order(scope, reference);
    return detail.insertNote(this.storage, { orderId: order.id, text, author, createdAt: this.clock.now() });
  }

  private async order(scope: MerchantScope, reference: string): Promise<OrderListRow> {
    const row = await findOrderRow(this.storage, scope.merchantId, scope.mode, reference);
    if (!row) throw notFound(`No order with reference ${reference} exists for this merchant.`, 'order_not_found');
    return row;
  }
}
