import { checkExpiry, detectBrand, digitsOnly, firstSix, lastFour, MAX_EXPIRY_YEARS_AHEAD, normaliseExpiryYear } from '../../shared/card.ts';
import { toMajorUnits } from '../../shared/money.ts';
import type { PayOrderPlain } from '../../shared/payments.ts';
import { computeFee } from '../domain/fees.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Order, Payment } from '../domain/order.ts';
import { linkCapacity } from '../domain/links.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import type { ChargeRequest, Instrument, PaymentProcessor } from '../processor/port.ts';
import { withDeadline, type ProcessorRegistry } from '../processor/registry.ts';
import * as linkRepository from '../repositories/links.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { amountInMinorUnits } from './fees.ts';
import { TransitionConflictError, type PaymentLifecycle } from './lifecycle.ts';
import { newPaymentReference, type OrderService } from './orders.ts';

export type PaymentSettings = { publicBaseUrl: string; transferExpiryMinutes: number; processorTimeoutMs: number };

const BRAND_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', verve: 'Verve', amex: 'American Express', unknown: 'Card' };

/** A payment attempt with its order, as services hand them to the presenters. */
export type PaymentOf = { order: Order; payment: Payment };

/**
 * Payment attempts on orders: card (new or saved, with and without 3-D Secure) and bank transfer. Every change of
 * state goes through `PaymentLifecycle`; the processor is picked by the registry and asked between short
 * transactions, never inside one. A processor that does not answer leaves the attempt processing: the
 * `payment.requery` job written with the attempt asks it again.
 */
export class PaymentService {
  constructor(
    private readonly storage: Storage,
    private readonly registry: ProcessorRegistry,
    private readonly clock: Clock,
    private readonly settings: PaymentSettings,
    private readonly lifecycle: PaymentLifecycle,
    private readonly orders: OrderService,
  ) {}

