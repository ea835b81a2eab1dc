import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { requiredFreeText } from '../fields.ts';
import { isoTimestamp } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { moneySchema, orderSummarySchema, paymentMethodSchema } from './orders.ts';

/**
 * One order as a merchant investigates it (secret key): the order with its items, every attempt, its refunds and
 * the fee each attempt was quoted, and one timeline of everything that happened to it, oldest first, built from
 * the rows the payments core already keeps (nothing here writes to it). Notes are the merchant's own entries.
 */

/** Who did what: the customer, the merchant's server (secret key), the checkout in a browser, a payment link's page, this service, the processor or a signed-in team member. */
export const TIMELINE_ACTORS = ['customer', 'merchant_server', 'widget', 'link_page', 'system', 'processor', 'team_member'] as const;
export const timelineActorSchema = z.enum(TIMELINE_ACTORS);

const paymentReference = z.string();
const feeBearerSchema = z.enum(['customer', 'merchant', 'shared']);

const feeRuleSchema = z
  .object({
    option: z.string(),
    currency: z.string(),
    percentBasisPoints: z.number().int(),
    flatMinor: z.number().int(),
    flatWaivedBelowMinor: z.number().int(),
    capMinor: z.number().int().nullable(),
    bearer: z.enum(['customer', 'merchant', 'split']),
    customerShareBasisPoints: z.number().int(),
  })
  .meta({ id: 'FeeRule', description: "The rule of the order's fee rules that priced the attempt (the most specific for its method and currency)." });

const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: isoTimestamp,
  finishedAt: isoTimestamp.nullable(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
});

/** Each entry type with the details it carries beside `at`, `actor` and `type`. */
const ENTRY_DETAILS = {
  order_created: {
    origin: z.enum(['server', 'widget', 'payment_link', 'subscription']),
    linkReference: z.string().nullable(),
    subscriptionReference: z.string().nullable(),
    ...moneySchema.shape,
  },
  fee_quoted: {
    paymentReference,
    method: paymentMethodSchema,
    rule: feeRuleSchema.nullable(),
    bearer: feeBearerSchema,
    feeMinor: z.number().int(),
    customerFeeMinor: z.number().int(),
    merchantFeeMinor: z.number().int(),
    totalMinor: z.number().int(),
  },
  attempt_started: { paymentReference, method: paymentMethodSchema },
  three_d_secure_opened: { paymentReference },
  three_d_secure_answered: { paymentReference },
  transfer_account_issued: { paymentReference, account: z.string().nullable(), bank: z.string().nullable(), expiresAt: isoTimestamp.nullable() },
  money_received: {
    paymentReference,
    expectedMinor: z.number().int().meta({ description: 'What the customer had to send: the amount with the fee the customer bears.' }),
    receivedMinor: z.number().int().nullable().meta({ description: 'Everything received on the account so far (null when not recorded).' }),
    acceptedMinor: z.number().int().nullable().meta({ description: 'What pays the order: at most the expected amount.' }),
    excessMinor: z.number().int().meta({ description: 'Received beyond the expected amount: recorded for refund.' }),
    complete: z.boolean(),
  },
  payment_approved: { paymentReference, responseCode: z.string(), rawResponseCode: z.string().nullable(), message: z.string() },
  payment_declined: {
    paymentReference,
    responseCode: z.string().meta({ description: 'The normalised ISO 8583 code (05, 51, ...).' }),
    rawResponseCode: z.string().nullable().meta({ description: "The processor's own code." }),
    reason: z.string().nullable(),
    message: z.string(),
  },
  attempt_expired: { paymentReference, reason: z.string().nullable() },
  attempt_superseded: { paymentReference },
  payment_reversed: { paymentReference },
  processor_answer_unknown: { paymentReference },
  refund_requested: { refundReference: z.string(), paymentReference, ...moneySchema.shape, reason: z.string().nullable() },
  refund_succeeded: { refundReference: z.string(), responseCode: z.string().nullable(), message: z.string().nullable() },
  refund_failed: { refundReference: z.string(), responseCode: z.string().nullable(), message: z.string().nullable() },
  refund_answer_unknown: { refundReference: z.string() },
  subscription_started: { subscriptionReference: z.string().nullable() },
  webhook_delivery: {
    deliveryId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    endpointUrl: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    resendOf: z.string().nullable(),
    attempts: z.array(webhookAttemptSchema),
  },
  customer_event: { name: z.string(), detail: z.record(z.string(), z.unknown()).nullable() },
  note: { text: z.string(), author: z.string().nullable().meta({ description: 'The team member who wrote it; null for the merchant’s server.' }) },
} as const;

