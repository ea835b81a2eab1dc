import { randomBytes } from 'node:crypto';
import type { DomainEvent, DomainEventType } from '../domain/events.ts';
import type { Order, Payment } from '../domain/order.ts';
import type { PaymentLink } from '../../shared/links.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { Refund } from '../domain/refunds.ts';
import { presentVerify } from '../presenters/orders.ts';
import { presentRefund } from '../presenters/refunds.ts';
import { presentSubscription } from '../presenters/subscriptions.ts';
import type { SubscriptionRecord } from '../repositories/subscriptions.ts';
import * as events from '../repositories/events.ts';
import * as linkRepository from '../repositories/links.ts';
import * as merchants from '../repositories/merchants.ts';
import * as payments from '../repositories/payments.ts';
import * as refunds from '../repositories/refunds.ts';
import type { Queryable } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { MerchantCache } from './merchant-cache.ts';

/**
 * Writes a recorded event in the caller's transaction together with what it causes there (webhooks: a delivery per
 * enabled endpoint, each with its job), in as few statements as it can.
 */
export type EventWriter = (tx: Queryable, event: DomainEvent) => Promise<void>;

/** What a caller already read of an order in its transaction, after its change: every attempt, every refund. */
export type KnownOfOrder = { payments?: readonly Payment[] | undefined; refunds?: readonly Refund[] | undefined };

export const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

/**
 * Writes domain events to the outbox in the caller's transaction, with the order as verify shows it at that moment
 * (what webhooks deliver), so an event exists exactly when the change that caused it was committed.
 */
export class Outbox {
  private writer: EventWriter = events.insertDomainEvent;

  constructor(
    private readonly clock: Clock,
    private readonly presentLink: (link: linkRepository.StoredLink, merchant: Merchant) => PaymentLink,
    private readonly merchantCache: MerchantCache,
  ) {}

  /** Events are written by `writer` from now on (the webhooks write each event with its deliveries). */
  writeWith(writer: EventWriter): void {
    this.writer = writer;
  }

  /**
   * An order's event, with the order as verify shows it. `known` is what the caller read in this transaction after
   * its change (the order's attempts, its refunds), so it is not read again.
   */
  async recordOrderEvent(tx: Queryable, type: DomainEventType, order: Order, known: KnownOfOrder = {}): Promise<string> {
    return this.record(tx, type, order, await this.verifyOf(tx, order, known));
  }

  /** A refund's event: `data` is the refund, with the order as verify shows it once the refund is recorded. */
  async recordRefundEvent(tx: Queryable, type: DomainEventType, order: Order, refund: Refund): Promise<string> {
    return this.record(tx, type, order, { ...presentRefund(refund, order), order: await this.verifyOf(tx, order) });
  }

  /** The order as verify shows it, read in the caller's transaction. */
  private async verifyOf(tx: Queryable, order: Order, known: KnownOfOrder = {}) {
    // The merchant as the API's own answers show it: the cache every request reads, dropped when a merchant changes.
    const merchant = await this.merchantCache.read(`merchant:${order.merchantId}`, () => merchants.findMerchant(tx, order.merchantId), (found) => found.id);
    // One after the other: a transaction is one connection, which runs one statement at a time.
    const all = known.payments ?? (await payments.listPayments(tx, order.id));
    const link = order.paymentLinkId === null ? undefined : await linkRepository.findLinkById(tx, order.merchantId, order.paymentLinkId);
    // Only an order made for a customer the merchant vouched for saves cards (verify names their tokens).
    const savedCards = order.shopperId === null ? [] : await payments.listSavedCards(tx, order.shopperId);
    const orderRefunds = known.refunds ?? (await refunds.listRefunds(tx, order.id));
    if (!merchant) throw new Error(`order ${order.id} has no merchant`);
    return presentVerify(order, all, merchant, link ? this.presentLink(link, merchant) : null, savedCards, orderRefunds);
  }

  private record(tx: Queryable, type: DomainEventType, order: Order, data: unknown): Promise<string> {
    return this.recordEvent(tx, { type, merchantId: order.merchantId, mode: order.mode, orderId: order.id, data });
  }

  /** A subscription's event, with the subscription as the merchant's list shows it at that moment. */
  recordSubscriptionEvent(tx: Queryable, type: DomainEventType, subscription: SubscriptionRecord): Promise<string> {
    return this.recordEvent(tx, { type, merchantId: subscription.merchantId, mode: subscription.mode, orderId: subscription.firstOrderId, data: presentSubscription(subscription) });
  }

  /** Any event with the object it carries, in the caller's transaction. */
  async recordEvent(tx: Queryable, fields: { type: DomainEventType; merchantId: number; mode: 'test' | 'live'; orderId: number | null; data: unknown }): Promise<string> {
    const event = { id: newEventId(), ...fields, createdAt: this.clock.now() };
    await this.writer(tx, event);
    return event.id;
  }
}
