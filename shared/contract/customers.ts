import { z } from 'zod';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { orderSummarySchema } from './orders.ts';
import { subscriptionSummarySchema } from './subscriptions.ts';
import { successEnvelope } from '../envelope.ts';

/**
 * The merchant's customers (secret key). A checkout keeps the customer details of each order with the order, so a
 * customer here is an identity across orders: its lower-cased e-mail, or its mobile number when it gave none
 * (`cus_...`, the same id the orders list shows and filters by). Its name, mobile and country are the latest order's.
 */
const customerIdSchema = z
  .string()
  .trim()
  .min(5)
  .max(700)
  .regex(/^cus_[A-Za-z0-9_-]+$/, { message: 'must be a customer id (cus_...) this API gave' });

export const moneyTotalSchema = z.object({
  currency: z.string(),
  amountMinor: z.number().int(),
  amount: z.string().meta({ description: 'The same in major units, as a decimal string.' }),
});

export const customerSummarySchema = z
  .object({
    id: customerIdSchema.meta({ description: 'The customer as this merchant knows it: by e-mail, or by mobile number without one.' }),
    email: z.string().nullable(),
    name: z.string().meta({ description: "The latest order's name." }),
    mobile: z.string().nullable().meta({ description: "The latest order's mobile number." }),
    country: z.string().nullable(),
    ordersCount: z.number().int(),
    paidCount: z.number().int().meta({ description: 'Orders paid (in full or more) and not reversed.' }),
    totalPaid: z.array(moneyTotalSchema).meta({ description: 'The amounts of its paid orders, one total per currency.' }),
    firstOrderAt: isoTimestamp,
    lastOrderAt: isoTimestamp,
  })
  .meta({ id: 'CustomerSummary' });
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const savedCardSummarySchema = z
  .object({
    id: z.string().meta({ description: 'What revoking the card takes (`card_...`); never the card or its token.' }),
    brand: z.string(),
    last4: z.string(),
    expiry: z.string().meta({ description: 'MM/YY' }),
    savedAt: isoTimestamp,
  })
  .meta({ id: 'SavedCardSummary' });

export const customerDetailSchema = customerSummarySchema
  .extend({
    orders: z
      .object({ items: z.array(orderSummarySchema), nextCursor: z.string().nullable() })
      .meta({ description: 'Its newest orders; the next page is `GET /checkout/orders?customer={id}&cursor={nextCursor}`.' }),
    subscriptions: z.array(subscriptionSummarySchema).meta({ description: 'Its subscriptions, newest first (at most 100).' }),
    cards: z.array(savedCardSummarySchema).meta({ description: "The cards saved by the shoppers (customers your server vouched for) whose orders carry this customer's identity." }),
  })
  .meta({ id: 'CustomerDetail' });

const search = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(120, { message: 'must be at most 120 characters' })
  .optional()
  .meta({ description: 'The start of an e-mail address (any case) or of a mobile number (with or without `+`).' });

export const customerListQuerySchema = z.object({
  ...listQueryShape,
  from: listQueryShape.from.meta({ description: 'Customers whose last order is at or after this time.' }),
  to: listQueryShape.to.meta({ description: 'Customers whose last order is before this time.' }),
  q: search,
});
export type CustomerListQuery = z.output<typeof customerListQuerySchema>;

export const customerParamsSchema = z.object({ customerId: customerIdSchema });
export const customerCardParamsSchema = z.object({
  customerId: customerIdSchema,
  cardId: z.string().trim().regex(/^card_\d{1,12}$/, { message: 'must be a saved card id (card_...) this API gave' }),
});

export const listCustomers = endpoint({
  method: 'GET',
  path: '/checkout/customers',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List customers',
  description:
    'One item per customer (an e-mail, or a mobile number without one) of this merchant and mode, newest customer first (by its first order: ' +
    'a page never shifts when a listed customer orders again), with its order counts and paid totals. ' +
    'Example: `GET /checkout/customers?q=ada@&from=2026-11-01&limit=50`.',
  tags: ['Operations'],
  query: customerListQuerySchema,
  success: pageEnvelope(customerSummarySchema, 'CustomerPage'),
  errors: ['VAL400'],
});

export const exportCustomers = endpoint({
  method: 'GET',
  path: '/checkout/customers/export',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'Export customers as CSV',
  description: "Every customer the same filters select, as `text/csv`, streamed. Columns, stable: see the README's \"Finding payments\" section.",
  tags: ['Operations'],
  query: customerListQuerySchema.omit({ limit: true, cursor: true }),
  success: z.string(),
  produces: 'text/csv',
  errors: ['VAL400'],
});

export const getCustomer = endpoint({
  method: 'GET',
  path: '/checkout/customers/:customerId',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'A customer, its orders, subscriptions and saved cards',
  description: 'The customer with its newest 25 orders (the next page through the orders list), its subscriptions and its saved cards (brand, last four, expiry).',
  tags: ['Operations'],
  params: customerParamsSchema,
  success: successEnvelope(customerDetailSchema),
  errors: ['VAL400', 'NF404'],
});

export const revokeCustomerCard = endpoint({
  method: 'DELETE',
  path: '/checkout/customers/:customerId/cards/:cardId',
  auth: 'secret',
  permission: 'customers.manage',
  summary: "Revoke a customer's saved card",
  description: 'The card is no longer offered at checkout and a payment with its token is refused. Subscriptions keep the card they were started with (cancel them to stop their charges).',
  tags: ['Operations'],
  params: customerCardParamsSchema,
  success: successEnvelope(z.object({ id: z.string(), revoked: z.literal(true) })),
  errors: ['VAL400', 'NF404'],
});
