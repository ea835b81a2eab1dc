import { toMajorUnits } from '../../shared/money.ts';
import type { Order, Payment } from '../domain/order.ts';
import { AUTHENTICATION_EXPIRY_MS, PROCESSING_TIMEOUT_MS } from '../domain/order-state.ts';
import { RESPONSE_MESSAGES } from '../processor/processor.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { Processors } from './payments.ts';
import type { Settlement, SettledOutcome } from './settlement.ts';

/** The response message of a 3-D Secure attempt the customer never finished in time (code 05). */
export const AUTHENTICATION_EXPIRED = 'Authentication expired';

/**
 * Attempts whose time runs out: a transfer account past its expiry (04), a 3-D Secure attempt the customer
 * abandoned (05), an attempt interrupted while processing (the processor's record, else 91). The scheduler sweeps
 * them all; a read of one order resolves that order's own, so no answer lags the sweep.
 */
export class DeadlineService {
  constructor(
    private readonly storage: Storage,
    private readonly processors: Processors,
    private readonly clock: Clock,
    private readonly settlement: Settlement,
  ) {}

  /** True when the attempt ended because the customer did not authenticate in time. */
  authenticationExpired(payment: Payment): boolean {
    return payment.statusId === 4 && payment.responseMessage === AUTHENTICATION_EXPIRED;
  }

  /**
   * Resolves this order's attempts whose time is up (transfer account expired, 3-D Secure abandoned, processing
   * interrupted), so a read never lags the timed work; true when something changed.
   */
  async resolveDue(order: Order): Promise<boolean> {
    const now = this.clock.now();
    let changed = false;
    for (const open of await payments.listOpenPayments(this.storage, order.id)) {
      if (open.stage === 'transfer' && open.transferExpiresAt && open.transferExpiresAt <= now) {
        changed = (await this.expire(order, open)) || changed;
      } else if (open.stage === 'authentication' && this.authenticationDue(open, now)) {
        changed = (await this.expireAuthentication(order, open)) || changed;
      } else if (open.stage === 'processing' && open.updatedAt.getTime() + PROCESSING_TIMEOUT_MS <= now.getTime()) {
        changed = (await this.resolveInterrupted(order, open)) || changed;
      }
    }
    return changed;
  }

  /** The timed work, every kind in turn; runs periodically and once at start, so it catches up after a restart. */
  async runTimedWork(): Promise<{ transfers: number; authentications: number; interrupted: number }> {
    return {
      transfers: await this.expireTransferAccounts(),
      authentications: await this.expireAbandonedAuthentications(),
      interrupted: await this.resolveInterruptedAttempts(),
    };
  }

  /** Every transfer account past its expiry, in batches. */
  async expireTransferAccounts(): Promise<number> {
    return this.sweep((limit) => payments.listDueAttempts(this.storage, 'transfer', this.clock.now(), limit), (order, payment) => this.expire(order, payment));
  }

  /** Every 3-D Secure attempt initiated more than AUTHENTICATION_EXPIRY_MS ago and still unanswered. */
  async expireAbandonedAuthentications(): Promise<number> {
    return this.sweep(
      (limit) => payments.listDueAttempts(this.storage, 'authentication', new Date(this.clock.now().getTime() - AUTHENTICATION_EXPIRY_MS), limit),
      (order, payment) => this.expireAuthentication(order, payment),
    );
  }

  /** Every attempt left in `processing` for longer than PROCESSING_TIMEOUT_MS. */
  async resolveInterruptedAttempts(): Promise<number> {
    return this.sweep(
      (limit) => payments.listDueAttempts(this.storage, 'processing', new Date(this.clock.now().getTime() - PROCESSING_TIMEOUT_MS), limit),
      (order, payment) => this.resolveInterrupted(order, payment),
    );
  }

  private async sweep(listDue: (limit: number) => Promise<Payment[]>, resolve: (order: Order, payment: Payment) => Promise<boolean>): Promise<number> {
    let resolved = 0;
    for (;;) {
      const due = await listDue(100);
      let progressed = false;
      for (const payment of due) {
        const order = await orders.findOrderById(this.storage, payment.orderId);
        if (order && (await resolve(order, payment))) {
          resolved += 1;
          progressed = true;
        }
      }
      // A batch in which nothing could be resolved would come back forever: stop and try again next time.
      if (due.length === 0 || !progressed) return resolved;
    }
  }

  private authenticationDue(payment: Payment, now: Date): boolean {
    return payment.createdAt.getTime() + AUTHENTICATION_EXPIRY_MS <= now.getTime();
  }

  /** A transfer account past its expiry: 04, with any money already received recorded for refund. */
  private async expire(order: Order, payment: Payment): Promise<boolean> {
    const refund = payment.receivedMinor > 0 ? `; ${toMajorUnits(payment.receivedMinor, order.currency)} ${order.currency} received is recorded for refund` : '';
    const message = RESPONSE_MESSAGES['04'];
    return this.endInTime(order, payment, 'transfer', { responseCode: '04', responseMessage: message, remarks: `${message}${refund}` }, 'transfer-account-expired');
  }

  /** A 3-D Secure attempt the customer never finished: declined 05, so the order may be paid again. */
  private async expireAuthentication(order: Order, payment: Payment): Promise<boolean> {
    const minutes = AUTHENTICATION_EXPIRY_MS / 60_000;
    const remarks = `Authentication expired: the customer did not authenticate within ${minutes} minutes`;
    return this.endInTime(order, payment, 'authentication', { responseCode: '05', responseMessage: AUTHENTICATION_EXPIRED, remarks }, 'authentication-expired');
  }

  /** Ends an attempt whose time ran out, if it is still in `stage`: the order may be paid again. */
  private async endInTime(
    order: Order,
    payment: Payment,
    stage: Payment['stage'],
    patch: { responseCode: string; responseMessage: string; remarks: string },
    eventName: 'transfer-account-expired' | 'authentication-expired',
  ): Promise<boolean> {
    const now = this.clock.now();
    return this.storage.transaction(async (tx) => {
      const expired = await payments.transitionPayment(tx, payment.id, 'expire', { stage: 'done', ...patch }, { stage, now });
      if (!expired) return false;
      await orders.transitionOrder(tx, order.id, 'attempt-failed', now);
      await orders.insertEvent(tx, order.id, eventName, 'system', { paymentReference: payment.reference }, now);
      return true;
    });
  }

  /**
   * An attempt interrupted between the processor and the database (a crash, a lost connection). The processor's
   * own record decides: approved or declined as it says; with no record (never reached it, or forgotten), the
   * attempt fails with 91 so the customer may try again.
   */
  private async resolveInterrupted(order: Order, payment: Payment): Promise<boolean> {
    let outcome: SettledOutcome | undefined;
    try {
      outcome = await this.processors[order.mode]?.findOutcome(payment.reference);
    } catch {
      outcome = undefined;
    }
    const remarks = outcome
      ? 'Interrupted while processing; completed from the processor\'s record'
      : 'Interrupted while processing and unknown to the processor; failed so the customer may try again';
    const settleAs = (verdict: SettledOutcome, note: string) =>
      this.storage.transaction((tx) => this.settlement.within(tx, order, payment, verdict, 'processing', { remarks: note }));
    try {
      return (await settleAs(outcome ?? { kind: 'declined', code: '91' }, remarks)) !== undefined;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      // Approved by the processor after another attempt paid the order: recorded as not taken, for refund.
      return (await settleAs({ kind: 'declined', code: '12' }, 'Approved by the processor after the order was paid by another attempt; recorded for refund')) !== undefined;
    }
  }
}
