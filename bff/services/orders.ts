import { randomBytes } from 'node:crypto';
import type { TrackEventPlain } from '../../shared/events.ts';
import { toMajorUnits } from '../../shared/money.ts';
import { PAYMENT_OPTIONS, type CreateOrderPlain } from '../../shared/orders.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { scrubMetadata } from '../../shared/metadata.ts';
import { randomAlphanumeric } from '../crypto/api-keys.ts';
import type { Caller } from '../domain/merchant.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { Order, OrderOrigin, Payment } from '../domain/order.ts';
import type { Refund } from '../domain/refunds.ts';
import type { ClientTokens } from '../crypto/client-tokens.ts';
import { linkCapacity, linkPlan } from '../domain/links.ts';
import { isOriginAllowed, normaliseOrigin } from '../security/origins.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import * as linkRepository from '../repositories/links.ts';
import * as orders from '../repositories/orders.ts';
import * as payments from '../repositories/payments.ts';
import type { Storage } from '../storage/storage.ts';
import { amountInMinorUnits, merchantFeeRules } from './fees.ts';
import type { Clock } from './clock.ts';

/** A created (or found again) order with what its answer shows: the link and the customer's saved cards. */
export type CreatedOrder = {
  order: Order;
  merchant: Merchant;
  link: linkRepository.StoredLink | null;
  savedCards: payments.SavedCardRow[];
  /** The order may save the card it is paid with: the customer is one the merchant vouched for. */
  canSaveCard: boolean;
  /** For the merchant's server only: the token that lets its checkout page see and pay this order. */
  clientToken: { token: string; expiresAt: Date } | undefined;
};

/** An order with everything verify (and webhooks) show of it. */
export type VerifiedOrder = {
  order: Order;
  payments: Payment[];
  merchant: Merchant;
  link: linkRepository.StoredLink | null;
  savedCards: payments.SavedCardRow[];
  refunds: Refund[];
};

