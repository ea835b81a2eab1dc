import { findFrequency } from '../../shared/frequencies.ts';
import { toMajorUnits } from '../../shared/money.ts';
import type { SubscriptionView } from '../../shared/subscriptions.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import type { SubscriptionRecord } from '../repositories/subscriptions.ts';

/** A subscription as the merchant's list and the subscription.* webhooks show it. Pure; no I/O. */
export function presentSubscription(subscription: SubscriptionRecord): SubscriptionView {
  const stamp = (date: Date | null) => (date ? formatTimestamp(date) : null);
  return {
    id: subscription.id,
    reference: subscription.reference,
    status: subscription.state,
    paymentLinkId: subscription.paymentLinkId,
    paymentLinkReference: subscription.linkReference,
    orderReference: subscription.orderReference,
    customer: subscription.customer,
    amount: toMajorUnits(subscription.amountMinor, subscription.currency),
    currency: subscription.currency,
    frequencyId: subscription.frequencyId,
    frequencyName: findFrequency(subscription.frequencyId)?.name ?? String(subscription.frequencyId),
    numberOfPayments: subscription.paymentsTotal,
    paymentsMade: subscription.paymentsMade,
    nextPaymentDate: subscription.state === 'active' ? stamp(subscription.nextDueAt) : null,
    failedAttempts: subscription.failures,
    card: subscription.cardLabel,
    dateCreated: formatTimestamp(subscription.createdAt),
    dateUpdated: formatTimestamp(subscription.updatedAt),
    dateEnded: stamp(subscription.endedAt),
  };
}
