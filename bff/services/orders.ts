import { randomBytes } from 'node:crypto';
import type { TrackEventPlain } from '../../shared/events.ts';
import { toMajorUnits } from '../../shared/money.ts';
import { PAYMENT_OPTIONS, type CreateOrderPlain } from '../../shared/orders.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { scrubMetadata } from '../../shared/metadata.ts';
import { randomAlphanumeric } from '../crypto/api-keys.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { Order, Payment } from '../domain/order.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import * as linkRepository from '../repositories/links.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Storage } from '../storage/storage.ts';
import { amountInMinorUnits, merchantFeeRules } from './fees.ts';
import type { Clock } from './clock.ts';

/** A created (or found again) order with what its answer shows: the link and the customer's saved cards. */
export type CreatedOrder = { order: Order; merchant: Merchant; link: linkRepository.StoredLink | null; savedCards: payments.SavedCardRow[] };

/** An order with everything verify (and webhooks) show of it. */
export type VerifiedOrder = { order: Order; payments: Payment[]; merchant: Merchant; link: linkRepository.StoredLink | null };

export class OrderService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, plain: CreateOrderPlain): Promise<CreatedOrder> {
    const { merchant, mode } = caller;
    const currency = plain.order.currency;
    const amountMinor = amountInMinorUnits(plain.order.amount, currency, 'order.amount');
    const items = (plain.order.items ?? [{ name: 'Summary', amount: plain.order.amount }]).map((item, index) => ({
      name: item.name,
      amountMinor: amountInMinorUnits(item.amount, currency, `order.items[${index}].amount`),
    }));
    if (items.reduce((sum, item) => sum + item.amountMinor, 0) !== amountMinor) {
      throw invalid('The order.items field amounts must add up to order.amount.');
    }

    let authOption: 'AUTH' | 'NOAUTH' = 'NOAUTH';
    let redirectUrl = plain.payment?.RedirectUrl ?? null;
    const linkId = plain.payment?.paymentlinkid;
    let link: linkRepository.StoredLink | undefined;
    if (linkId !== undefined) {
      link = await linkRepository.findLinkById(this.storage, merchant.id, linkId);
      if (!link || link.mode !== mode) throw notFound(`No payment link with id ${linkId} exists for this merchant.`);
      if (!link.isActive) throw conflict('This payment link is no longer active.');
      if (link.payerLimit > 0 && link.uses >= link.payerLimit) throw conflict('This payment link has reached its limit of payments.');
      if (link.currency !== currency) throw invalid(`The order.currency field must be ${link.currency}, the payment link's currency.`);
      if (link.amountMinor !== null && link.amountMinor !== amountMinor) {
        throw invalid(`The order.amount field must be ${toMajorUnits(link.amountMinor, currency)}, the payment link's amount.`);
      }
      authOption = link.authOption;
      redirectUrl ??= link.website;
    }

    const feeRules = merchantFeeRules(merchant);
    const now = this.clock.now();
    const created = await this.storage.transaction(async (tx) => {
      const customer = await orders.upsertCustomer(tx, merchant.id, mode, {
        email: plain.customer.email,
        firstName: plain.customer.firstname,
        lastName: plain.customer.lastname,
        mobile: plain.customer.mobile ?? null,
        country: plain.customer.country?.toUpperCase() ?? null,
      }, now);
      const id = await orders.insertOrder(tx, {
        merchantId: merchant.id,
        mode,
        reference: plain.order.reference,
        processorReference: `CKO${randomAlphanumeric(17).toUpperCase()}`,
        customerId: customer.id,
        amountMinor,
        currency,
        description: plain.order.description ?? null,
        items,
        redirectUrl,
        paymentLinkId: link?.id ?? null,
        frequencyId: plain.payment?.frequencyId ?? null,
        numberOfPayments: plain.payment?.numberOfPayments ?? null,
        authOption,
        feeRules,
        // Clients put card data in free-form fields; it never reaches storage.
        paymentMeta: plain.paymentMeta === undefined ? undefined : scrubMetadata(plain.paymentMeta),
      }, now);
      if (id === undefined) return undefined;
      await orders.insertEvent(tx, id, 'order-created', 'system', null, now);
      return orders.findOrderById(tx, id);
    });
    if (created) return this.withSavedCards(caller, created, link ?? null);

