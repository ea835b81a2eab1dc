import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { requiredText } from './fields.ts';

/**
 * Subscriptions (the gateway's recurring payments): how the merchant's list and the subscription.* webhooks show
 * one, and the cancel call (protocol.md 4.10: `PATCH /checkout/links/recurringpayment/{id}/cancel`).
 */
export const SUBSCRIPTION_STATES = ['active', 'past_due', 'cancelled', 'completed'] as const;

export const subscriptionSchema = z
  .object({
    id: z.number().int().describe('the recurringPaymentId of its orders, and what cancel takes'),
    reference: z.string().describe('the recurringPaymentReference of its orders; cancel takes it too'),
    status: z.enum(SUBSCRIPTION_STATES),
    paymentLinkId: z.number().int().nullable(),
    paymentLinkReference: z.string().nullable(),
    orderReference: z.string().describe('the order whose first charge started it'),
    customer: z.object({ email: z.string().nullable(), firstName: z.string(), lastName: z.string(), mobile: z.string().nullable() }),
    amount: z.number(),
    currency: z.string(),
    frequencyId: z.number().int(),
    frequencyName: z.string(),
    numberOfPayments: z.number().int().nullable().describe('payments in all, the first included; null until cancelled'),
    paymentsMade: z.number().int(),
    nextPaymentDate: z.string().nullable().describe('when the next charge (or the retry of a declined one) runs; null once none will'),
    failedAttempts: z.number().int().describe('declined charges of the current period in a row'),
    card: z.string().nullable().describe('brand and last four digits of the card kept for it'),
    dateCreated: z.string(),
    dateUpdated: z.string(),
    dateEnded: z.string().nullable(),
  })
  .meta({ id: 'Subscription' });
export type SubscriptionView = z.infer<typeof subscriptionSchema>;

export const subscriptionListResponseSchema = successEnvelope(z.array(subscriptionSchema)).meta({ id: 'SubscriptionList' });

/** The path's `{id}`: a subscription's id (`recurringPaymentId`) or its reference (`recurringPaymentReference`). */
export const recurringPaymentParamsSchema = z.object({ id: requiredText(64) });

/** The Java SDK sends `{"id"}` beside the path; the path decides. */
export const cancelRecurringPaymentBodySchema = z.object({ id: z.unknown().optional() }).passthrough().nullable().optional();

export const cancelRecurringPaymentResponseSchema = successEnvelope(z.null()).meta({ id: 'RecurringPaymentCancelled' });

/** A link's subscriptions: the link by its id or its reference. */
export const linkKeyParamsSchema = z.object({ link: requiredText(64) });
