import { createHmac } from 'node:crypto';
import { checkExpiry, detectBrand, digitsOnly, firstSix, lastFour, MAX_EXPIRY_YEARS_AHEAD, normaliseExpiryYear } from '../../shared/card.ts';
import { toMajorUnits } from '../../shared/money.ts';
import type { PayOrderData, PayOrderPlain, PayOrderResponse } from '../../shared/payments.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { computeFee } from '../domain/fees.ts';
import type { Caller, Mode } from '../domain/merchant.ts';
import type { Order, Payment } from '../domain/order.ts';
import { MAX_AUTH_ATTEMPTS } from '../domain/order-state.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { RESPONSE_MESSAGES, type ChargeOutcome, type PaymentProcessor } from '../processor/processor.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { DeadlineService } from './deadlines.ts';
import { amountInMinorUnits } from './fees.ts';
import { presentOrderPayment } from './order-views.ts';
import { newPaymentReference } from './orders.ts';
import type { SettledOutcome, Settlement } from './settlement.ts';

export type PaymentSettings = { publicBaseUrl: string; transferExpiryMinutes: number; otpSecret: Buffer };

const BRAND_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', verve: 'Verve', amex: 'American Express', unknown: 'Card' };
const TRANSFER_AWAITED = 'Awaiting bank transfer: send the exact amount to the account shown before it expires.';

/** The processor per mode; a mode without one refuses payments (live, until an acquirer is connected). */
export type Processors = Partial<Record<Mode, PaymentProcessor>>;

export const LIVE_PAYMENTS_DISABLED = 'Live payments are not enabled for this merchant: no acquirer is connected.';

/**
 * Payment attempts on orders: card (with and without 3-D Secure, new or saved) and bank transfer; how each ends
 * is `Settlement`'s, and what happens when time runs out is `DeadlineService`'s. Each attempt moves through the order state machine in short transactions guarded
 * by the current state; the processor is asked between them, never inside one.
 */
export class PaymentService {
  constructor(
    private readonly storage: Storage,
    private readonly processors: Processors,
    private readonly clock: Clock,
    private readonly settings: PaymentSettings,
    private readonly settlement: Settlement,
    private readonly deadlines: DeadlineService,
  ) {}

  /** The mode's processor; refused before anything is stored when the mode has none. */
  private processorFor(mode: Mode): PaymentProcessor {
    const processor = this.processors[mode];
    if (!processor) throw forbidden(LIVE_PAYMENTS_DISABLED);
    return processor;
  }

