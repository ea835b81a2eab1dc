import { AppError } from '../errors.ts';
import type { DomainEventType } from '../domain/events.ts';
import {
  authenticationDeadline,
  type StatusId,
  PROCESSING_TIMEOUT_MS,
  planOrder,
  planPayment,
  type OrderEventType,
  type PaymentEvent,
  type TransitionConflict,
} from '../domain/lifecycle.ts';
import type { Order, Payment } from '../domain/order.ts';
import type { ChargeResult } from '../processor/port.ts';
import { jobKey } from '../jobs/kinds.ts';
import { enqueue, jobContext, jobRow } from '../jobs/queue.ts';
import * as linkRepository from '../repositories/links.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { NewJob } from '../repositories/jobs.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { Outbox } from './outbox.ts';

/** A move's outcome; `order` is the order as it now is, and `orderWritten` says this move changed its row. */
export type Moved = { ok: true; payment: Payment; order: Order; orderWritten: boolean } | { ok: false; conflict: TransitionConflict };

/**
 * Reacts to an attempt's end inside its transaction (subscriptions start and advance here), before the merchant's
 * event is written; returns the order as it now is when it changed it.
 */
export type SettlementListener = (
  tx: Queryable,
  order: Order,
  payment: Payment,
  event: Extract<PaymentEvent, { type: 'approved' | 'declined' }> & { cardToken?: string | null },
) => Promise<Order | undefined>;

/**
 * A refused transition where the caller holds no answer for it: the transaction must not commit, and a request
 * that meets it is answered `CON409` with reason `state_changed` (the row moved on between reading and writing).
 * What was refused stays on the error for the logs, never in the answer.
 */
export class TransitionConflictError extends AppError {
  constructor(readonly conflict: TransitionConflict) {
    super('CON409', 'This changed meanwhile; read it again and retry.', { reason: 'state_changed' });
    this.name = 'TransitionConflictError';
  }
}

/** The order's consequence of a payment event, its timeline entry and the merchant's event, in one place. */
const CONSEQUENCES: { [K in PaymentEvent['type']]: { order?: OrderEventType; timeline: string; domain?: (event: Extract<PaymentEvent, { type: K }>) => DomainEventType } } = {
  'authentication-required': { timeline: 'authentication-required' },
  'authentication-answered': { timeline: 'authentication-finished' },
  'transfer-opened': { timeline: 'transfer-account-issued' },
  'transfer-part-received': { timeline: 'transfer-part-received', domain: () => 'transfer.partially_paid' },
  approved: { order: 'paid', timeline: 'payment-approved', domain: () => 'order.successful' },
  declined: { order: 'attempt-failed', timeline: 'payment-declined', domain: () => 'payment.failed' },
  expired: {
    order: 'attempt-failed',
    timeline: 'attempt-expired',
    domain: (event) => (event.reason === 'account-expired' ? 'transfer.expired' : 'payment.failed'),
  },
  superseded: { timeline: 'attempt-superseded' },
  reversed: { order: 'reversed', timeline: 'payment-reversed', domain: () => 'payment.reversed' },
};

/**
 * The only way an order payment or an order changes state. `move` plans the event on the lifecycle table, applies it
 * guarded by the state the row was read in, and in the same transaction makes its consequences: the order's
 * transition, the timeline entry, the merchant's domain event, the jobs that end the new state in time, the saved
 * card and the link's use count. A refused event is a typed conflict the caller handles.
 */
export class PaymentLifecycle {
  private readonly listeners: SettlementListener[] = [];

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /** Called in the transaction of every approval and decline. */
  onSettled(listener: SettlementListener): void {
    this.listeners.push(listener);
  }