export class OrderService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly tokens: ClientTokens,
    private readonly settings: { publicBaseUrl: string },
  ) {}

  async create(caller: Caller, plain: CreateOrderPlain): Promise<CreatedOrder> {
    const { merchant, mode } = caller;
    const reference = plain.order.reference;
    const origin: OrderOrigin = caller.kind === 'secret' ? 'server' : 'browser';
    // A browser holding the order's client token is shown the order the merchant's server made: its details stand.
    if (origin === 'browser' && caller.orderGrant !== undefined) {
      if (caller.orderGrant !== reference) throw forbidden(`The client token is for another order than ${reference}.`);
      const order = await this.resolve(caller, reference);
      return this.answer(caller, order, await this.linkOf(order));
    }

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
    const linkId = plain.payment?.paymentlinkid;
    let link: linkRepository.StoredLink | undefined;
    if (linkId !== undefined) {
      link = await linkRepository.findLinkById(this.storage, merchant.id, linkId);
      if (!link || link.mode !== mode) throw notFound(`No payment link with id ${linkId} exists for this merchant.`);
      if (!link.isActive) throw conflict('This payment link is no longer active.', 'link_inactive');
      if (link.uses >= linkCapacity(link)) throw conflict('This payment link has reached its limit of payments.', 'link_capacity_reached');
      if (link.currency !== currency) throw invalid(`The order.currency field must be ${link.currency}, the payment link's currency.`);
      if (link.amountMinor !== null && link.amountMinor !== amountMinor) {
        throw invalid(`The order.amount field must be ${toMajorUnits(link.amountMinor, currency)}, the payment link's amount.`);
      }
      authOption = link.authOption;
    }
    const redirectUrl = this.returnAddress(caller, plain.payment?.RedirectUrl, link) ?? link?.website ?? null;
    const plan = orderPlan(caller, plain.payment, link);

    const feeRules = merchantFeeRules(merchant);
    const now = this.clock.now();
    const created = await orders.insertCreatedOrder(this.storage, {
      merchantId: merchant.id,
      mode,
      reference,
      processorReference: `CKO${randomAlphanumeric(17).toUpperCase()}`,
      customer: {
        email: plain.customer.email ?? null,
        firstName: plain.customer.firstname,
        lastName: plain.customer.lastname,
        mobile: plain.customer.mobile ?? null,
        country: plain.customer.country?.toUpperCase() ?? null,
      },
      amountMinor,
      currency,
      description: plain.order.description ?? null,
      items,
      redirectUrl,
      paymentLinkId: link?.id ?? null,
      frequencyId: plan?.frequencyId ?? null,
      numberOfPayments: plan?.numberOfPayments ?? null,
      authOption,
      feeRules,
      createdBy: origin,
      shopperId: caller.shopper?.id ?? null,
      // Clients put card data in free-form fields; it never reaches storage.
      paymentMeta: plain.paymentMeta === undefined ? undefined : scrubMetadata(plain.paymentMeta),
      // A browser never takes a reference the merchant's server made an order under.
      besideServerOrder: origin === 'server',
    }, now);
    if (created) return this.answer(caller, created, link ?? null);

    const existing = await orders.findOrders(this.storage, merchant.id, mode, reference);
    // Nor is a browser shown the order the merchant's server made under it.
    if (origin === 'browser' && existing.some((order) => order.createdBy === 'server')) {
      throw conflict(`The order ${reference} was created by the merchant's server; open the checkout with the client token its create answer gave.`, 'order_needs_client_token');
    }
    // The reference is taken. The same order asked for again (a reload in a new tab, a retry after a lost answer)
    // gets that order back, in its current state; different details under the same reference are refused.
    const taken = existing.find((order) => order.createdBy === origin);
    const same =
      taken !== undefined &&
      taken.amountMinor === amountMinor &&
      taken.currency === currency &&
      taken.customer.email === (plain.customer.email?.toLowerCase() ?? null) &&
      taken.paymentLinkId === (link?.id ?? null) &&
      taken.shopperId === (caller.shopper?.id ?? null) &&
      taken.items.length === items.length &&
      taken.items.every((item, index) => item.name === items[index]?.name && item.amountMinor === items[index]?.amountMinor);
    if (!same) throw conflict(`An order with reference ${reference} already exists for this merchant with other details.`, 'order_reference_taken');
    return this.answer(caller, taken, link ?? null);
  }

  /**
   * Where 3-D Secure sends the customer back. The merchant's server (secret key) names any address. An address sent
   * with the publishable key is anyone's to write, so it is kept only on an origin the merchant stands behind: its
   * allowed origins (and, for test keys, a developer's localhost), its link's Website, or this service's own pages
   * (the hosted link page and the checkout frame return there). Any other is dropped, not refused: the order
   * returns to the link's Website or to the hosted result page, and the checkout a customer opened still works.
   */
  private returnAddress(caller: Caller, sent: string | undefined, link: linkRepository.StoredLink | undefined): string | undefined {
    if (sent === undefined || caller.kind === 'secret') return sent;
    const origin = normaliseOrigin(sent);
    if (origin === undefined) return undefined;
    const trusted =
      origin === normaliseOrigin(this.settings.publicBaseUrl) ||
      (link?.website != null && origin === normaliseOrigin(link.website)) ||
      isOriginAllowed(origin, caller.merchant, caller.mode);
    return trusted ? sent : undefined;
  }

  /**
   * What the create answer shows: the saved cards of the customer the merchant vouched for (a customer session),
   * never those of whoever typed an e-mail address; and, to the merchant's server, the order's client token.
   */
  private async answer(caller: Caller, order: Order, link: linkRepository.StoredLink | null): Promise<CreatedOrder> {
    const shopper = order.shopperId !== null && caller.shopper?.id === order.shopperId ? order.shopperId : undefined;
    const savedCards = shopper === undefined ? [] : await payments.listSavedCards(this.storage, shopper);
    const clientToken =
      caller.kind === 'secret' && order.createdBy === 'server'
        ? await this.tokens.signOrder({ merchantId: order.merchantId, mode: order.mode, reference: order.reference }, this.clock.now())
        : undefined;
    return { order, merchant: caller.merchant, link, savedCards, canSaveCard: shopper !== undefined, clientToken };
  }

  private async linkOf(order: Order): Promise<linkRepository.StoredLink | null> {
    if (order.paymentLinkId === null) return null;
    return (await linkRepository.findLinkById(this.storage, order.merchantId, order.paymentLinkId)) ?? null;
  }

  /** Names the customer the merchant's server vouches for and signs a session for its checkout. */
  async openCustomerSession(caller: Caller, customerReference: string): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const shopperId = await orders.upsertShopper(this.storage, caller.merchant.id, caller.mode, customerReference, now);
    return this.tokens.signCustomer({ merchantId: caller.merchant.id, mode: caller.mode, shopperId, shopperReference: customerReference }, now);
  }

  /** The order a caller means by a reference (`chooseOrder` says which). */
  async resolve(caller: Caller, reference: string): Promise<Order> {
    return chooseOrder(caller, reference, await orders.findOrders(this.storage, caller.merchant.id, caller.mode, reference));
  }

  /** The order with its attempts, as stored, read in one statement: reading never writes (timed work is the jobs'). */
  async status(caller: Caller, reference: string): Promise<orders.OrderWithAttempts> {
    const found = await orders.findOrdersWithAttempts(this.storage, caller.merchant.id, caller.mode, reference);
    const order = chooseOrder(caller, reference, found.map((each) => each.order));
    return found.find((each) => each.order === order)!;
  }

  /**
   * An order the checkout shows again without having created it in this page (a reload, a reopened modal, the
   * return from the bank): the create answer of the order and its latest attempt. A browser may ask only from the
   * checkout frame (its frame session names the merchant, mode and page origin) or with the order's client token:
   * the answer names the customer, which the bare order status never does.
   */
  async resume(caller: Caller, reference: string): Promise<{ created: CreatedOrder; latest: Payment | undefined }> {
    if (caller.kind !== 'secret' && caller.orderGrant === undefined && caller.frameOrigin === undefined) {
      throw forbidden("An order is resumed from the checkout's frame, or with the order's client token.");
    }
    const { order, payments: attempts } = await this.status(caller, reference);
    return { created: await this.answer(caller, order, await this.linkOf(order)), latest: attempts.at(-1) };
  }

  async verify(caller: Caller, reference: string): Promise<VerifiedOrder> {
    const { order, payments: all, refunds } = await this.status(caller, reference);
    const link = order.paymentLinkId === null ? undefined : await linkRepository.findLinkById(this.storage, order.merchantId, order.paymentLinkId);
    // Verify names the token of a card the order's payment saved: only an order made for a vouched customer saves one.
    const savedCards = order.shopperId === null ? [] : await payments.listSavedCards(this.storage, order.shopperId);
    return { order, payments: all, merchant: caller.merchant, link: link ?? null, savedCards, refunds };
  }

  async track(caller: Caller, event: TrackEventPlain): Promise<void> {
    const order = await this.resolve(caller, event.orderreference);
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
    const order = await this.resolve(caller, reference);
    return (await orders.listEvents(this.storage, order.id)).map((entry) => ({ ...entry, createdAt: formatTimestamp(entry.createdAt) }));
  }
}