  async pay(caller: Caller, plain: PayOrderPlain): Promise<PayOrderResponse> {
    const processor = this.processorFor(caller.mode);
    const order = await orders.findOrder(this.storage, caller.merchant.id, caller.mode, plain.reference);
    if (!order) throw notFound(`No order with reference ${plain.reference} exists for this merchant.`);
    const option = plain.paymentoption;
    let savedCard: payments.SavedCardRow | undefined;
    if (option === 'C') {
      if (plain.cardToken) {
        savedCard = await payments.findSavedCard(this.storage, order.customer.id, plain.cardToken);
        if (!savedCard) throw notFound('No saved card with this token exists for this customer.');
        if (!plain.card?.cvv) throw invalid('The card.cvv field is required.');
      } else if (!plain.card) {
        throw invalid('The card field is required.');
      } else {
        for (const field of ['cardnumber', 'expirymonth', 'expiryyear'] as const) {
          if (plain.card[field] === undefined) throw invalid(`The card.${field} field is required.`);
        }
        if (checkExpiry(plain.card.expirymonth!, plain.card.expiryyear!, this.clock.now()) === 'too-far') {
          throw invalid(`The card.expiryyear field must be at most ${MAX_EXPIRY_YEARS_AHEAD} years ahead.`);
        }
      }
    } else if (order.currency !== 'NGN') {
      throw invalid('The paymentoption field bank-transfer is available for NGN orders only.');
    }

    const card = plain.card;
    const number = card?.cardnumber && !savedCard ? digitsOnly(card.cardnumber) : undefined;
    const brand = savedCard?.brand ?? (number ? detectBrand(number) : undefined);
    const fee = computeFee(order.feeRules, option, order.currency, order.amountMinor);
    const now = this.clock.now();
    const reference = newPaymentReference();
    const payment = await this.storage.transaction(async (tx) => {
      await this.closeOpenAttempts(tx, order, now);
      const inserted = await payments.insertPayment(tx, {
        orderId: order.id,
        reference,
        option,
        amountMinor: order.amountMinor,
        feeMinor: fee.feeMinor,
        customerFeeMinor: fee.customerFeeMinor,
        subsidiaryFeeMinor: fee.subsidiaryFeeMinor,
        totalMinor: fee.totalMinor,
        feeRate: fee.rate,
        instrument: option === 'C' ? `${BRAND_NAMES[brand ?? 'unknown']} ****${savedCard?.last4 ?? lastFour(number ?? '')}` : 'Bank transfer',
        cardBrand: option === 'C' ? (brand ?? 'unknown') : null,
        cardFirst6: savedCard?.first6 ?? (number ? firstSix(number) : null),
        cardLast4: savedCard?.last4 ?? (number ? lastFour(number) : null),
        cardExpiry: savedCard?.expiry ?? (card?.expirymonth && card.expiryyear !== undefined ? `${String(card.expirymonth).padStart(2, '0')}/${String(normaliseExpiryYear(card.expiryyear)).slice(-2)}` : null),
        saveCard: Boolean(card?.save) && !savedCard,
        remarks: 'Order payment initiated',
        now,
      });
      await orders.transitionOrder(tx, order.id, 'attempt-started', now);
      await orders.insertEvent(tx, order.id, 'payment-started', 'system', { paymentReference: reference, option }, now);
      return inserted;
    });

    const charge = { amountMinor: fee.totalMinor, currency: order.currency, reference, authenticationRequired: order.authOption === 'AUTH' };
    if (option === 'bank-transfer') return this.respond(order, await this.openTransfer(processor, order, payment), caller.merchant.name);

    let outcome: ChargeOutcome;
    try {
      outcome = savedCard
        ? await processor.chargeSavedCard(savedCard.token, card!.cvv, charge)
        : await processor.chargeCard(
            { number: number!, expiryMonth: card!.expirymonth!, expiryYear: card!.expiryyear!, cvv: card!.cvv, pin: card!.pin },
            charge,
          );
    } catch {
      outcome = { kind: 'declined', code: '91' };
    }
    if (outcome.kind === 'authenticate') {
      const waiting = await this.storage.transaction(async (tx) => {
        const at = this.clock.now();
        const updated = await payments.transitionPayment(
          tx,
          payment.id,
          'await-authentication',
          { stage: 'authentication', authSession: outcome.session, responseCode: '02', responseMessage: RESPONSE_MESSAGES['02'] },
          { stage: 'processing', now: at },
        );
        if (!updated) return undefined;
        await orders.transitionOrder(tx, order.id, 'attempt-pending', at);
        await orders.insertEvent(tx, order.id, 'authentication-required', 'system', { paymentReference: reference }, at);
        return updated;
      });
      return this.respond(order, waiting ?? (await payments.findPaymentByReference(this.storage, reference)) ?? payment, caller.merchant.name);
    }
    return this.respond(order, await this.settlement.settle(order, payment, outcome, 'processing'), caller.merchant.name);
  }

  /**
   * One attempt at a time: a paid order refuses, an attempt being processed refuses, and attempts left waiting
   * (abandoned 3-D Secure, an unused transfer account) are closed so only the new one can succeed.
   */
  private async closeOpenAttempts(tx: Queryable, order: Order, now: Date): Promise<void> {
    const status = await orders.lockOrder(tx, order.id);
    if (status === 5) throw conflict('This order has already been paid.');
    if (status === 6) throw conflict('This order has been reversed and cannot be paid.');
    for (const open of await payments.listOpenPayments(tx, order.id)) {
      if (open.stage === 'processing') throw conflict('A payment for this order is already being processed.');
      if (open.stage === 'transfer' && open.receivedMinor > 0) {
        throw conflict('A bank transfer for this order has already received part of the money; send the rest to the same account.');
      }
      const message = 'Superseded by a new payment attempt';
      await payments.transitionPayment(tx, open.id, 'supersede', { stage: 'done', responseCode: '12', responseMessage: message, remarks: message }, { now });
    }
  }