  async move(tx: Queryable, order: Order, payment: Payment, event: PaymentEvent & { cardToken?: string | null }): Promise<Moved> {
    const now = this.clock.now();
    const plan = planPayment({ status: payment.statusId, stage: payment.stage }, event, now);
    if (!plan.ok) return plan;
    const consequence = CONSEQUENCES[event.type] as { order?: OrderEventType; timeline: string; domain?: (event: PaymentEvent) => DomainEventType };
    // An approval that came after another attempt paid the order changes nothing on the order: it is for refund.
    const orderEvent = event.type === 'declined' && event.reason === 'already-paid' ? undefined : consequence.order;
    const detail: Record<string, unknown> = { paymentReference: payment.reference };
    if (event.type === 'declined') detail.code = event.code;
    if (event.type === 'expired' || event.type === 'declined') detail.reason = event.reason;
    // The order's transition is planned from the status the caller read, and made with the attempt's move and its
    // timeline entry in one statement, guarded by that status; an order that moved on meanwhile is moved under its lock.
    const expected = orderEvent === undefined ? undefined : planOrder(order.statusId, orderEvent);
    const domainEvent = consequence.domain?.(event);
    const applied = await payments.applyPaymentPlan(tx, payment.id, plan, now, {
      orderId: order.id,
      timeline: { name: consequence.timeline, detail },
      order: expected?.ok ? expected : undefined,
      // An attempt that ended leaves nothing for its re-query job to ask: the job goes with the move.
      requeryKey: plan.to.status === 2 ? null : jobKey({ kind: 'payment.requery', payload: { paymentId: payment.id } }),
      job: this.jobOfState(payment, event, now),
      // The merchant's event shows the order's attempts as this move leaves them: read in the same statement.
      withOrderPayments: domainEvent !== undefined,
    });
    if (!applied) return { ok: false, conflict: { entity: 'payment', event: event.type, from: undefined } };
    const moved = applied.payment;

    let current = order;
    if (expected?.ok && applied.orderMoved) current = { ...order, statusId: expected.to, updatedAt: now };
    else if (orderEvent) current = await this.moveOrderLocked(tx, order, orderEvent, now);

    if (event.type === 'approved') {
      if (moved.saveCard && order.shopperId !== null && moved.cardFirst6 && moved.cardLast4 && moved.cardExpiry && event.cardToken) {
        const card = { token: event.cardToken, brand: moved.cardBrand ?? 'unknown', first6: moved.cardFirst6, last4: moved.cardLast4, expiry: moved.cardExpiry };
        await payments.saveCard(tx, order.shopperId, card, now);
      }
      // A link counts its payers: a subscription's later charges are not new ones.
      if (order.paymentLinkId !== null && order.recurringPeriod === null) await linkRepository.countLinkUse(tx, order.paymentLinkId);
    }
    if (event.type === 'approved' || event.type === 'declined') {
      for (const listener of this.listeners) current = (await listener(tx, current, moved, event)) ?? current;
    }
    if (domainEvent) {
      await this.outbox.recordOrderEvent(tx, domainEvent, current, { payments: applied.orderPayments, refunds: applied.hasRefunds ? undefined : [] });
    }
    // The order changed (its transition, a subscription started) exactly when a new one was made of it.
    return { ok: true, payment: moved, order: current, orderWritten: current !== order };
  }

  /**
   * The job that ends the state an event moves an attempt into, in time: an abandoned 3-D Secure page, an unused
   * transfer account, and an authenticated attempt back in `processing` (its first re-query job may have run while
   * the customer was authenticating: a process dying before the processor's verdict is recorded must leave one).
   */
  private jobOfState(payment: Payment, event: PaymentEvent, now: Date): NewJob | undefined {
    if (event.type === 'authentication-required') {
      return jobRow({ kind: 'payment.expire-authentication', payload: { paymentId: payment.id } }, authenticationDeadline(payment), now);
    }
    if (event.type === 'transfer-opened') return jobRow({ kind: 'payment.expire-transfer', payload: { paymentId: payment.id } }, event.expiresAt, now);
    if (event.type === 'authentication-answered') {
      return jobRow({ kind: 'payment.requery', payload: { paymentId: payment.id } }, new Date(now.getTime() + PROCESSING_TIMEOUT_MS), now);
    }
    return undefined;
  }

  /**
   * Starts an attempt on an order whose row lock this transaction holds (`status` is what the lock read), with its
   * consequences in the same statement: the order's transition, the timeline entry and the `payment.requery` job
   * that looks at it again in time, whatever happens to this process or the processor's answer. Undefined, with
   * nothing written, while another attempt of the order is open.
   */
  async startAttempt(tx: Queryable, order: Order, status: StatusId, attempt: payments.NewPayment & { id: number }): Promise<{ order: Order; payment: Payment } | undefined> {
    const now = attempt.now;
    const plan = planOrder(status, 'attempt-started');
    if (!plan.ok) throw new TransitionConflictError(plan.conflict);
    const started = await payments.insertAttempt(tx, attempt, {
      order: plan,
      timeline: { name: 'payment-started', detail: { paymentReference: attempt.reference, option: attempt.option } },
      job: jobRow({ kind: 'payment.requery', payload: { paymentId: attempt.id } }, new Date(now.getTime() + PROCESSING_TIMEOUT_MS), now),
    });
    if (!started) return undefined;
    if (!started.orderMoved) throw new TransitionConflictError({ entity: 'order', event: 'attempt-started', from: undefined });
    return { order: { ...order, statusId: plan.to, updatedAt: now }, payment: started.payment };
  }

