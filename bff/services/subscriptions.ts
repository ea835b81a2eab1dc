import { randomBytes } from 'node:crypto';
import { frequencyHours } from '../../shared/plan.ts';
import { randomAlphanumeric } from '../crypto/api-keys.ts';
import type { SignedTokens } from '../crypto/signed-tokens.ts';
import type { DomainEventType } from '../domain/events.ts';
import { computeFee } from '../domain/fees.ts';
import { PROCESSING_TIMEOUT_MS } from '../domain/lifecycle.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Order, Payment } from '../domain/order.ts';
import { canMove, dueAt, isLastPeriod, RETRY_DELAYS_MS, type Subscription, type SubscriptionEventType } from '../domain/subscription.ts';
import { conflict, notFound } from '../errors.ts';
import { done, type JobHandlers, type JobResult } from '../jobs/kinds.ts';
import { enqueue } from '../jobs/queue.ts';
import { withDeadline, type ProcessorRegistry } from '../processor/registry.ts';
import * as linkRepository from '../repositories/links.ts';
import * as merchants from '../repositories/merchants.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import * as subscriptions from '../repositories/subscriptions.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { PaymentLifecycle, SettlementListener } from './lifecycle.ts';
import { newPaymentReference } from './orders.ts';
import type { Outbox } from './outbox.ts';
import type { RefundService } from './refunds.ts';

/** What a cancel did: `chargeOut` when a charge was already with the card issuer, to be refunded if approved. */
export type CancelOutcome = { chargeOut: boolean };

const CANCEL_AUDIENCE = 'subscription-cancel';
/** A customer's cancel link lasts as long as any subscription may: ten years. */
const CANCEL_LINK_LIFETIME_MS = 10 * 365 * 24 * 3_600_000;

const newSubscriptionReference = () => `SUB-${randomBytes(12).toString('hex').toUpperCase()}`;

/**
 * Subscriptions (recurring payments). One starts when the first charge of an order with a plan (a SUB link's, or
 * the order's `frequencyId`) is approved after 3-D Secure: the card's token is kept on the subscription only. A
 * `subscription.charge` job, one per subscription, charges each period as its own order (`recurring_period`,
 * unique per subscription), merchant-initiated; the lifecycle's settlement hook advances the subscription in the
 * transaction that records the answer, so a charge and its consequences commit together, whichever process or job
 * (the charge job or a re-query) gets the answer.
 */
export class SubscriptionService {
  constructor(
    private readonly storage: Storage,
    private readonly registry: ProcessorRegistry,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly lifecycle: PaymentLifecycle,
    private readonly tokens: SignedTokens,
    private readonly settings: { processorTimeoutMs: number },
    private readonly refunds: RefundService,
  ) {
    lifecycle.onSettled(this.onSettled);
  }

  handlers(): Pick<JobHandlers, 'subscription.charge'> {
    return { 'subscription.charge': ({ subscriptionId }) => this.chargeDue(subscriptionId) };
  }

  /** The settlement hook: starts a subscription on its first approval, advances it on each recurring answer. */
  private readonly onSettled: SettlementListener = async (tx, order, payment, event) => {
    if (event.type === 'approved') {
      if (order.recurringPeriod === null && order.frequencyId !== null && order.subscriptionId === null) {
        return this.start(tx, order, payment, event.cardToken ?? null);
      }
      if (order.recurringPeriod !== null && order.subscriptionId !== null) await this.recordCharge(tx, order, payment, order.subscriptionId, order.recurringPeriod);
    } else if (order.recurringPeriod !== null && order.subscriptionId !== null && event.reason !== 'already-paid') {
      await this.recordDecline(tx, order.subscriptionId, order.recurringPeriod);
    }
    return undefined;
  };

  private async start(tx: Queryable, order: Order, payment: Payment, cardToken: string | null): Promise<Order | undefined> {
    const hours = frequencyHours(order.frequencyId!);
    // Without a token there is nothing to charge later: the order stays a one-off payment.
    if (!cardToken || hours === undefined || payment.option !== 'C') return undefined;
    const now = this.clock.now();
    const total = order.numberOfPayments;
    const finished = total !== null && total <= 1;
    const anchorAt = now;
    const created = await subscriptions.insertSubscription(
      tx,
      {
        reference: newSubscriptionReference(),
        merchantId: order.merchantId,
        mode: order.mode,
        paymentLinkId: order.paymentLinkId,
        firstOrderId: order.id,
        customerId: order.customer.id,
        shopperId: order.shopperId,
        cardToken,
        cardLabel: payment.instrument,
        amountMinor: order.amountMinor,
        currency: order.currency,
        frequencyId: order.frequencyId!,
        periodHours: hours,
        paymentsTotal: total,
        anchorAt,
        nextDueAt: finished ? null : dueAt({ anchorAt, periodHours: hours }, 2),
        state: finished ? 'completed' : 'active',
      },
      now,
    );
    if (!created) return undefined;
    await subscriptions.markFirstOrder(tx, order.id, created.id);
    await orders.insertEvent(tx, order.id, 'subscription-created', 'system', { recurringPaymentReference: created.reference }, now);
    await this.record(tx, 'subscription.created', created);
    if (finished) await this.record(tx, 'subscription.completed', created);
    else await enqueue(tx, { kind: 'subscription.charge', payload: { subscriptionId: created.id } }, created.nextDueAt!, now);
    return { ...order, subscriptionId: created.id, subscriptionReference: created.reference };
  }