  private async openTransfer(processor: PaymentProcessor, order: Order, payment: Payment): Promise<Payment> {
    const charge = { amountMinor: payment.totalMinor, currency: order.currency, reference: payment.reference, authenticationRequired: false };
    // A fresh account number may, rarely, collide with an earlier one: ask again.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const account = await processor.openTransferAccount(charge);
        const now = this.clock.now();
        const updated = await this.storage.transaction(async (tx) => {
          const waiting = await payments.transitionPayment(
            tx,
            payment.id,
            'await-transfer',
            {
              stage: 'transfer',
              transferAccount: account.accountNumber,
              transferBank: account.bankName,
              transferExpiresAt: new Date(now.getTime() + this.settings.transferExpiryMinutes * 60_000),
              responseCode: '02',
              responseMessage: 'Awaiting transfer',
            },
            { stage: 'processing', now },
          );
          if (!waiting) return undefined;
          await orders.transitionOrder(tx, order.id, 'attempt-pending', now);
          await orders.insertEvent(tx, order.id, 'transfer-account-issued', 'system', { paymentReference: payment.reference }, now);
          return waiting;
        });
        return updated ?? (await payments.findPaymentByReference(this.storage, payment.reference)) ?? payment;
      } catch (error) {
        if (attempt >= 2 || (error as { code?: string }).code !== '23505') {
          return this.settlement.settle(order, payment, { kind: 'declined', code: '91' }, 'processing');
        }
      }
    }
  }

  /** The envelope of a pay answer: 00 approved, 02 pending, or the decline code with status failed. */
  respond(order: Order, payment: Payment, merchantName: string): PayOrderResponse {
    const major = (minor: number) => toMajorUnits(minor, order.currency);
    const data: PayOrderData = {
      paymentDetail: {
        redirectUrl: payment.stage === 'authentication' ? this.authenticationUrl(payment.reference) : null,
        recipientAccount: payment.transferAccount,
        paymentReference: payment.reference,
      },
      bankTransferDetails:
        payment.option === 'bank-transfer' && payment.transferAccount && payment.transferExpiresAt
          ? {
              bankAccount: payment.transferAccount,
              accountName: merchantName,
              bankName: payment.transferBank ?? '',
              amount: major(payment.totalMinor),
              amountPaid: major(payment.receivedMinor),
              amountDue: major(Math.max(0, payment.totalMinor - payment.receivedMinor)),
              expiresAt: formatTimestamp(payment.transferExpiresAt),
            }
          : null,
      orderPayment: presentOrderPayment(order, payment),
    };
    if (payment.statusId === 5) return { status: 'success', statusCode: '00', message: 'Payment successful', data };
    if (payment.stage === 'authentication') return { status: 'success', statusCode: '02', message: RESPONSE_MESSAGES['02'], data };
    if (payment.stage === 'transfer') return { status: 'success', statusCode: '02', message: TRANSFER_AWAITED, data };
    return { status: 'failed', statusCode: payment.responseCode, message: payment.responseMessage, data };
  }

  authenticationUrl(paymentReference: string): string {
    return `${this.settings.publicBaseUrl}/checkout/3ds/${paymentReference}`;
  }

  /** The sandbox issuer's one-time code for a payment: derived, so nothing secret is stored. */
  oneTimeCode(paymentReference: string): string {
    const digest = createHmac('sha256', this.settings.otpSecret).update(paymentReference).digest();
    return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
  }

  /** A card payment of a mode with a processor, with its order; undefined otherwise. */
  async findForAuthentication(paymentReference: string): Promise<{ payment: Payment; order: Order } | undefined> {
    const payment = await payments.findPaymentByReference(this.storage, paymentReference);
    if (!payment || payment.option !== 'C') return undefined;
    const order = await orders.findOrderById(this.storage, payment.orderId);
    if (!order || !this.processors[order.mode]) return undefined;
    if (await this.deadlines.resolveDue(order)) {
      return { payment: (await payments.findPaymentByReference(this.storage, paymentReference)) ?? payment, order };
    }
    return { payment, order };
  }

  /**
   * The customer's answer on the hosted authentication page. Each wrong code is counted atomically; the one that
   * uses up the last try, or "fail", declines the payment, and exactly one request takes the answer, so no
   * concurrency lets more tries through. Replays of a finished authentication change nothing and say so
   * (`already-finished`): only the request that finished it is `finished`.
   */
  async authenticate(
    paymentReference: string,
    answer: { action: 'approve' | 'fail'; code: string },
  ): Promise<
    | { kind: 'finished'; payment: Payment; order: Order }
    | { kind: 'already-finished'; payment: Payment; order: Order }
    | { kind: 'retry'; attemptsLeft: number; payment: Payment; order: Order }
  > {
    const found = await this.findForAuthentication(paymentReference);
    if (!found) throw notFound('No payment awaits authentication under this reference.');
    const { payment, order } = found;
    // Another request (or an earlier one this answer replays) settled it, or its deadline passed.
    const finished = async () => ({ kind: 'already-finished' as const, payment: (await payments.findPaymentByReference(this.storage, paymentReference)) ?? payment, order });
    if (payment.stage !== 'authentication' || !payment.authSession) return finished();
    const session = payment.authSession;

    let passed = answer.action === 'approve';
    let taken: Payment | undefined;
    if (passed && answer.code.trim() !== this.oneTimeCode(paymentReference)) {
      const counted = await payments.recordWrongCode(this.storage, payment.id, MAX_AUTH_ATTEMPTS, this.clock.now());
      if (!counted) return finished();
      if (counted.stage === 'authentication') {
        return { kind: 'retry', attemptsLeft: MAX_AUTH_ATTEMPTS - counted.authAttempts, payment: counted, order };
      }
      passed = false;
      taken = counted;
    } else {
      taken = await payments.takeAuthenticationAnswer(this.storage, payment.id, MAX_AUTH_ATTEMPTS, this.clock.now());
      if (!taken) return finished();
    }

    let outcome: SettledOutcome;
    try {
      outcome = await this.processorFor(order.mode).completeAuthentication(session, passed);
    } catch {
      outcome = { kind: 'declined', code: '91' };
    }
    await orders.insertEvent(this.storage, order.id, 'authentication-finished', 'system', { paymentReference, passed }, this.clock.now());
    const settled = await this.settlement.settle(order, taken, outcome, 'processing');
    return { kind: 'finished', payment: settled, order };
  }

  /** Where the customer goes after authenticating: the order's RedirectUrl (or the link's website), else the hosted result page. */
  returnUrl(order: Order, payment: Payment): string {
    const target = new URL(order.redirectUrl ?? `${this.settings.publicBaseUrl}/checkout/result`);
    target.searchParams.set('reference', order.reference);
    target.searchParams.set('status', payment.statusId === 5 ? 'successful' : payment.statusId === 2 ? 'pending' : 'failed');
    return target.toString();
  }

  /**
   * Sandbox: money arrives on a transfer account. Short leaves the payment pending with the rest due; exact or
   * more completes it (the excess is recorded). Recording and deciding happen in one transaction under the
   * order's lock, so two arrivals at once are both counted.
   */
  async receiveTransfer(caller: Caller, accountNumber: string, amount: number) {
    const found = await payments.findPaymentByAccount(this.storage, accountNumber);
    const order = found && (await orders.findOrderById(this.storage, found.orderId));
    if (!found || !order || order.merchantId !== caller.merchant.id || order.mode !== caller.mode) {
      throw notFound(`No transfer account ${accountNumber} exists for this merchant.`);
    }
    const amountMinor = amountInMinorUnits(amount, order.currency, 'amount');
    await this.deadlines.resolveDue(order);
    const now = this.clock.now();
    const payment = await this.storage.transaction(async (tx) => {
      await orders.lockOrder(tx, order.id);
      const current = await payments.findPaymentByReference(tx, found.reference);
      if (!current || current.stage !== 'transfer' || current.statusId !== 2) {
        throw conflict(current?.responseCode === '04' ? 'This account number has expired.' : 'This account is no longer open for this payment.');
      }
      const received = current.receivedMinor + amountMinor;
      if (received < current.totalMinor) {
        const due = toMajorUnits(current.totalMinor - received, order.currency);
        return payments.transitionPayment(
          tx,
          current.id,
          'await-transfer',
          { receivedMinor: received, remarks: `Partial transfer received; ${due} ${order.currency} still due` },
          { stage: 'transfer', now },
        );
      }
      const excess = received - current.totalMinor;
      return this.settlement.within(tx, order, current, { kind: 'approved', cardToken: '' }, 'transfer', {
        receivedMinor: received,
        excessMinor: excess,
        remarks: excess > 0 ? `Transfer received with an excess of ${toMajorUnits(excess, order.currency)} ${order.currency}, recorded for refund` : 'Transfer received',
      });
    });
    if (!payment) throw conflict('This account is no longer open for this payment.');
    return this.presentTransfer(order, payment);
  }

  private presentTransfer(order: Order, payment: Payment) {
    const major = (minor: number) => toMajorUnits(minor, order.currency);
    const due = Math.max(0, payment.totalMinor - payment.receivedMinor);
    return {
      accountNumber: payment.transferAccount ?? '',
      paymentReference: payment.reference,
      orderReference: order.reference,
      amountExpected: major(payment.totalMinor),
      amountReceived: major(payment.receivedMinor),
      amountDue: payment.statusId === 5 ? 0 : major(due),
      excessAmount: major(payment.excessMinor),
      paymentStatusId: payment.statusId,
      message:
        payment.statusId === 5
          ? payment.excessMinor > 0
            ? `Payment complete. ${major(payment.excessMinor)} ${order.currency} more than due was received and is recorded for refund.`
            : 'Payment complete.'
          : `Partial payment received. ${major(due)} ${order.currency} is still due.`,
    };
  }
}
