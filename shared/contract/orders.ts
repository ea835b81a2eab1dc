import { z } from 'zod';
import { currencyCode } from '../fields.ts';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';

/**
 * The merchant's operations on its orders (secret key): find, list, search, export. The gateway's own order API
 * (create, status, verify, refund) keeps its wire shapes; these answers are this API's own: camelCase, amounts in
 * minor units beside a decimal string, timestamps ISO 8601 with a zone.
 */

/**
 * Where an order stands, as a merchant reads it: the gateway's status (1 Initiated, 2 Pending, 4 Failed,
 * 5 Successful, 6 Reversed) refined by its last attempt.
 */
export const ORDER_STATES = [
  'pending', // created, no attempt yet (never paid: an abandoned checkout once it is old)
  'processing', // an attempt is with the processor or the customer's bank (3-D Secure)
  'awaiting_transfer', // a transfer account is open and nothing arrived yet
  'underpaid', // money arrived on the transfer account, less than the order's amount
  'paid',
  'overpaid', // paid by a transfer of more than the amount (the excess is recorded for refund)
  'failed',
  'expired', // the last attempt's transfer account or 3-D Secure session expired
  'reversed', // everything went back to the customer
] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const orderStateSchema = z.enum(ORDER_STATES);

/** The ways a customer paid, as this API names them. */
export const PAYMENT_METHODS = ['card', 'bank_transfer'] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);

/** Who created the order: the merchant's server (secret key), the checkout in a browser, or a payment link's page. */
export const orderOriginSchema = z.enum(['server', 'widget', 'payment_link']);

export const moneySchema = z.object({
  amountMinor: z.number().int().meta({ description: "In the currency's minor units (kobo, cents)." }),
  amount: z.string().meta({ description: 'The same in major units, as a decimal string: `5000.00`.' }),
  currency: z.string(),
});

export const orderSummarySchema = z
  .object({
    reference: z.string(),
    origin: orderOriginSchema,
    state: orderStateSchema,
    statusId: z.number().int(),
    ...moneySchema.shape,
    description: z.string().nullable(),
    customer: z.object({
      id: z.string().meta({ description: 'The customer as this merchant knows it (`cus_...`): by e-mail, or by mobile number without one.' }),
      email: z.string().nullable(),
      name: z.string(),
      mobile: z.string().nullable(),
    }),
    payment: z
      .object({
        reference: z.string(),
        method: paymentMethodSchema,
        cardBrand: z.string().nullable(),
        cardLast4: z.string().nullable(),
        transferAccount: z.string().nullable(),
        transferBank: z.string().nullable(),
        receivedMinor: z.number().int(),
        feeMinor: z.number().int(),
        feeBearer: z.enum(['customer', 'merchant', 'shared']),
      })
      .nullable()
      .meta({ description: "The order's last attempt (the successful one once paid); null before any." }),
    linkReference: z.string().nullable(),
    subscriptionReference: z.string().nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: 'OrderSummary' });
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const commaList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter((part) => part !== '') : value),
    z.array(item).min(1).max(20),
  );

const majorAmount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,4})?$/, { message: 'must be an amount in major units, e.g. 5000 or 5000.50' });

/** The filters of the orders list and of its export. */
export const orderFiltersShape = {
  ...listQueryShape,
  q: z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(120, { message: 'must be at most 120 characters' })
    .optional()
    .meta({
      description:
        'One search box: an order or payment reference, a customer e-mail or phone, the last four digits of a card, a transfer account number or a payment link reference; exact or by prefix.',
    }),
  state: commaList(orderStateSchema).optional().meta({ description: 'One state or several, comma-separated.' }),
  method: paymentMethodSchema.optional(),
  currency: currencyCode.optional(),
  amountMin: majorAmount.optional().meta({ description: 'At least this amount (major units; with `currency`, or compared in each order’s own currency).' }),
  amountMax: majorAmount.optional(),
  link: z.string().trim().min(1).max(64).optional().meta({ description: "A payment link's reference: its orders." }),
  subscription: z.string().trim().min(1).max(64).optional().meta({ description: "A subscription's reference: its orders." }),
  customer: z.string().trim().min(5).max(700).optional().meta({ description: "A customer's id (`cus_...`): its orders." }),
};
export const orderListQuerySchema = z.object(orderFiltersShape);
export type OrderListQuery = z.output<typeof orderListQuerySchema>;

export const listOrders = endpoint({
  method: 'GET',
  path: '/checkout/orders',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List and search orders',
  description:
    'The orders of this merchant and mode, newest first, filtered and searched; a page of `limit` (at most 100) and the `nextCursor` of the next page (null on the last). ' +
    'Example: `GET /checkout/orders?state=paid,overpaid&method=card&from=2026-11-01&limit=50`, or `?q=4242` for cards ending 4242.',
  tags: ['Operations'],
  query: orderListQuerySchema,
  success: pageEnvelope(orderSummarySchema, 'OrderPage'),
  errors: ['VAL400'],
});

export const exportOrders = endpoint({
  method: 'GET',
  path: '/checkout/orders/export',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'Export orders as CSV',
  description:
    "Every order the same filters select (no `limit`: the whole list), as `text/csv`, streamed newest first. Columns, stable: see the README's \"Finding payments\" section.",
  tags: ['Operations'],
  query: orderListQuerySchema.omit({ limit: true, cursor: true }),
  success: z.string(),
  produces: 'text/csv',
  errors: ['VAL400'],
});