  /**
   * A recurring charge was approved: the period is paid; the next one is due on the plan's schedule. A charge that
   * was with the card issuer when the subscription was cancelled is approved after the merchant (or customer) was
   * told no further charge is made: it is voided, refunded in full by the `refund.send` job written here.
   */
  private async recordCharge(tx: Queryable, order: Order, payment: Payment, subscriptionId: number, period: number): Promise<void> {
    const current = await subscriptions.lockSubscription(tx, subscriptionId);
    if (!current) return;
    const now = this.clock.now();
    if (current.state === 'cancelled' && period >= current.nextPeriod) {
      await this.refunds.holdForVoid(tx, order, payment, 'Subscription cancelled while this charge was with the card issuer', now);
      return;
    }
    const paymentsMade = current.paymentsMade + 1;
    if (current.nextPeriod !== period || !canMove(current.state, 'charged')) {
      // An answer that came after the subscription moved on (cancelled while the charge was out): the money was taken.
      const updated = await subscriptions.updateSubscription(tx, subscriptionId, current.state, { paymentsMade }, now);
      if (updated) await this.record(tx, 'subscription.charged', updated);
      return;
    }
    const last = isLastPeriod(current, period);
    const event: SubscriptionEventType = last ? 'completed' : 'charged';
    const updated = await subscriptions.updateSubscription(
      tx,
      subscriptionId,
      current.state,
      last
        ? { state: 'completed', paymentsMade, nextPeriod: period + 1, nextDueAt: null, failures: 0, endedAt: now }
        : { paymentsMade, nextPeriod: period + 1, nextDueAt: dueAt(current, period + 1), failures: 0 },
      now,
    );
    if (!updated) return;
    await this.record(tx, 'subscription.charged', updated);
    if (event === 'completed') await this.record(tx, 'subscription.completed', updated);
  }

  /** A recurring charge was declined: tried again later, three times, then the subscription is past due. */
  private async recordDecline(tx: Queryable, subscriptionId: number, period: number): Promise<void> {
    const current = await subscriptions.lockSubscription(tx, subscriptionId);
    if (!current || current.nextPeriod !== period || current.state !== 'active') return;
    const now = this.clock.now();
    const failures = current.failures + 1;
    const delay = RETRY_DELAYS_MS[failures - 1];
    if (delay === undefined) {
      const updated = await subscriptions.updateSubscription(tx, subscriptionId, 'active', { state: 'past_due', failures, nextDueAt: null }, now);
      if (updated) await this.record(tx, 'subscription.past_due', updated);
      return;
    }
    await subscriptions.updateSubscription(tx, subscriptionId, 'active', { failures, nextDueAt: new Date(now.getTime() + delay) }, now);
  }

  /**
   * The job of one subscription: charges its period when due (each missed period in turn after downtime), then
   * sleeps until the next due time; ends when the subscription does.
   */
  private async chargeDue(subscriptionId: number): Promise<JobResult> {
    const seen = await subscriptions.findSubscription(this.storage, subscriptionId);
    if (!seen || seen.state !== 'active' || !seen.nextDueAt) return done;
    const now = this.clock.now();
    if (seen.nextDueAt > now) return { outcome: 'again', at: seen.nextDueAt };

    const opened = await this.storage.transaction((tx) => this.openCharge(tx, seen.id, now));
    if (opened.kind === 'busy') return { outcome: 'again', at: new Date(now.getTime() + PROCESSING_TIMEOUT_MS) };
    if (opened.kind === 'charge') {
      const { order, payment, subscription } = opened;
      const processor = this.registry.pick({ merchantId: order.merchantId, mode: order.mode, method: 'C', currency: order.currency });
      const merchantName = (await this.merchantName(order.merchantId)) ?? '';
      const result = await withDeadline(
        () =>
          processor.charge(
            { kind: 'token', token: subscription.cardToken, initiator: 'merchant' },
            { reference: payment.reference, amountMinor: payment.totalMinor, currency: order.currency, authenticationRequired: false, merchantName, instrumentLabel: payment.instrument ?? 'Card' },
          ),
        this.settings.processorTimeoutMs,
        (detail) => ({ kind: 'unknown' as const, detail }),
      );
      await this.lifecycle.settle(order, payment, result);
    }
    const after = await subscriptions.findSubscription(this.storage, subscriptionId);
    if (!after || after.state !== 'active' || !after.nextDueAt) return done;
    return { outcome: 'again', at: after.nextDueAt };
  }