  /**
   * Starts an attempt on an order read with no attempt open (Initiated or Failed), with the same consequences as
   * `startAttempt`, in one statement and no transaction. Undefined, with nothing written, when the order moved on
   * since it was read or has an attempt open: the caller then starts it under the order's lock.
   */
  async startOnIdleOrder(order: Order, attempt: payments.NewPayment): Promise<{ order: Order; payment: Payment } | undefined> {
    if (order.statusId === 2) return undefined;
    const plan = planOrder(order.statusId, 'attempt-started');
    if (!plan.ok) return undefined;
    const now = attempt.now;
    const payment = await payments.insertAttemptOnIdleOrder(this.storage, attempt, {
      order: plan,
      timeline: { name: 'payment-started', detail: { paymentReference: attempt.reference, option: attempt.option } },
      job: { kind: 'payment.requery', context: jobContext(), runAt: new Date(now.getTime() + PROCESSING_TIMEOUT_MS) },
    });
    return payment && { order: { ...order, statusId: plan.to, updatedAt: now }, payment };
  }

  /**
   * Moves an order. Its status follows from its attempts (only one attempt is open at a time, under the order's row
   * lock), so a refusal here means the stored state broke that rule: the transaction is rolled back.
   */
  async moveOrder(tx: Queryable, order: Order, event: OrderEventType, now = this.clock.now()): Promise<Order> {
    // The status the caller read is almost always the stored one: its guarded update locks the row and moves it in one
    // statement. Only when the order moved on meanwhile is its status read under the lock and planned again.
    const expected = planOrder(order.statusId, event);
    if (expected.ok && (await orders.applyOrderPlan(tx, order.id, expected, now))) return { ...order, statusId: expected.to, updatedAt: now };
    return this.moveOrderLocked(tx, order, event, now);
  }

  private async moveOrderLocked(tx: Queryable, order: Order, event: OrderEventType, now: Date): Promise<Order> {
    const status = await orders.lockOrder(tx, order.id);
    if (status === undefined) throw new TransitionConflictError({ entity: 'order', event, from: undefined });
    const plan = planOrder(status, event);
    if (!plan.ok) throw new TransitionConflictError(plan.conflict);
    if (!(await orders.applyOrderPlan(tx, order.id, plan, now))) throw new TransitionConflictError({ entity: 'order', event, from: undefined });
    return { ...order, statusId: plan.to, updatedAt: now };
  }

  /**
   * Ends an attempt (or sends it to the customer's action) with the processor's answer, in a transaction of its own.
   * An unknown answer changes nothing: the attempt stays processing and its `payment.requery` job asks again.
   */
  async settle(order: Order, payment: Payment, result: ChargeResult): Promise<{ order: Order; payment: Payment }> {
    if (result.kind === 'unknown') {
      const now = this.clock.now();
      await this.storage.transaction(async (tx) => {
        await orders.insertEvent(tx, order.id, 'processor-answer-unknown', 'system', { paymentReference: payment.reference }, now);
        await enqueue(tx, { kind: 'payment.requery', payload: { paymentId: payment.id } }, new Date(now.getTime() + PROCESSING_TIMEOUT_MS), now);
      });
      return this.reread(order, payment);
    }
    const event: PaymentEvent & { cardToken?: string | null } =
      result.kind === 'approved'
        ? { type: 'approved', rawCode: result.rawCode, cardToken: result.cardToken }
        : result.kind === 'declined'
          ? { type: 'declined', code: result.code, rawCode: result.rawCode, reason: result.authenticationFailed ? 'authentication-failed' : 'declined' }
          : { type: 'authentication-required', action: result.action.url };
    let moved: Moved;
    try {
      moved = await this.moveNow(order, payment, event);
    } catch (error) {
      // The unique index on successful payments refused a second success: another attempt paid the order.
      if ((error as { code?: string }).code !== '23505') throw error;
      const rawCode = result.kind === 'approved' ? result.rawCode : 'n/a';
      moved = await this.moveNow(order, payment, { type: 'declined', code: '12', rawCode, reason: 'already-paid', remarks: 'Approved after the order was paid by another attempt; recorded for refund' });
    }
    if (!moved.ok) return this.reread(order, payment);
    // What the move committed is what is stored: the attempt as its update returned it, and the order as the move
    // wrote it under its lock; an order the move did not write is read again.
    if (moved.orderWritten) return { order: moved.order, payment: moved.payment };
    return { order: (await orders.findOrderById(this.storage, order.id)) ?? order, payment: moved.payment };
  }

  private async reread(order: Order, payment: Payment): Promise<{ order: Order; payment: Payment }> {
    const [freshOrder, freshPayment] = await Promise.all([orders.findOrderById(this.storage, order.id), payments.findPaymentById(this.storage, payment.id)]);
    return { order: freshOrder ?? order, payment: freshPayment ?? payment };
  }

  /** `move` in a transaction of its own. */
  moveNow(order: Order, payment: Payment, event: PaymentEvent & { cardToken?: string | null }): Promise<Moved> {
    return this.storage.transaction((tx) => this.move(tx, order, payment, event));
  }
}
