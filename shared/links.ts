import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { blankToUndefined, currencyCode, httpUrl, optionalText, positiveAmount, requiredText, wholeNumber } from './fields.ts';

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

export const createLinkRequestSchema = z
  .object({
    Name: requiredText(200),
    Description: requiredText(2000, { multiline: true }),
    PaymentType: z.preprocess(upper, z.enum(['SC', 'MC', 'SUB'])),
    Currency: currencyCode,
    AuthOption: z.preprocess(upper, z.enum(AUTH_OPTIONS)),
    Amount: z.preprocess(blankToUndefined, positiveAmount.optional()),
    Mobile: optionalText(20),
    BackgroundImage: z.preprocess(blankToUndefined, httpUrl.optional()),
    Website: z.preprocess(blankToUndefined, httpUrl.optional()),
    Limit: z.preprocess(
      blankToUndefined,
      wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }).max(1_000_000)).optional(),
    ),
  })
  .meta({ id: 'CreatePaymentLinkRequest' });
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>;

export const subsidiarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    country: z.string().length(2),
    supportEmail: z.string(),
    customization: z.array(z.record(z.string(), z.unknown())).nullable(),
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
    paymentLinkCode: z.string(),
    description: z.string(),
    authOption: z.enum(AUTH_OPTIONS),
    website: z.string().nullable(),
    backgroundImage: z.string().nullable(),
    mobile: z.string().nullable(),
  })
  .meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

export const createLinkResponseSchema = successEnvelope(
  z.object({ paymentLink: paymentLinkSchema, subsidiary: subsidiarySchema }),
).meta({ id: 'CreatePaymentLinkResponse' });
export type CreateLinkResponse = z.infer<typeof createLinkResponseSchema>;