  /**
   * Under the subscription's lock: the order of the period due (made once), and a new attempt on it. `busy` while
   * an attempt is out with the processor (its re-query settles it); `changed` when the subscription moved on.
   */
  private async openCharge(
    tx: Queryable,
    subscriptionId: number,
    now: Date,
  ): Promise<{ kind: 'changed' } | { kind: 'busy' } | { kind: 'charge'; order: Order; payment: Payment; subscription: Subscription }> {
    const subscription = await subscriptions.lockSubscription(tx, subscriptionId);
    if (!subscription || subscription.state !== 'active' || !subscription.nextDueAt || subscription.nextDueAt > now) return { kind: 'changed' };
    const period = subscription.nextPeriod;
    const first = await orders.findOrderById(tx, subscription.firstOrderId);
    if (!first) throw new Error(`subscription ${subscription.id} has no first order`);
    let orderId = await subscriptions.findPeriodOrderId(tx, subscription.id, period);
    if (orderId === undefined) {
      orderId = await orders.insertOrder(
        tx,
        {
          merchantId: subscription.merchantId,
          mode: subscription.mode,
          reference: `${subscription.reference}-${period}`,
          processorReference: `CKO${randomAlphanumeric(17).toUpperCase()}`,
          customerId: subscription.customerId,
          amountMinor: subscription.amountMinor,
          currency: subscription.currency,
          description: first.description,
          items: first.items,
          redirectUrl: null,
          paymentLinkId: subscription.paymentLinkId,
          frequencyId: subscription.frequencyId,
          numberOfPayments: subscription.paymentsTotal,
          authOption: 'NOAUTH',
          // The fee rules the customer agreed to with the first charge.
          feeRules: first.feeRules,
          createdBy: 'server',
          shopperId: subscription.shopperId,
          paymentMeta: undefined,
          recurring: { subscriptionId: subscription.id, period },
        },
        now,
      );
      if (orderId === undefined) throw new Error(`the order of period ${period} of subscription ${subscription.id} could not be made`);
      await orders.insertEvent(tx, orderId, 'order-created', 'system', { recurringPaymentReference: subscription.reference, period }, now);
    }
    // Settling a charge locks its order, then this subscription: while one holds the order, this job (holding the
    // subscription) comes back later rather than wait for it, which would deadlock the two.
    const status = await orders.lockOrderUnlessHeld(tx, orderId);
    if (status === 'held') return { kind: 'busy' };
    const order = await orders.findOrderById(tx, orderId);
    if (!order || status === 5 || status === 6) return { kind: 'changed' };
    if ((await payments.listOpenPayments(tx, orderId)).length > 0) return { kind: 'busy' };

    const firstCard = (await payments.listPayments(tx, first.id)).find((each) => each.statusId === 5 || each.statusId === 6);
    const fee = computeFee(order.feeRules, 'C', order.currency, order.amountMinor);
    const payment = await payments.insertPayment(tx, {
      orderId,
      reference: newPaymentReference(),
      option: 'C',
      processor: this.registry.pick({ merchantId: order.merchantId, mode: order.mode, method: 'C', currency: order.currency }).name,
      amountMinor: order.amountMinor,
      feeMinor: fee.feeMinor,
      customerFeeMinor: fee.customerFeeMinor,
      subsidiaryFeeMinor: fee.subsidiaryFeeMinor,
      totalMinor: fee.totalMinor,
      feeRate: fee.rate,
      instrument: subscription.cardLabel,
      cardBrand: firstCard?.cardBrand ?? null,
      cardFirst6: firstCard?.cardFirst6 ?? null,
      cardLast4: firstCard?.cardLast4 ?? null,
      cardExpiry: firstCard?.cardExpiry ?? null,
      saveCard: false,
      remarks: `Recurring payment ${period}${subscription.paymentsTotal === null ? '' : ` of ${subscription.paymentsTotal}`}`,
      now,
    });
    const started = await this.lifecycle.moveOrder(tx, order, 'attempt-started', now);
    await orders.insertEvent(tx, orderId, 'payment-started', 'system', { paymentReference: payment.reference, option: 'C', initiator: 'merchant' }, now);
    await enqueue(tx, { kind: 'payment.requery', payload: { paymentId: payment.id } }, new Date(now.getTime() + PROCESSING_TIMEOUT_MS), now);
    return { kind: 'charge', order: started, payment, subscription };
  }

