import { randomBytes } from 'node:crypto';
import { toMajorUnits } from '../../shared/money.ts';
import type { RefundPlain } from '../../shared/refunds.ts';
import { PROCESSING_TIMEOUT_MS, RESPONSE_MESSAGES } from '../domain/lifecycle.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Order, Payment } from '../domain/order.ts';
import { isFullyRefunded, planRefund, refundSources, type Refund, type RefundPlan } from '../domain/refunds.ts';
import { AppError, conflict } from '../errors.ts';
import { done, type JobHandlers, type JobResult } from '../jobs/kinds.ts';
import { enqueue } from '../jobs/queue.ts';
import type { RefundLookupResult, RefundResult } from '../processor/port.ts';
import { withDeadline, type ProcessorRegistry } from '../processor/registry.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import * as refunds from '../repositories/refunds.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { amountInMinorUnits } from './fees.ts';
import { TransitionConflictError, type PaymentLifecycle } from './lifecycle.ts';
import type { OrderService } from './orders.ts';
import type { Outbox } from './outbox.ts';

/** A refund with its order as it stands after it, and everything the answer shows of the order's refunds. */
export type RefundOf = { refund: Refund; order: Order; payments: Payment[]; refunds: Refund[] };

export const newRefundReference = () => `RFD${randomBytes(12).toString('hex').toUpperCase()}`;

const REFUNDED = 'Refunded';
const UNKNOWN_TO_PROCESSOR = 'Interrupted and unknown to the processor: nothing was refunded';

/**
 * Refunds (protocol.md 4.12): money of an order's payment sent back, in full or in part, never more than the
 * payment took across all its refunds. The amount is checked and held in one transaction under the order's row lock
 * (concurrent refunds queue there, as payments do); the processor is asked between transactions, never inside one;
 * its answer is recorded once, with the order's reversal when the payment went back in full, and the merchant's
 * event in the same transaction. An answer that never came leaves the refund processing: the `refund.requery` job
 * written with it asks the processor's record.
 */
export class RefundService {
  constructor(
    private readonly storage: Storage,
    private readonly registry: ProcessorRegistry,
    private readonly clock: Clock,
    private readonly lifecycle: PaymentLifecycle,
    private readonly orders: OrderService,
    private readonly outbox: Outbox,
    private readonly processorTimeoutMs: number,
  ) {}