/**
 * The order a caller means among those under one reference (at most one per origin). The merchant's server (secret
 * key) sees its own order, else the one a browser made. A browser sees the order of its client token, else the one a
 * browser made: an order the merchant's server made is not a browser's to see or pay without its client token.
 */
function chooseOrder(caller: Caller, reference: string, found: Order[]): Order {
  const server = found.find((order) => order.createdBy === 'server');
  const browser = found.find((order) => order.createdBy === 'browser');
  // A signed-in member reads and refunds as the merchant's server does.
  if (caller.kind === 'secret' || caller.kind === 'member') {
    const order = server ?? browser;
    if (!order) throw notFound(`No order with reference ${reference} exists for this merchant.`);
    return order;
  }
  if (caller.orderGrant !== undefined) {
    if (caller.orderGrant !== reference) throw forbidden(`The client token is for another order than ${reference}.`);
    if (!server) throw notFound(`No order with reference ${reference} exists for this merchant.`);
    return server;
  }
  if (browser) return browser;
  if (server) throw forbidden(`The order ${reference} was created by the merchant's server; the checkout needs the client token its create answer gave.`);
  throw notFound(`No order with reference ${reference} exists for this merchant.`);
}

/**
 * The subscription plan an order starts, if any. A SUB link's plan always wins: the order's own is not read, whoever
 * sends it. Off a SUB link, an order's own plan (`payment.frequencyId`, with `numberOfPayments`) makes the
 * merchant charge the customer's card again and again without them: only the merchant's server (secret key) may
 * ask for that. A browser's (publishable key) is refused rather than dropped, so an integration that meant to
 * start a subscription learns at once that it did not (docs/decisions.md). `numberOfPayments` alone plans nothing.
 */
function orderPlan(
  caller: Caller,
  payment: CreateOrderPlain['payment'],
  link: linkRepository.StoredLink | undefined,
): { frequencyId: number; numberOfPayments: number | null } | null {
  const ofLink = link ? linkPlan(link) : null;
  if (ofLink) return ofLink;
  if (payment?.frequencyId === undefined) return null;
  if (caller.kind !== 'secret') {
    throw forbidden(
      "The payment.frequencyId field starts a subscription, which only the merchant's server may do: create the order with the secret key, or on a SUB payment link.",
    );
  }
  return { frequencyId: payment.frequencyId, numberOfPayments: payment.numberOfPayments ?? null };
}

/**
 * Bank transfer pays into Nigerian accounts, so it is offered for NGN orders only; an order that starts a
 * subscription is paid by card, whose token the later charges use.
 */
export function paymentOptionsFor(currency: string, subscribes = false) {
  const options: { code: string; name: string; currency: string }[] = [{ code: 'C', name: PAYMENT_OPTIONS.C, currency }];
  if (currency === 'NGN' && !subscribes) options.push({ code: 'bank-transfer', name: PAYMENT_OPTIONS['bank-transfer'], currency });
  return options;
}

export const newPaymentReference = () => `PAY${randomBytes(12).toString('hex').toUpperCase()}`;
