import { toMajorUnits } from '../../shared/money.ts';
import { AUTHENTICATION_EXPIRY_MS, authenticationDeadline, RESPONSE_MESSAGES } from '../domain/lifecycle.ts';
import type { Order, Payment } from '../domain/order.ts';
import { done, type JobHandlers, type JobResult } from '../jobs/kinds.ts';
import { withDeadline, type ProcessorRegistry } from '../processor/registry.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { PaymentLifecycle } from './lifecycle.ts';

/**
 * The durable jobs that end attempts in time: a transfer account past its expiry (04), a 3-D Secure attempt the
 * customer abandoned (05), and an attempt still processing (the processor's record decides; an answer the
 * processor cannot give yet is asked for again, never taken for a decline). Each job was written with the state it
 * ends; by the time it runs the attempt may have moved on, and then it does nothing.
 */
export class PaymentDeadlines {
  constructor(
    private readonly storage: Storage,
    private readonly registry: ProcessorRegistry,
    private readonly clock: Clock,
    private readonly lifecycle: PaymentLifecycle,
    private readonly processorTimeoutMs: number,
  ) {}

  handlers(): Pick<JobHandlers, 'payment.expire-transfer' | 'payment.expire-authentication' | 'payment.requery'> {
    return {
      'payment.expire-transfer': ({ paymentId }) => this.expireTransfer(paymentId),
      'payment.expire-authentication': ({ paymentId }) => this.expireAuthentication(paymentId),
      'payment.requery': ({ paymentId }) => this.requery(paymentId),
    };
  }

  private async load(paymentId: number): Promise<{ order: Order; payment: Payment } | undefined> {
    const payment = await payments.findPaymentById(this.storage, paymentId);
    const order = payment && (await orders.findOrderById(this.storage, payment.orderId));
    return payment && order ? { payment, order } : undefined;
  }

  /** A transfer account past its expiry: 04, with any money already received recorded for refund. */
  async expireTransfer(paymentId: number): Promise<JobResult> {
    const found = await this.load(paymentId);
    if (!found || found.payment.stage !== 'transfer' || !found.payment.transferExpiresAt) return done;
    const { order, payment } = found;
    if (payment.transferExpiresAt! > this.clock.now()) return { outcome: 'again', at: payment.transferExpiresAt! };
    const received = payment.receivedMinor > 0 ? `; ${toMajorUnits(payment.receivedMinor, order.currency)} ${order.currency} received is recorded for refund` : '';
    await this.lifecycle.moveNow(order, payment, { type: 'expired', reason: 'account-expired', remarks: `${RESPONSE_MESSAGES['04']}${received}` });
    return done;
  }

  /** A 3-D Secure attempt the customer never finished: 05, so the order may be paid again. */
  async expireAuthentication(paymentId: number): Promise<JobResult> {
    const found = await this.load(paymentId);
    if (!found || found.payment.stage !== 'authentication') return done;
    const dueAt = authenticationDeadline(found.payment);
    if (dueAt > this.clock.now()) return { outcome: 'again', at: dueAt };
    const remarks = `Authentication expired: the customer did not authenticate within ${AUTHENTICATION_EXPIRY_MS / 60_000} minutes`;
    await this.lifecycle.moveNow(found.order, found.payment, { type: 'expired', reason: 'authentication-expired', remarks });
    return done;
  }

  /**
   * An attempt still processing: a crash between the processor and the database, or an answer that never came. The
   * processor's record decides; a charge it never received fails with 91 so the customer may pay again; one it
   * cannot tell about yet is asked about again later, for as long as it takes.
   */
  async requery(paymentId: number): Promise<JobResult> {
    const found = await this.load(paymentId);
    if (!found || found.payment.stage !== 'processing') return done;
    const { order, payment } = found;
    const processor = this.registry.byName(payment.processor);
    const result = processor
      ? await withDeadline(() => processor.lookup(payment.reference), this.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }))
      : ({ kind: 'unknown', detail: `processor ${payment.processor} is not registered` } as const);
    if (result.kind === 'approved' || result.kind === 'declined') {
      await this.lifecycle.settle(order, payment, result);
      return done;
    }
    if (result.kind === 'not-found') {
      await this.lifecycle.moveNow(order, payment, {
        type: 'declined',
        code: '91',
        rawCode: 'not-found',
        reason: 'interrupted',
        remarks: 'Interrupted while processing and unknown to the processor; failed so the customer may try again',
      });
      return done;
    }
    // Pending or unknown: ask again, less often the longer it lasts (30 s to an hour).
    const age = this.clock.now().getTime() - payment.createdAt.getTime();
    return { outcome: 'again', at: new Date(this.clock.now().getTime() + Math.min(3_600_000, Math.max(30_000, age / 4))) };
  }
}