  async pay(caller: Caller, plain: PayOrderPlain): Promise<PaymentOf> {
    const order = await this.orders.resolve(caller, plain.reference);
    const option = plain.paymentoption;
    const processor = this.registry.pick({ merchantId: caller.merchant.id, mode: caller.mode, method: option, currency: order.currency });
    let savedCard: payments.SavedCardRow | undefined;
    if (option === 'C') {
      if (plain.cardToken) {
        const shopper = this.vouchedShopper(caller, order, 'Paying with a saved card');
        savedCard = await payments.findSavedCard(this.storage, shopper, plain.cardToken);
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
    } else if (order.frequencyId !== null) {
      throw invalid('The paymentoption field must be C: a subscription is paid by card.');
    }

    const card = plain.card;
    if (card?.save && !savedCard) this.vouchedShopper(caller, order, 'Saving a card');
    const number = card?.cardnumber && !savedCard ? digitsOnly(card.cardnumber) : undefined;
    const brand = savedCard?.brand ?? (number ? detectBrand(number) : undefined);
    const fee = computeFee(order.feeRules, option, order.currency, order.amountMinor);
    const now = this.clock.now();
    const reference = newPaymentReference();
    const instrumentLabel = option === 'C' ? `${BRAND_NAMES[brand ?? 'unknown']} ****${savedCard?.last4 ?? lastFour(number ?? '')}` : 'Bank transfer';
    const attempt = {
      orderId: order.id,
      reference,
      option,
      processor: processor.name,
      amountMinor: order.amountMinor,
      feeMinor: fee.feeMinor,
      customerFeeMinor: fee.customerFeeMinor,
      subsidiaryFeeMinor: fee.subsidiaryFeeMinor,
      totalMinor: fee.totalMinor,
      feeRate: fee.rate,
      instrument: instrumentLabel,
      cardBrand: option === 'C' ? (brand ?? 'unknown') : null,
      cardFirst6: savedCard?.first6 ?? (number ? firstSix(number) : null),
      cardLast4: savedCard?.last4 ?? (number ? lastFour(number) : null),
      cardExpiry: savedCard?.expiry ?? (card?.expirymonth && card.expiryyear !== undefined ? `${String(card.expirymonth).padStart(2, '0')}/${String(normaliseExpiryYear(card.expiryyear)).slice(-2)}` : null),
      saveCard: Boolean(card?.save) && !savedCard,
      remarks: 'Order payment initiated',
      now,
    };
    // The common case, an order read with no attempt open and no link to count against, starts in one statement.
    const idle = order.paymentLinkId === null ? await this.lifecycle.startOnIdleOrder(order, attempt) : undefined;
    const { payment, order: current } = idle ?? (await this.storage.transaction(async (tx) => {
      const locked = await payments.lockOrderForAttempt(tx, order.id);
      if (!locked) throw new TransitionConflictError({ entity: 'order', event: 'attempt-started', from: undefined });
      if (locked.status === 5) throw conflict('This order has already been paid.', 'order_already_paid');
      if (locked.status === 6) throw conflict('This order has been reversed and cannot be paid.', 'order_reversed');
      const started = { ...attempt, id: locked.paymentId };
      // An order that was Pending when read may have no attempt open by now.
      if (order.paymentLinkId === null) {
        const fast = await this.lifecycle.startAttempt(tx, order, locked.status, started);
        if (fast) return fast;
      }
      await this.closeOpenAttempts(tx, order);
      const begun = await this.lifecycle.startAttempt(tx, order, locked.status, started);
      // Under the order's lock nothing else opens an attempt.
      if (!begun) throw conflict('A payment for this order changed meanwhile; try again.', 'state_changed');
      return begun;
    }));

    const request: ChargeRequest = {
      reference,
      amountMinor: fee.totalMinor,
      currency: order.currency,
      // A subscription's first charge is authenticated by the customer: it is what allows the later ones without them.
      authenticationRequired: order.authOption === 'AUTH' || order.frequencyId !== null,
      merchantName: caller.merchant.name,
      instrumentLabel,
    };
    if (option === 'bank-transfer') return { order: current, payment: await this.openTransfer(processor, current, payment, request) };

    const instrument: Instrument = savedCard
      ? { kind: 'token', token: savedCard.token, initiator: 'customer', cvv: card?.cvv }
      : { kind: 'card', card: { number: number!, expiryMonth: card!.expirymonth!, expiryYear: card!.expiryyear!, cvv: card!.cvv, pin: card!.pin } };
    const result = await withDeadline(() => processor.charge(instrument, request), this.settings.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }));
    return this.lifecycle.settle(current, payment, result);
  }

  /**
   * Saves the card that paid an order, after the payment (the TransactPay Dart package's `save-card`): for the
   * customer the order was created for, under the same rule as saving while paying (decisions.md "Customers,
   * saved cards and order ownership"). The processor's record of the approved charge gives the card's token.
   */
  async saveCardOf(caller: Caller, reference: string): Promise<payments.SavedCardRow> {
    const order = await this.orders.resolve(caller, reference);
    const shopper = this.vouchedShopper(caller, order, 'Saving a card');
    const { payments: attempts } = await this.orders.status(caller, reference);
    const paid = attempts.find((each) => each.statusId === 5 && each.option === 'C');
    if (!paid || !paid.cardFirst6 || !paid.cardLast4 || !paid.cardExpiry) {
      throw conflict('This order has no successful card payment whose card could be saved.', 'order_not_paid');
    }
    const record = await this.registry.byName(paid.processor)?.lookup(paid.reference);
    if (record?.kind !== 'approved' || !record.cardToken) throw conflict('The processor keeps no token for the card that paid this order.', 'order_not_paid');
    const card = { token: record.cardToken, brand: paid.cardBrand ?? 'unknown', first6: paid.cardFirst6, last4: paid.cardLast4, expiry: paid.cardExpiry };
    await payments.saveCard(this.storage, shopper, card, this.clock.now());
    // Saved before under another token (the same card paid twice): the stored row is the one to name.
    return (await payments.listSavedCards(this.storage, shopper)).find((each) => each.first6 === card.first6 && each.last4 === card.last4 && each.expiry === card.expiry) ?? card;
  }

  /**
   * The customer whose saved cards this call may use or add to: the order's, vouched for by the merchant's server.
   * The merchant's server itself (secret key) may act for it; a browser needs the customer session too, so knowing
   * an order reference or an e-mail address is never enough.
   */
  private vouchedShopper(caller: Caller, order: Order, what: string): number {
    if (order.shopperId === null) {
      throw forbidden(`${what} needs a customer your server vouches for: open a customer session with the secret key and create the order with it.`);
    }
    if (caller.kind !== 'secret' && caller.shopper?.id !== order.shopperId) {
      throw forbidden(`${what} needs the customer session this order was created with.`);
    }
    return order.shopperId;
  }

  /**
   * One attempt at a time, under the order's lock: an attempt being processed refuses, and attempts left waiting
   * (abandoned 3-D Secure, an unused transfer account) are superseded so only the new one can succeed.
   */
  private async closeOpenAttempts(tx: Queryable, order: Order): Promise<void> {
    for (const open of await payments.listOpenPayments(tx, order.id)) {
      if (open.stage === 'processing') throw conflict('A payment for this order is already being processed.', 'order_being_paid');
      if (open.stage === 'transfer' && open.receivedMinor > 0) {
        throw conflict('A bank transfer for this order has already received part of the money; send the rest to the same account.', 'transfer_partly_received');
      }
      const moved = await this.lifecycle.move(tx, order, open, { type: 'superseded' });
      // Under the order's lock nothing else moves its attempts but the timed jobs, which do not take the lock.
      if (!moved.ok) throw conflict('A payment for this order changed meanwhile; try again.', 'state_changed');
    }
    // A link's limit holds when money moves, not only when orders are made: under the link's lock, payments approved
    // and under way on its other orders are counted, so concurrent customers never take it beyond its limit.
    if (order.paymentLinkId !== null) {
      const locked = await linkRepository.lockLinkTaken(tx, order.paymentLinkId, order.id);
      if (locked) {
        if (!locked.link.isActive) throw conflict('This payment link is no longer active.', 'link_inactive');
        if (locked.taken >= linkCapacity(locked.link)) throw conflict('This payment link has reached its limit of payments.', 'link_capacity_reached');
      }
    }
  }

  private async openTransfer(processor: PaymentProcessor, order: Order, payment: Payment, request: ChargeRequest): Promise<Payment> {
    // A fresh account number may, rarely, collide with an earlier one: ask again.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const account = await processor.openTransferAccount(request);
        const expiresAt = new Date(this.clock.now().getTime() + this.settings.transferExpiryMinutes * 60_000);
        const moved = await this.lifecycle.moveNow(order, payment, { type: 'transfer-opened', account: account.accountNumber, bank: account.bankName, expiresAt });
        return moved.ok ? moved.payment : ((await payments.findPaymentByReference(this.storage, payment.reference)) ?? payment);
      } catch (error) {
        if (attempt >= 2 || (error as { code?: string }).code !== '23505') {
          return (await this.lifecycle.settle(order, payment, { kind: 'declined', code: '91', rawCode: 'no-account' })).payment;
        }
      }
    }
  }

  /** Where the customer goes after authenticating: the order's RedirectUrl (or the link's website), else the hosted result page. */
  returnUrl(order: Order, payment: Payment): string {
    const target = new URL(order.redirectUrl ?? `${this.settings.publicBaseUrl}/checkout/result`);
    target.searchParams.set('reference', order.reference);
    target.searchParams.set('status', payment.statusId === 5 ? 'successful' : payment.statusId === 2 ? 'pending' : 'failed');
    return target.toString();
  }

  /** A card attempt and its order, by the attempt's reference (the processor's handle for its action). Reads only. */
  async findAttempt(paymentReference: string): Promise<PaymentOf | undefined> {
    const payment = await payments.findPaymentByReference(this.storage, paymentReference);
    if (!payment || payment.option !== 'C') return undefined;
    const order = await orders.findOrderById(this.storage, payment.orderId);
    return order && { payment, order };
  }

  /**
   * The customer came back from the processor's action (3-D Secure). Exactly one request takes the answer (the
   * lifecycle's guarded move); the processor's verdict then settles the attempt. `already-finished` when another
   * request, an expiry or a newer attempt got there first.
   */
  async completeAction(paymentReference: string): Promise<PaymentOf & { kind: 'finished' | 'already-finished' }> {
    const found = await this.findAttempt(paymentReference);
    if (!found) throw notFound('No payment awaits authentication under this reference.');
    const { order } = found;
    const taken = await this.lifecycle.moveNow(order, found.payment, { type: 'authentication-answered' });
    if (!taken.ok) {
      return { kind: 'already-finished', order, payment: (await payments.findPaymentByReference(this.storage, paymentReference)) ?? found.payment };
    }
    const processor = this.registry.byName(taken.payment.processor);
    const result = processor
      ? await withDeadline(() => processor.completeAction(paymentReference), this.settings.processorTimeoutMs, (detail) => ({ kind: 'unknown' as const, detail }))
      : ({ kind: 'unknown', detail: `processor ${taken.payment.processor} is not registered` } as const);
    const current = (await orders.findOrderById(this.storage, order.id)) ?? order;
    return { kind: 'finished', ...(await this.lifecycle.settle(current, taken.payment, result)) };
  }

  /**
   * Sandbox: money arrives on a transfer account. Short leaves the payment pending with the rest due; exact or more
   * completes it (the excess is recorded). Recording and deciding happen in one transaction under the order's lock,
   * so two arrivals at once are both counted. An account past its expiry takes nothing, even before its expiry job
   * has run.
   */
  async receiveTransfer(caller: Caller, accountNumber: string, amount: number): Promise<PaymentOf> {
    const found = await payments.findPaymentByAccount(this.storage, accountNumber);
    const order = found && (await orders.findOrderById(this.storage, found.orderId));
    if (!found || !order || order.merchantId !== caller.merchant.id || order.mode !== caller.mode) {
      throw notFound(`No transfer account ${accountNumber} exists for this merchant.`);
    }
    const amountMinor = amountInMinorUnits(amount, order.currency, 'amount');
    return this.storage.transaction(async (tx) => {
      await orders.lockOrder(tx, order.id);
      const current = await payments.findPaymentByReference(tx, found.reference);
      const now = this.clock.now();
      if (current?.reason === 'account-expired' || (current?.stage === 'transfer' && current.transferExpiresAt && current.transferExpiresAt <= now)) {
        throw conflict('This account number has expired.', 'transfer_account_expired');
      }
      if (!current || current.stage !== 'transfer') throw conflict('This account is no longer open for this payment.', 'transfer_account_closed');
      const received = current.receivedMinor + amountMinor;
      const moved =
        received < current.totalMinor
          ? await this.lifecycle.move(tx, order, current, {
              type: 'transfer-part-received',
              receivedMinor: received,
              remarks: `Partial transfer received; ${toMajorUnits(current.totalMinor - received, order.currency)} ${order.currency} still due`,
            })
          : await this.lifecycle.move(tx, order, current, {
              type: 'approved',
              rawCode: 'transfer-received',
              receivedMinor: received,
              excessMinor: received - current.totalMinor,
              remarks:
                received > current.totalMinor
                  ? `Transfer received with an excess of ${toMajorUnits(received - current.totalMinor, order.currency)} ${order.currency}, recorded for refund`
                  : 'Transfer received',
            });
      if (!moved.ok) throw conflict('This account is no longer open for this payment.', 'transfer_account_closed');
      return { order: (await orders.findOrderById(tx, order.id)) ?? order, payment: moved.payment };
    });
  }
}
