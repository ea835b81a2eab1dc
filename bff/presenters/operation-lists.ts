import type { CustomerSummary } from '../../shared/contract/customers.ts';
import type { EventSummary } from '../../shared/contract/events.ts';
import type { LinkSummary } from '../../shared/contract/links.ts';
import type { SubscriptionSummary } from '../../shared/contract/subscriptions.ts';
import { findFrequency } from '../../shared/frequencies.ts';
import { invalid } from '../errors.ts';
import type { CustomerRow, SavedCardListRow } from '../repositories/customer-search.ts';
import type { EventPosition, EventListRow } from '../repositories/event-search.ts';
import type { LinkListRow } from '../repositories/link-search.ts';
import type { SubscriptionListRow } from '../repositories/subscription-search.ts';
import { csvField, customerId, decimal } from './operations.ts';

/**
 * The operations API's customers, subscriptions, payment links and events: camelCase, amounts in minor units
 * beside a decimal string, ISO 8601 times with a `Z`; the CSV lines of their exports. Pure; no I/O.
 */
const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const fullName = (first: string, last: string) => `${first} ${last}`.trim();

export function presentCustomer(row: CustomerRow): CustomerSummary {
  return {
    id: customerId(row.email, row.anchor_mobile),
    email: row.email,
    name: fullName(row.first_name, row.last_name),
    mobile: row.mobile,
    country: row.country,
    ordersCount: row.orders_count,
    paidCount: row.paid_count,
    totalPaid: row.paid_totals.map((total) => ({ currency: total.currency, amountMinor: Number(total.minor), amount: decimal(Number(total.minor), total.currency) })),
    firstOrderAt: row.first_order_at.toISOString(),
    lastOrderAt: row.last_order_at.toISOString(),
  };
}

export const cardId = (id: number) => `card_${id}`;
export const cardNumberOf = (id: string) => Number(id.slice('card_'.length));

export function presentSavedCard(row: SavedCardListRow) {
  return { id: cardId(row.id), brand: row.brand, last4: row.last4, expiry: row.expiry, savedAt: row.created_at.toISOString() };
}

export function presentSubscriptionSummary(row: SubscriptionListRow): SubscriptionSummary {
  return {
    id: row.id,
    reference: row.reference,
    state: row.state,
    plan: { frequencyId: row.frequency_id, frequency: findFrequency(row.frequency_id)?.name ?? String(row.frequency_id), numberOfPayments: row.payments_total },
    amountMinor: row.amount_minor,
    amount: decimal(row.amount_minor, row.currency),
    currency: row.currency,
    customer: {
      id: customerId(row.customer_email, row.customer_mobile),
      email: row.customer_email,
      name: fullName(row.customer_first_name, row.customer_last_name),
      mobile: row.customer_mobile,
    },
    linkReference: row.link_reference,
    firstOrderReference: row.first_order_reference,
    paymentsMade: row.payments_made,
    nextChargeAt: row.state === 'active' ? iso(row.next_due_at) : null,
    createdAt: row.created_at.toISOString(),
    endedAt: iso(row.ended_at),
  };
}

export function presentLinkSummary(row: LinkListRow, url: string): LinkSummary {
  return {
    id: row.id,
    reference: row.reference,
    name: row.name,
    description: row.description,
    type: row.payment_type,
    active: row.is_active,
    currency: row.currency,
    amountMinor: row.amount_minor,
    amount: row.amount_minor === null ? null : decimal(row.amount_minor, row.currency),
    payerLimit: row.payer_limit,
    payments: row.uses,
    plan: row.payment_type === 'SUB' ? { frequencyId: row.frequency_id, numberOfPayments: row.number_of_payments } : null,
    url,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentEvent(row: EventListRow): EventSummary {
  return {
    id: row.id,
    type: row.type,
    orderReference: row.order_reference,
    createdAt: row.created_at.toISOString(),
    deliveries: {
      total: row.deliveries_total,
      pending: row.deliveries_pending,
      succeeded: row.deliveries_succeeded,
      failed: row.deliveries_failed,
      lastAttemptAt: iso(row.last_attempt_at),
    },
  };
}

/** An event list's cursor: the last event's time and id (events have text ids), opaque like every cursor. */
export function encodeEventCursor(position: EventPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeEventCursor(cursor: string | undefined): EventPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const createdAt = typeof at === 'string' ? new Date(at) : new Date(Number.NaN);
    if (!Number.isNaN(createdAt.getTime()) && typeof id === 'string' && /^evt_[A-Za-z0-9_-]{1,64}$/.test(id)) return { createdAt, id };
  } catch {
    // Answered below like any other cursor this API did not give.
  }
  throw invalid('cursor is not a cursor this API gave; start again from the first page.', undefined, 'invalid_cursor');
}

/** The customers export's columns, in this order (the README lists them). Totals: `NGN 12000.00; USD 40.00`. */
export const CUSTOMER_CSV_COLUMNS = [
  'customer_id', 'email', 'name', 'mobile', 'country', 'orders', 'paid_orders', 'total_paid', 'first_order_at', 'last_order_at',
] as const;

export function customerCsvLine(row: CustomerRow): string {
  const customer = presentCustomer(row);
  const values: Record<(typeof CUSTOMER_CSV_COLUMNS)[number], string | number | null> = {
    customer_id: customer.id,
    email: customer.email,
    name: customer.name,
    mobile: customer.mobile,
    country: customer.country,
    orders: customer.ordersCount,
    paid_orders: customer.paidCount,
    total_paid: customer.totalPaid.map((total) => `${total.currency} ${total.amount}`).join('; '),
    first_order_at: customer.firstOrderAt,
    last_order_at: customer.lastOrderAt,
  };
  return `${CUSTOMER_CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}

/** The subscriptions export's columns, in this order (the README lists them). */
export const SUBSCRIPTION_CSV_COLUMNS = [
  'created_at', 'reference', 'id', 'state', 'frequency', 'number_of_payments', 'payments_made', 'currency', 'amount', 'next_charge_at',
  'ended_at', 'customer_id', 'customer_email', 'customer_name', 'customer_mobile', 'link_reference', 'first_order_reference',
] as const;

export function subscriptionCsvLine(row: SubscriptionListRow): string {
  const subscription = presentSubscriptionSummary(row);
  const values: Record<(typeof SUBSCRIPTION_CSV_COLUMNS)[number], string | number | null> = {
    created_at: subscription.createdAt,
    reference: subscription.reference,
    id: subscription.id,
    state: subscription.state,
    frequency: subscription.plan.frequency,
    number_of_payments: subscription.plan.numberOfPayments,
    payments_made: subscription.paymentsMade,
    currency: subscription.currency,
    amount: subscription.amount,
    next_charge_at: subscription.nextChargeAt,
    ended_at: subscription.endedAt,
    customer_id: subscription.customer.id,
    customer_email: subscription.customer.email,
    customer_name: subscription.customer.name,
    customer_mobile: subscription.customer.mobile,
    link_reference: subscription.linkReference,
    first_order_reference: subscription.firstOrderReference,
  };
  return `${SUBSCRIPTION_CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}