  /** The merchant (secret key) cancels by the subscription's id or reference; cancelling again changes nothing. */
  async cancel(caller: Caller, key: string): Promise<CancelOutcome> {
    const found = await subscriptions.findMerchantSubscription(this.storage, caller.merchant.id, caller.mode, /^\d{1,9}$/.test(key) ? { id: Number(key) } : { reference: key });
    if (!found) throw notFound(`No recurring payment ${key} exists for this merchant.`);
    return this.cancelNow(found.id);
  }

  /** The customer cancels from the link on their receipt: the signed token names the subscription. */
  async cancelByToken(token: string): Promise<subscriptions.SubscriptionRecord | undefined> {
    const found = await this.fromCancelToken(token);
    if (!found) return undefined;
    await this.cancelNow(found.id);
    return subscriptions.findSubscriptionRecord(this.storage, found.id);
  }

  /** The subscription a customer's cancel link names, if the link is genuine. */
  async fromCancelToken(token: string): Promise<subscriptions.SubscriptionRecord | undefined> {
    const claims = await this.tokens.verify(CANCEL_AUDIENCE, token, this.clock.now());
    if (!claims || typeof claims.sub !== 'string' || typeof claims.ref !== 'string') return undefined;
    const found = await subscriptions.findSubscriptionRecord(this.storage, Number(claims.sub));
    return found && found.reference === claims.ref ? found : undefined;
  }

  /** The customer's cancel link: a signed token naming the subscription, never its guessable id. */
  cancelToken(subscription: { id: number; reference: string }): Promise<string> {
    const now = this.clock.now();
    return this.tokens.sign(CANCEL_AUDIENCE, { sub: String(subscription.id), ref: subscription.reference }, { now, expiresAt: new Date(now.getTime() + CANCEL_LINK_LIFETIME_MS) });
  }

  /**
   * Ends the subscription: no charge is opened after this commits (the charge job opens one under the same lock).
   * A charge already with the card issuer cannot be called back; `chargeOut` says there is one, and its approval,
   * whenever it comes (the job's answer or a re-query), is refunded in full (`recordCharge`).
   */
  private async cancelNow(id: number): Promise<CancelOutcome> {
    return this.storage.transaction(async (tx) => {
      const current = await subscriptions.lockSubscription(tx, id);
      if (!current) throw notFound('No such recurring payment.');
      const periodOrderId = await subscriptions.findPeriodOrderId(tx, id, current.nextPeriod);
      const chargeOut = periodOrderId !== undefined && (await payments.listOpenPayments(tx, periodOrderId)).length > 0;
      if (current.state === 'cancelled') return { chargeOut };
      if (!canMove(current.state, 'cancelled')) throw conflict('This recurring payment has already completed.');
      const now = this.clock.now();
      const updated = await subscriptions.updateSubscription(tx, id, current.state, { state: 'cancelled', nextDueAt: null, endedAt: now }, now);
      if (!updated) throw conflict('This recurring payment changed meanwhile; try again.');
      await this.record(tx, 'subscription.cancelled', updated);
      return { chargeOut };
    });
  }

  /** A link's subscriptions, for its merchant (secret key): the link by id or reference. */
  async listForLink(caller: Caller, key: string): Promise<subscriptions.SubscriptionRecord[]> {
    const link = /^\d{1,9}$/.test(key)
      ? await linkRepository.findLinkById(this.storage, caller.merchant.id, Number(key))
      : await linkRepository.findLinkByReference(this.storage, key);
    if (!link || link.merchantId !== caller.merchant.id || link.mode !== caller.mode) throw notFound(`No payment link ${key} exists for this merchant.`);
    return subscriptions.listLinkSubscriptionRecords(this.storage, link.id);
  }

  /** The subscription an order started or charges, as the merchant sees it. */
  async ofOrder(order: Order): Promise<subscriptions.SubscriptionRecord | undefined> {
    return order.subscriptionId === null ? undefined : subscriptions.findSubscriptionRecord(this.storage, order.subscriptionId);
  }

  private async record(tx: Queryable, type: DomainEventType, subscription: Subscription): Promise<void> {
    const record = await subscriptions.findSubscriptionRecord(tx, subscription.id);
    if (!record) return;
    await this.outbox.recordSubscriptionEvent(tx, type, record);
  }

  private async merchantName(merchantId: number): Promise<string | undefined> {
    return (await merchants.findMerchant(this.storage, merchantId))?.name;
  }
}
