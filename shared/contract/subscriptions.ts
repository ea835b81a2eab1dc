import { z } from 'zod';
import { SUBSCRIPTION_STATES } from '../subscriptions.ts';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { commaList, moneySchema } from './orders.ts';

/**
 * The merchant's subscriptions across its links (secret key): where each stands, its plan and its next charge.
 * The gateway's own per-link list (`GET /checkout/links/:link/subscriptions`) keeps its wire shape.
 */
export const subscriptionStateSchema = z.enum(SUBSCRIPTION_STATES);

export const subscriptionSummarySchema = z
  .object({
    id: z.number().int().meta({ description: 'The recurringPaymentId: what `PATCH /checkout/links/recurringpayment/{id}/cancel` takes.' }),
    reference: z.string(),
    state: subscriptionStateSchema,
    plan: z.object({
      frequencyId: z.number().int(),
      frequency: z.string().meta({ description: 'The frequency as `GET /checkout/frequencies` names it.' }),
      numberOfPayments: z.number().int().nullable().meta({ description: 'Payments in all, the first included; null: until cancelled.' }),
    }),
    ...moneySchema.shape,
    customer: z.object({
      id: z.string(),
      email: z.string().nullable(),
      name: z.string(),
      mobile: z.string().nullable(),
    }),
    linkReference: z.string().nullable(),
    firstOrderReference: z.string(),
    paymentsMade: z.number().int(),
    nextChargeAt: isoTimestamp.nullable().meta({ description: 'When the next charge (or the retry of a declined one) runs; null unless active.' }),
    createdAt: isoTimestamp,
    endedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'SubscriptionSummary' });
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

export const subscriptionListQuerySchema = z.object({
  ...listQueryShape,
  state: commaList(subscriptionStateSchema).optional().meta({ description: 'One state or several, comma-separated.' }),
  link: z.string().trim().min(1).max(64).optional().meta({ description: "A payment link's reference: its subscriptions." }),
  customer: z.string().trim().min(5).max(700).optional().meta({ description: "A customer's id (`cus_...`): its subscriptions." }),
});
export type SubscriptionListQuery = z.output<typeof subscriptionListQuerySchema>;

export const listSubscriptions = endpoint({
  method: 'GET',
  path: '/checkout/subscriptions',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List subscriptions',
  description:
    'Every subscription of this merchant and mode, newest first (`from`/`to` on when it started), filtered by state, link and customer. ' +
    'Example: `GET /checkout/subscriptions?state=active,past_due&link=PL-…`.',
  tags: ['Operations'],
  query: subscriptionListQuerySchema,
  success: pageEnvelope(subscriptionSummarySchema, 'SubscriptionPage'),
  errors: ['VAL400'],
});

export const exportSubscriptions = endpoint({
  method: 'GET',
  path: '/checkout/subscriptions/export',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'Export subscriptions as CSV',
  description: "Every subscription the same filters select, as `text/csv`, streamed newest first. Columns, stable: see the README's \"Finding payments\" section.",
  tags: ['Operations'],
  query: subscriptionListQuerySchema.omit({ limit: true, cursor: true }),
  success: z.string(),
  produces: 'text/csv',
  errors: ['VAL400'],
});
