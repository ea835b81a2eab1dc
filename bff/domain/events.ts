import { WEBHOOK_EVENT_TYPES } from '../../shared/contract/webhooks.ts';
/**
 * What merchants are told happened, as a closed union. Each is written to the outbox (`domain_events`) in the
 * same transaction as the change of state that causes it, so an event exists if and only if its change does;
 * webhooks and any later surface read them from there.
 */
export const DOMAIN_EVENT_TYPES = WEBHOOK_EVENT_TYPES;

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
