import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { blankToUndefined, currencyCode, httpUrl, optionalText, partialUpdate, positiveAmount, positiveId, requiredFreeText, requiredText, wholeNumber } from './fields.ts';
import { CATALOGUE_RECORD, catalogueRecordShape } from './catalogue.ts';

/** protocol.md 4.1. Keys bind case-insensitively; `Amount` and `Limit` may arrive as strings or numbers. */
export const PAYMENT_TYPES = {
  SC: 'Single Charge',
  MC: 'Multiple Charge',
  SUB: 'Subscription Payments',
} as const;
export type PaymentType = keyof typeof PAYMENT_TYPES;

export const AUTH_OPTIONS = ['AUTH', 'NOAUTH'] as const;
export type AuthOption = (typeof AUTH_OPTIONS)[number];

const upper = (value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/** A whole link request a client could send as it is: the example `/docs` offers in "Try it out". */
export const LINK_REQUEST_EXAMPLE = {
  Name: 'Spring sale',
  Description: 'Two tickets to the spring concert.',
  PaymentType: 'SC',
  Currency: 'NGN',
  AuthOption: 'AUTH',
  Amount: '5800.50',
  Website: 'https://shop.example/thanks',
  Limit: 1,
};

export const createLinkRequestSchema = z
  .object({
    Name: requiredFreeText(200).meta({ description: 'What the customer pays for, shown as the page title.', example: 'Spring sale' }),
    Description: requiredFreeText(2000, { multiline: true }).meta({ description: 'Shown under the name on the payment page.', example: 'Two tickets to the spring concert.' }),
    PaymentType: z.preprocess(upper, z.enum(['SC', 'MC', 'SUB'])).meta({ description: 'SC: one payment; MC: many payments; SUB: subscription payments.', example: 'SC' }),
    Currency: currencyCode.meta({ description: 'ISO 4217 code.', example: 'NGN' }),
    AuthOption: z.preprocess(upper, z.enum(AUTH_OPTIONS)).meta({ description: 'AUTH: 3-D Secure for cards; NOAUTH: none.', example: 'AUTH' }),
    Amount: z
      .preprocess(blankToUndefined, positiveAmount.optional())
      .meta({ description: 'In major units (5800.50 is NGN 5,800.50, not kobo). Absent or empty: the customer types the amount.', example: '5800.50' }),
    Mobile: optionalText(20).meta({ description: "The merchant's contact number shown on the page.", example: '+234 801 234 5678' }),
    BackgroundImage: z.preprocess(blankToUndefined, httpUrl.optional()).meta({ description: 'An http(s) image shown at the top of the page.', example: 'https://shop.example/spring.jpg' }),
    Website: z.preprocess(blankToUndefined, httpUrl.optional()).meta({ description: 'Where the customer goes after paying, with reference and status.', example: 'https://shop.example/thanks' }),
    Limit: z
      .preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }).max(1_000_000)).optional())
      .meta({ description: 'How many payments the link takes (a single-charge link takes one).', example: 1 }),
    /** This service's extension for SUB links: the plan's frequency (an id of /checkout/frequencies; Monthly when absent). */
    FrequencyId: z
      .preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }).max(11, { message: 'must be at most 11' })).optional())
      .meta({ description: 'SUB links only: the plan frequency, an id of GET /checkout/frequencies (Monthly when absent).', example: 6 }),
    /** This service's extension for SUB links: how many payments in all, the first included (absent: until cancelled). */
    NumberOfPayments: z
      .preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }).max(1000)).optional())
      .meta({ description: 'SUB links only: how many payments in all, the first included (absent: until cancelled).', example: 12 }),
  })
  .meta({ id: 'CreatePaymentLinkRequest', example: LINK_REQUEST_EXAMPLE });
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>;

export const subsidiarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    country: z.string().length(2),
    supportEmail: z.string(),
    customization: z.array(z.record(z.string(), z.unknown())).describe('the checkout customization; [] when none'),
    logo: z.string().nullable().describe("The merchant's logo (an https address), shown in the checkout's header; null shows its initials. This service's addition."),
  })
  .meta({ id: 'Subsidiary' });