  async refund(caller: Caller, plain: RefundPlain): Promise<RefundOf> {
    const order = await this.orders.resolve(caller, plain.reference);
    const amountMinor = plain.amount === undefined ? undefined : amountInMinorUnits(plain.amount, order.currency, 'amount');
    const now = this.clock.now();
    const { refund, payment } = await this.storage.transaction(async (tx) => {
      await orders.lockOrder(tx, order.id);
      const sources = refundSources(await payments.listPayments(tx, order.id), await refunds.listRefunds(tx, order.id));
      const plan = planRefund(sources, amountMinor);
      if (!plan.ok) throw refusal(plan, order, Math.max(0, ...sources.map((source) => source.remainingMinor)));
      const inserted = await refunds.insertRefund(
        tx,
        {
          reference: newRefundReference(),
          orderId: order.id,
          paymentId: plan.source.payment.id,
          amountMinor: plan.amountMinor,
          currency: order.currency,
          reason: plain.reason ?? null,
          processor: plan.source.payment.processor,
        },
        now,
      );
      await orders.insertEvent(tx, order.id, 'refund-started', 'system', { refundReference: inserted.reference, paymentReference: plan.source.payment.reference }, now);
      // Whatever happens to this process or the processor's answer, the refund is looked at again in time.
      await enqueue(tx, { kind: 'refund.requery', payload: { refundId: inserted.id } }, new Date(now.getTime() + PROCESSING_TIMEOUT_MS), now);
      return { refund: inserted, payment: plan.source.payment };
    });

    const processor = this.registry.byName(refund.processor);
    const request = { reference: refund.reference, chargeReference: payment.reference, amountMinor: refund.amountMinor, currency: refund.currency };
    const result: RefundResult = processor
      ? await withDeadline(() => processor.refund(request), this.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }))
      : { kind: 'unknown', detail: `processor ${refund.processor} is not registered` };
    return this.settle(refund, result);
  }

  /**
   * Records the processor's answer, once (a request and its re-query job may both hold one): a success sends the
   * payment and its order to 6 Reversed when all the payment took went back; a decline changes nothing but the
   * refund. An unknown answer changes nothing: the refund stays processing and its job asks again.
   */
  async settle(refund: Refund, result: RefundResult | RefundLookupResult): Promise<RefundOf> {
    const now = this.clock.now();
    if (result.kind === 'unknown' || result.kind === 'pending') {
      await orders.insertEvent(this.storage, refund.orderId, 'refund-answer-unknown', 'system', { refundReference: refund.reference }, now);
      return this.reread(refund);
    }
    const outcome =
      result.kind === 'succeeded'
        ? { state: 'succeeded' as const, responseCode: '00', responseMessage: REFUNDED, processorReference: result.processorReference }
        : result.kind === 'declined'
          ? { state: 'failed' as const, responseCode: result.code, responseMessage: RESPONSE_MESSAGES[result.code], processorReference: null }
          : { state: 'failed' as const, responseCode: '91', responseMessage: UNKNOWN_TO_PROCESSOR, processorReference: null };
    await this.storage.transaction(async (tx) => {
      await orders.lockOrder(tx, refund.orderId);
      const completed = await refunds.completeRefund(tx, refund.id, outcome, now);
      if (!completed) return;
      let order = await this.orderOf(tx, refund.orderId);
      await orders.insertEvent(tx, order.id, completed.state === 'succeeded' ? 'refund-succeeded' : 'refund-failed', 'system', { refundReference: completed.reference, code: completed.responseCode }, now);
      if (completed.state === 'succeeded') {
        const source = refundSources(await payments.listPayments(tx, order.id), await refunds.listRefunds(tx, order.id)).find((each) => each.payment.id === completed.paymentId);
        if (source && source.payment.statusId === 5 && isFullyRefunded(source)) {
          const moved = await this.lifecycle.move(tx, order, source.payment, { type: 'reversed', remarks: 'Refunded in full' });
          if (!moved.ok) throw new TransitionConflictError(moved.conflict);
          order = await this.orderOf(tx, order.id);
        }
      }
      await this.outbox.recordRefundEvent(tx, completed.state === 'succeeded' ? 'refund.succeeded' : 'refund.failed', order, completed);
    });
    return this.reread(refund);
  }

  handlers(): Pick<JobHandlers, 'refund.requery' | 'refund.send'> {
    return { 'refund.requery': ({ refundId }) => this.requery(refundId), 'refund.send': ({ refundId }) => this.send(refundId) };
  }

  /**
   * Voids an approved charge the customer must not pay (a subscription's charge approved after it was cancelled):
   * in the transaction that records the approval, a refund of all it took is held and its `refund.send` job written,
   * so the money goes back whichever process recorded the answer, and even if it stops now.
   */
  async holdForVoid(tx: Queryable, order: Order, payment: Payment, reason: string, now: Date): Promise<Refund> {
    const held = await refunds.insertRefund(
      tx,
      { reference: newRefundReference(), orderId: order.id, paymentId: payment.id, amountMinor: payment.totalMinor, currency: order.currency, reason, processor: payment.processor },
      now,
    );
    await orders.insertEvent(tx, order.id, 'refund-started', 'system', { refundReference: held.reference, paymentReference: payment.reference }, now);
    await enqueue(tx, { kind: 'refund.send', payload: { refundId: held.id } }, now, now);
    return held;
  }

  /**
   * Sends a refund the service made itself, and records the answer. The processor refunds a reference once, so an
   * answer that never came is asked for again by sending again, later, until one comes.
   */
  async send(refundId: number): Promise<JobResult> {
    const refund = await refunds.findRefundById(this.storage, refundId);
    if (!refund || refund.state !== 'processing') return done;
    const processor = this.registry.byName(refund.processor);
    const request = { reference: refund.reference, chargeReference: refund.paymentReference, amountMinor: refund.amountMinor, currency: refund.currency };
    const result: RefundResult = processor
      ? await withDeadline(() => processor.refund(request), this.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }))
      : { kind: 'unknown', detail: `processor ${refund.processor} is not registered` };
    const settled = await this.settle(refund, result);
    if (settled.refund.state !== 'processing') return done;
    return { outcome: 'again', at: new Date(this.clock.now().getTime() + PROCESSING_TIMEOUT_MS) };
  }

  /**
   * A refund still processing: a crash between the processor and the database, or an answer that never came. The
   * processor's record decides; a refund it never received fails (nothing went back, the merchant may refund
   * again); one it cannot tell about yet is asked about again later, for as long as it takes.
   */
  async requery(refundId: number): Promise<JobResult> {
    const refund = await refunds.findRefundById(this.storage, refundId);
    if (!refund || refund.state !== 'processing') return done;
    const processor = this.registry.byName(refund.processor);
    const result: RefundLookupResult = processor
      ? await withDeadline(() => processor.lookupRefund(refund.reference), this.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }))
      : { kind: 'unknown', detail: `processor ${refund.processor} is not registered` };
    if (result.kind !== 'pending' && result.kind !== 'unknown') {
      await this.settle(refund, result);
      return done;
    }
    // Pending or unknown: ask again, less often the longer it lasts (30 s to an hour).
    const age = this.clock.now().getTime() - refund.createdAt.getTime();
    return { outcome: 'again', at: new Date(this.clock.now().getTime() + Math.min(3_600_000, Math.max(30_000, age / 4))) };
  }

  private async orderOf(db: Queryable, orderId: number): Promise<Order> {
    const order = await orders.findOrderById(db, orderId);
    if (!order) throw new Error(`refunded order ${orderId} does not exist`);
    return order;
  }

  private async reread(refund: Refund): Promise<RefundOf> {
    const order = await this.orderOf(this.storage, refund.orderId);
    const all = await refunds.listRefunds(this.storage, order.id);
    return { order, payments: await payments.listPayments(this.storage, order.id), refunds: all, refund: all.find((each) => each.id === refund.id) ?? refund };
  }
}

/** Why a refund cannot be made: the order's state refuses it (CON409), with what is left to refund. */
function refusal(plan: Extract<RefundPlan, { ok: false }>, order: Order, largestMinor: number): AppError {
  const money = (minor: number) => `${order.currency} ${toMajorUnits(minor, order.currency)}`;
  switch (plan.reason) {
    case 'nothing-paid':
      return conflict(`The order ${order.reference} has not been paid: there is nothing to refund.`, 'order_not_paid');
    case 'nothing-left':
      return conflict(`Nothing is left to refund on the order ${order.reference}: all of the ${money(plan.paidMinor)} paid has been refunded or is being refunded.`, 'nothing_left_to_refund');
    case 'more-than-left':
      return conflict(`The amount field is more than is left to refund: ${money(plan.leftMinor)} of the ${money(plan.paidMinor)} paid.`, 'refund_exceeds_payment');
    case 'more-than-one-payment':
      return conflict(`The amount field is more than one payment of this order can refund: the order was paid in several payments, refund at most ${money(largestMinor)} at a time.`, 'refund_exceeds_single_payment');
  }
}