    // The reference is taken. The same order asked for again (a reload in a new tab, a retry after a lost answer)
    // gets that order back, in its current state; different details under the same reference are refused.
    const existing = await orders.findOrder(this.storage, merchant.id, mode, plain.order.reference);
    const same =
      existing !== undefined &&
      existing.amountMinor === amountMinor &&
      existing.currency === currency &&
      existing.customer.email.toLowerCase() === plain.customer.email.toLowerCase() &&
      existing.paymentLinkId === (link?.id ?? null) &&
      existing.items.length === items.length &&
      existing.items.every((item, index) => item.name === items[index]?.name && item.amountMinor === items[index]?.amountMinor);
    if (!same) throw conflict(`An order with reference ${plain.order.reference} already exists for this merchant with other details.`);
    return this.withSavedCards(caller, existing, link ?? null);
  }

  private async withSavedCards(caller: Caller, order: Order, link: linkRepository.StoredLink | null): Promise<CreatedOrder> {
    const savedCards = await payments.listSavedCards(this.storage, order.customer.id);
    return { order, merchant: caller.merchant, link, savedCards };
  }

  async findOwn(caller: Caller, reference: string): Promise<Order> {
    const order = await orders.findOrder(this.storage, caller.merchant.id, caller.mode, reference);
    if (!order) throw notFound(`No order with reference ${reference} exists for this merchant.`);
    return order;
  }

  /** The order with its attempts, as stored: reading never writes (timed work is the jobs'). */
  async status(caller: Caller, reference: string): Promise<{ order: Order; payments: Payment[] }> {
    const order = await this.findOwn(caller, reference);
    return { order, payments: await payments.listPayments(this.storage, order.id) };
  }

  async verify(caller: Caller, reference: string): Promise<VerifiedOrder> {
    const order = await this.findOwn(caller, reference);
    const all = await payments.listPayments(this.storage, order.id);
    const link = order.paymentLinkId === null ? undefined : await linkRepository.findLinkById(this.storage, order.merchantId, order.paymentLinkId);
    return { order, payments: all, merchant: caller.merchant, link: link ?? null };
  }

  async track(caller: Caller, event: TrackEventPlain): Promise<void> {
    const order = await this.findOwn(caller, event.orderreference);
    // Details are flat (texts, numbers, true/false) and scrubbed before texts are cut, so no card number survives in part.
    const extras = Object.entries(event)
      .filter(([key]) => key !== 'eventname' && key !== 'orderreference')
      .slice(0, 20)
      .map(([key, value]) => [key.slice(0, 64), typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null]);
    const scrubbed = scrubMetadata(Object.fromEntries(extras)) as Record<string, unknown>;
    const detail = Object.fromEntries(Object.entries(scrubbed).map(([key, value]) => [key, typeof value === 'string' ? value.slice(0, 500) : value]));
    await orders.insertEvent(this.storage, order.id, event.eventname, 'client', Object.keys(detail).length > 0 ? detail : null, this.clock.now());
  }

  async timeline(caller: Caller, reference: string) {
    const order = await this.findOwn(caller, reference);
    return (await orders.listEvents(this.storage, order.id)).map((entry) => ({ ...entry, createdAt: formatTimestamp(entry.createdAt) }));
  }
}

/** Bank transfer pays into Nigerian accounts, so it is offered for NGN orders only. */
export function paymentOptionsFor(currency: string) {
  const options: { code: string; name: string; currency: string }[] = [{ code: 'C', name: PAYMENT_OPTIONS.C, currency }];
  if (currency === 'NGN') options.push({ code: 'bank-transfer', name: PAYMENT_OPTIONS['bank-transfer'], currency });
  return options;
}

export const newPaymentReference = () => `PAY${randomBytes(12).toString('hex').toUpperCase()}`;