export type TimelineType = keyof typeof ENTRY_DETAILS;
export const TIMELINE_TYPES = Object.keys(ENTRY_DETAILS) as TimelineType[];

const entryOf = <T extends TimelineType>(type: T) =>
  z.object({ at: isoTimestamp, actor: timelineActorSchema, type: z.literal(type), ...ENTRY_DETAILS[type] });

type EntrySchemas = { [T in TimelineType]: ReturnType<typeof entryOf<T>> };
const entrySchemas = Object.fromEntries(TIMELINE_TYPES.map((type) => [type, entryOf(type)])) as unknown as EntrySchemas;

export const timelineEntrySchema = z
  .discriminatedUnion('type', Object.values(entrySchemas) as unknown as [EntrySchemas[TimelineType], ...EntrySchemas[TimelineType][]])
  .meta({ id: 'TimelineEntry' });
export type TimelineEntry = { [T in TimelineType]: z.input<EntrySchemas[T]> }[TimelineType];

export const attemptSchema = z
  .object({
    reference: z.string(),
    method: paymentMethodSchema,
    statusId: z.number().int(),
    stage: z.enum(['processing', 'authentication', 'transfer', 'done']),
    responseCode: z.string(),
    rawResponseCode: z.string().nullable(),
    reason: z.string().nullable(),
    message: z.string(),
    processor: z.string(),
    amountMinor: z.number().int(),
    feeMinor: z.number().int(),
    customerFeeMinor: z.number().int(),
    merchantFeeMinor: z.number().int(),
    totalMinor: z.number().int(),
    feeBearer: feeBearerSchema,
    cardBrand: z.string().nullable(),
    cardLast4: z.string().nullable(),
    transferAccount: z.string().nullable(),
    transferBank: z.string().nullable(),
    transferExpiresAt: isoTimestamp.nullable(),
    receivedMinor: z.number().int(),
    excessMinor: z.number().int(),
    createdAt: isoTimestamp,
    confirmedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'PaymentAttempt' });

export const REFUND_STATES = ['processing', 'succeeded', 'failed'] as const;
export const refundStateSchema = z.enum(REFUND_STATES);

export const orderRefundSchema = z
  .object({
    reference: z.string(),
    paymentReference: z.string(),
    state: refundStateSchema,
    ...moneySchema.shape,
    reason: z.string().nullable(),
    responseCode: z.string().nullable(),
    responseMessage: z.string().nullable(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'OrderRefund' });

export const orderDetailSchema = orderSummarySchema
  .extend({
    items: z
      .array(z.object({ name: z.string(), amountMinor: z.number().int(), amount: z.string() }))
      .meta({ description: 'The line items the order was created with (one `Summary` line when it gave none).' }),
    attempts: z.array(attemptSchema).meta({ description: 'Every attempt, oldest first, each with the fee it was quoted.' }),
    refunds: z.array(orderRefundSchema),
  })
  .meta({ id: 'OrderDetail' });
export type OrderDetail = z.input<typeof orderDetailSchema>;

const referenceParams = z.object({ reference: z.string().trim().min(1).max(64) });

export const getOrder = endpoint({
  method: 'GET',
  path: '/checkout/orders/:reference',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'One order and its timeline',
  description:
    'The order with its items, every attempt, its refunds and fees, and its `timeline`: every step (created, fee quoted, attempts, 3-D Secure, transfers, ' +
    'approvals and declines with their codes, expiries, refunds, each webhook delivery with its attempts, the customer’s tracked events, notes), oldest first. ' +
    'When the merchant’s server and a browser made orders with one reference, this is the server’s.',
  tags: ['Operations'],
  params: referenceParams,
  success: successEnvelope(z.object({ order: orderDetailSchema, timeline: z.array(timelineEntrySchema) }).meta({ id: 'OrderWithTimeline' })),
  errors: ['VAL400', 'NF404'],
});

export const noteBodySchema = z.object({ text: requiredFreeText(2000, { multiline: true }) });

export const addOrderNote = endpoint({
  method: 'POST',
  path: '/checkout/orders/:reference/notes',
  auth: 'secret',
  permission: 'customers.manage',
  summary: 'Add a note to an order',
  description: 'A note of 1 to 2000 characters on the order’s timeline (card-like numbers are masked before it is stored). Answers the note’s timeline entry.',
  tags: ['Operations'],
  params: referenceParams,
  body: noteBodySchema,
  success: successEnvelope(entrySchemas.note),
  errors: ['VAL400', 'NF404'],
});
