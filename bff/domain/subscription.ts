import type { Mode } from './merchant.ts';

/**
 * A subscription (the gateway's "recurring payment"): a customer's card charged by the merchant every `periodHours`
 * of a link frequency, `paymentsTotal` times in all (the first, customer-present charge included), or until
 * cancelled. Period n is due at `anchorAt + (n - 1) * periodHours`, so a late charge never shifts later ones.
 */
export type SubscriptionState = 'active' | 'past_due' | 'cancelled' | 'completed';

export type Subscription = {
  id: number;
  reference: string;
  merchantId: number;
  mode: Mode;
  paymentLinkId: number | null;
  firstOrderId: number;
  customerId: number;
  shopperId: number | null;
  cardToken: string;
  cardLabel: string | null;
  amountMinor: number;
  currency: string;
  frequencyId: number;
  periodHours: number;
  paymentsTotal: number | null;
  paymentsMade: number;
  anchorAt: Date;
  nextPeriod: number;
  nextDueAt: Date | null;
  failures: number;
  state: SubscriptionState;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
};

/** A subscription with what the merchant's lists and its webhooks show beside it: its customer, first order and link. */
export type SubscriptionRecord = Subscription & {
  customer: { email: string | null; firstName: string; lastName: string; mobile: string | null };
  orderReference: string;
  linkReference: string | null;
};

/** The events of a subscription, and the states each may start from. */
export type SubscriptionEventType = 'charged' | 'charge-declined' | 'retries-exhausted' | 'completed' | 'cancelled';

export const SUBSCRIPTION_TABLE: Record<SubscriptionEventType, { from: readonly SubscriptionState[]; to: SubscriptionState }> = {
  charged: { from: ['active'], to: 'active' },
  'charge-declined': { from: ['active'], to: 'active' },
  'retries-exhausted': { from: ['active'], to: 'past_due' },
  completed: { from: ['active'], to: 'completed' },
  // The merchant or the customer may stop a subscription that still runs, or one past due.
  cancelled: { from: ['active', 'past_due'], to: 'cancelled' },
};

export function canMove(from: SubscriptionState, event: SubscriptionEventType): boolean {
  return SUBSCRIPTION_TABLE[event].from.includes(from);
}

/**
 * A declined recurring charge is tried again three times, later each time (1 hour, 6 hours, 1 day after the
 * decline); the decline after the last retry makes the subscription past due.
 */
export const RETRY_DELAYS_MS: readonly number[] = [3_600_000, 6 * 3_600_000, 24 * 3_600_000];

export const HOUR_MS = 3_600_000;

/** When period `period` falls due. */
export const dueAt = (subscription: Pick<Subscription, 'anchorAt' | 'periodHours'>, period: number): Date =>
  new Date(subscription.anchorAt.getTime() + (period - 1) * subscription.periodHours * HOUR_MS);

/** Whether the payment of `period` is the last one. */
export const isLastPeriod = (subscription: Pick<Subscription, 'paymentsTotal'>, period: number): boolean =>
  subscription.paymentsTotal !== null && period >= subscription.paymentsTotal;
