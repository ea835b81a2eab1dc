import type { Order, Payment } from '../domain/order.ts';
import { RESPONSE_MESSAGES, type ChargeOutcome } from '../processor/processor.ts';
import * as linkRepository from '../repositories/links.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';

/** A processor's verdict on an attempt: approved or declined with its response code. */
export type SettledOutcome = Exclude<ChargeOutcome, { kind: 'authenticate' }>;

/**
 * The end of a payment attempt, whoever decides it (the processor's answer, the customer's bank on the 3-D
 * Secure page, money arriving on a transfer account, the timed work): the attempt, its order, the saved card, the
 * link's use count and the order's timeline change together, guarded by the stage the attempt must still be in.
 */
export class Settlement {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  /** Ends an attempt with the processor's verdict, guarded by the stage it must still be in. */
  async settle(order: Order, payment: Payment, outcome: SettledOutcome, stage: Payment['stage'], extra: payments.PaymentPatch = {}): Promise<Payment> {
    try {
      const settled = await this.storage.transaction((tx) => this.within(tx, order, payment, outcome, stage, extra));
      return settled ?? (await payments.findPaymentByReference(this.storage, payment.reference)) ?? payment;
    } catch (error) {
      // The unique index on successful payments refused a second success: the order was paid by another attempt.
      if ((error as { code?: string }).code !== '23505') throw error;
      return this.settle(order, payment, { kind: 'declined', code: '12' }, stage, { remarks: 'Order already paid by another attempt; nothing was charged' });
    }
  }

  /** The same inside a caller's transaction; undefined when the guard finds the payment already moved on. */
  async within(
    tx: Queryable,
    order: Order,
    payment: Payment,
    outcome: SettledOutcome,
    stage: Payment['stage'],
    extra: payments.PaymentPatch,
  ): Promise<Payment | undefined> {
    const now = this.clock.now();
    if (outcome.kind === 'approved') {
      const approved = await payments.transitionPayment(
        tx,
        payment.id,
        'approve',
        { stage: 'done', responseCode: '00', responseMessage: RESPONSE_MESSAGES['00'], remarks: 'Payment approved', confirmedAt: now, ...extra },
        { stage, now },
      );
      if (!approved) return undefined;
      await orders.transitionOrder(tx, order.id, 'paid', now);
      if (approved.saveCard && approved.cardFirst6 && approved.cardLast4 && approved.cardExpiry && outcome.cardToken) {
        await payments.saveCard(tx, order.customer.id, {
          token: outcome.cardToken,
          brand: approved.cardBrand ?? 'unknown',
          first6: approved.cardFirst6,
          last4: approved.cardLast4,
          expiry: approved.cardExpiry,
        }, now);
      }
      if (order.paymentLinkId !== null) await linkRepository.countLinkUse(tx, order.paymentLinkId);
      await orders.insertEvent(tx, order.id, 'payment-approved', 'system', { paymentReference: payment.reference }, now);
      return approved;
    }
    const message = RESPONSE_MESSAGES[outcome.code];
    const declined = await payments.transitionPayment(
      tx,
      payment.id,
      'decline',
      { stage: 'done', responseCode: outcome.code, responseMessage: message, remarks: `Payment declined: ${message}`, ...extra },
      { stage, now },
    );
    if (!declined) return undefined;
    await orders.transitionOrder(tx, order.id, 'attempt-failed', now);
    await orders.insertEvent(tx, order.id, 'payment-declined', 'system', { paymentReference: payment.reference, code: outcome.code }, now);
    return declined;
  }
}
