/**
 * What merchants are told happened, as a closed union. Each is written to the outbox (`domain_events`) in the
 * same transaction as the change of state that causes it, so an event exists if and only if its change does;
 * webhooks and any later surface read them from there.
 */
export const DOMAIN_EVENT_TYPES = [
  /** The order was paid (card approved, or a bank transfer received in full). */
  'order.successful',
  /** An attempt ended without the money: declined, authentication failed or expired, interrupted. */
  'payment.failed',
  /** Part of the amount arrived on a transfer account; the rest is still due. */
  'transfer.partially_paid',
  /** A transfer account expired before the whole amount arrived (any money received is recorded for refund). */
  'transfer.expired',
  /** A successful payment was reversed: its money went back to the customer in full (the order is 6 Reversed). */
  'payment.reversed',
  /** A refund succeeded: `data` is the refund, with the order as verify shows it after the refund. */
  'refund.succeeded',
  /** A refund was declined (or never reached the processor): nothing went back, and the order is unchanged. */
  'refund.failed',
  /** A subscription started: its first charge was approved after 3-D Secure and the card kept for it. */
  'subscription.created',
  /** A recurring charge of a subscription was approved. */
  'subscription.charged',
  /** A recurring charge was declined after its retries: the subscription charges no more until the merchant acts. */
  'subscription.past_due',
  /** The merchant or the customer cancelled the subscription. */
  'subscription.cancelled',
  /** The subscription's last payment was made. */
  'subscription.completed',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export type DomainEvent = {
  id: string;
  merchantId: number;
  mode: 'test' | 'live';
  type: DomainEventType;
  orderId: number | null;
  /** The order as verify shows it, or for subscription.* the subscription as the merchant's list shows it. */
  data: unknown;
  createdAt: Date;
};
