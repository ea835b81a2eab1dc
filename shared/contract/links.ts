import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { orderFiltersShape, orderSummarySchema } from './orders.ts';

/**
 * The merchant's payment links as operations see them (secret key). The paths are `/checkout/payment-links`, not
 * `/checkout/links/...`: the gateway's own link routes own that prefix with parameters in the second segment
 * (`/checkout/links/:id/edit`, `/checkout/links/:link/subscriptions`), so a link reference such as `all` or `types`
 * would be ambiguous there.
 */
export const LINK_TYPES = ['SC', 'MC', 'SUB'] as const;

export const linkSummarySchema = z
  .object({
    id: z.number().int(),
    reference: z.string(),
    name: z.string(),
    description: z.string(),
    type: z.enum(LINK_TYPES).meta({ description: 'SC single charge, MC multiple charge, SUB subscription.' }),
    active: z.boolean(),
    currency: z.string(),
    amountMinor: z.number().int().nullable().meta({ description: 'Null: the payer chooses the amount.' }),
    amount: z.string().nullable(),
    payerLimit: z.number().int().meta({ description: 'Payments the link takes in all; 0: no limit.' }),
    payments: z.number().int().meta({ description: 'Payments completed through the link.' }),
    plan: z
      .object({ frequencyId: z.number().int().nullable(), numberOfPayments: z.number().int().nullable() })
      .nullable()
      .meta({ description: "A SUB link's plan; null for other links." }),
    url: z.string(),
    createdAt: isoTimestamp,
  })
  .meta({ id: 'PaymentLinkSummary' });
export type LinkSummary = z.infer<typeof linkSummarySchema>;

const activeFlag = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((text) => text === 'true');

export const linkListQuerySchema = z.object({
  ...listQueryShape,
  type: z.enum(LINK_TYPES).optional(),
  active: activeFlag.optional(),
  q: z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(120, { message: 'must be at most 120 characters' })
    .optional()
    .meta({ description: "The start of the link's name (any case) or of its reference." }),
});
export type LinkListQuery = z.output<typeof linkListQuerySchema>;

export const linkParamsSchema = z.object({
  idOrReference: z.string().trim().min(1).max(64).meta({ description: "The link's numeric id or its reference." }),
});

const { link: _link, ...linkOrderFilters } = orderFiltersShape;
export const linkOrdersQuerySchema = z.object(linkOrderFilters);

export const listPaymentLinks = endpoint({
  method: 'GET',
  path: '/checkout/payment-links',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List payment links',
  description: 'The payment links of this merchant and mode, newest first, by type, active or not, and name or reference prefix. Example: `GET /checkout/payment-links?type=SUB&active=true`.',
  tags: ['Operations'],
  query: linkListQuerySchema,
  success: pageEnvelope(linkSummarySchema, 'PaymentLinkPage'),
  errors: ['VAL400'],
});

export const getPaymentLink = endpoint({
  method: 'GET',
  path: '/checkout/payment-links/:idOrReference',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'A payment link',
  description: 'One payment link by its numeric id or its reference.',
  tags: ['Operations'],
  params: linkParamsSchema,
  success: successEnvelope(linkSummarySchema),
  errors: ['VAL400', 'NF404'],
});

export const listPaymentLinkOrders = endpoint({
  method: 'GET',
  path: '/checkout/payment-links/:idOrReference/orders',
  auth: 'secret',
  permission: 'orders.read',
  summary: "A payment link's orders",
  description: "The link's orders, as the orders list shows them and with its filters (but `link`).",
  tags: ['Operations'],
  params: linkParamsSchema,
  query: linkOrdersQuerySchema,
  success: pageEnvelope(orderSummarySchema, 'PaymentLinkOrderPage'),
  errors: ['VAL400', 'NF404'],
});