export type Subsidiary = z.infer<typeof subsidiarySchema>;

export const paymentLinkSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    paymentType: z.enum(['SC', 'MC', 'SUB']),
    logo: z.string().nullable(),
    amount: z.number().nullable().describe('null when the customer types the amount on the payment page'),
    dateCreated: z.string(),
    reference: z.string(),
    createdBy: z.string(),
    creatorEmail: z.string(),
    isActive: z.boolean(),
    currency: z.string(),
    limit: z.number().int().describe('how many payers may use the link; 0 means no limit'),
    paymentLinkUrl: z.string(),
    appEnvironmentId: z.union([z.literal(1), z.literal(2)]).describe('1 test, 2 live'),
    paymentLinkType: z.enum(['Single Charge', 'Multiple Charge', 'Subscription Payments']),
    paymentLinkCode: z.enum(['SC', 'MC', 'SUB']).describe("the short code of the link's type"),
    description: z.string(),
    authOption: z.enum(AUTH_OPTIONS),
    website: z.string().nullable(),
    backgroundImage: z.string().nullable(),
    mobile: z.string().nullable(),
    supportCode: z.string().describe('a short human code (`PL` and 10 characters) to quote to support'),
    paymentCount: z.number().int().describe('payments completed through the link'),
    frequencyId: z.number().int().nullable().describe("a SUB link's plan: its frequency id; null for other links"),
    numberOfPayments: z.number().int().nullable().describe("a SUB link's plan: payments in all, the first included; null until cancelled (or not a SUB link)"),
  })
  .meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

export const createLinkResponseSchema = successEnvelope(
  z.object({ paymentLink: paymentLinkSchema, subsidiary: subsidiarySchema }),
).meta({ id: 'CreatePaymentLinkResponse' });
export type CreateLinkResponse = z.infer<typeof createLinkResponseSchema>;

/**
 * Edit changes only the members it is given: an absent, `null` or blank member keeps the link's value (the Java SDK
 * sends every member it was not told about as `null`). Reference, URL, currency and payments stay.
 */
export const editLinkRequestSchema = partialUpdate(createLinkRequestSchema.omit({ Currency: true }).shape).meta({
  id: 'EditPaymentLinkRequest',
  example: { Name: 'Spring sale (last days)', Amount: '4500' },
});
export type EditLinkRequest = z.infer<typeof editLinkRequestSchema>;

export const linkIdParamsSchema = z.object({ id: positiveId });

export const listLinksQuerySchema = z.object({
  page: z.preprocess(blankToUndefined, positiveId.optional()),
  limit: z.preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }).max(100)).optional()),
});

export const listLinksResponseSchema = successEnvelope(z.array(paymentLinkSchema))
  .extend({
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .meta({ id: 'PaymentLinkList' });

export const paymentLinkTypeSchema = z.object({
  id: z.number().int(),
  code: z.enum(['SC', 'MC', 'SUB']),
  paymentLinkName: z.enum(['Single Charge', 'Multiple Charge', 'Subscription Payments']),
  description: z.string(),
  status: z.boolean(),
  ...catalogueRecordShape,
});

/** protocol.md 4.10: the link types' catalogue ids are the gateway's (SC 1, MC 2, SUB 5). */
export const PAYMENT_LINK_TYPES: readonly z.infer<typeof paymentLinkTypeSchema>[] = (
  [
    [1, 'SC', 'A link a customer pays once.'],
    [2, 'MC', 'A link many customers may pay, each once.'],
    [5, 'SUB', 'A link that charges its payer at each period of a frequency.'],
  ] as const
).map(([id, code, description]) => ({
  id,
  code,
  paymentLinkName: PAYMENT_TYPES[code],
  description,
  status: true,
  ...CATALOGUE_RECORD,
}));

export const linkTypesResponseSchema = z
  .object({ status: z.literal('success'), statusCode: z.literal('00'), message: z.string(), paymentLinkTypes: z.array(paymentLinkTypeSchema) })
  .meta({ id: 'PaymentLinkTypes' });

export const linkStatusResponseSchema = successEnvelope(z.null()).meta({ id: 'PaymentLinkStatusChanged' });
