import { z } from 'zod';
import { aliased } from './binding.ts';
import { successEnvelope } from './envelope.ts';
import { optionalText } from './fields.ts';
import { paymentLinkSchema } from './links.ts';
import { statusIdSchema } from './orders.ts';
import { orderPaymentSchema } from './payments.ts';
import { refundSchema } from './refunds.ts';

/**
 * Verify's request (protocol.md 4.8): `{"reference"}` in the clear, or the same JSON encrypted in `data` (the
 * gateway's Java and Dart clients encrypt it). Exactly one of the two is read: `data` when present.
 */
export const verifyRequestSchema = z
  .object({
    reference: aliased(optionalText(64), 'orderReference', 'orderreference'),
    data: z.string().optional().describe('the encrypted `{"reference"}`, as a JWE or the legacy RSA block'),
  })
  .superRefine((body, context) => {
    if (body.reference === undefined && body.data === undefined) context.addIssue({ code: 'custom', path: ['reference'], message: 'is required' });
  })
  .meta({ id: 'VerifyOrderRequest', example: { reference: 'ORDER-1042' } });

const int = () => z.number().int();

/** protocol.md 4.8: what a merchant's server reads before fulfilling an order (and what webhooks carry). */
export const verifyDataSchema = z
  .object({
    orderReference: z.string(),
    paymentReference: z.string().nullable(),
    productName: z.string(),
    totalAmountCharged: z.number(),
    amount: z.number(),
    statusId: statusIdSchema,
    status: z.string(),
    paymentMethod: z.string().nullable(),
    paymentResponseCode: z.string().nullable(),
    paymentResponseMessage: z.string().nullable(),
    narration: z.string().nullable(),
    remarks: z.string().nullable(),
    currencyId: int().describe('ISO 4217 numeric code (NGN 566, USD 840)'),
    currencyName: z.string(),
    paymentLinkId: int().nullable(),
    paymentLinkReference: z.string().nullable(),
    recurringPaymentId: int().nullable(),
    recurringPaymentReference: z.string().nullable(),
    recurringPeriod: int().nullable().describe('for a recurring charge, the period of its subscription it pays (2, 3, ...); null otherwise'),
    fee: z.number(),
    feeRate: z.number(),
    subsidiaryFee: z.number(),
    customerFee: z.number(),
    dateCreated: z.string(),
    dateUpdated: z.string().nullable(),
    datePaymentConfirmed: z.string().nullable(),
    orderPayments: z.array(
      orderPaymentSchema.extend({
        paymentOptionId: int().describe('1 card, 2 bank transfer'),
        paymentOption: z.string(),
        status: z.string(),
        responseCode: z.string(),
        responseMessage: z.string(),
        dateCreated: z.string(),
        dateUpdated: z.string(),
        datePaymentConfirmed: z.string().nullable(),
        amountReceived: z.number().nullable(),
        excessAmount: z.number().nullable(),
      }),
    ),
    customer: z.object({
      customerId: z.string().describe('a numeric string: the Flutter SDK reads a String, Jackson reads it into an Integer'),
      firstName: z.string(),
      lastName: z.string(),
      emailAddress: z.string().nullable(),
      mobileNumber: z.string().nullable(),
      countryShortName: z.string().nullable(),
      email: z.string().nullable(),
      mobile: z.string().nullable(),
      country: z.string().nullable(),
    }),
    cardDetails: z.array(
      z.object({
        orderPaymentId: int(),
        status: z.boolean().describe('true when this card paid the order'),
        country: z.string().nullable(),
        cardToken: z.string().nullable().describe("the saved card's token when the customer saved it"),
        cardExpiryMonth: z.string().nullable(),
        cardExpiryYear: z.string().nullable(),
        cardType: z.string().nullable(),
        cardIssuer: z.string().nullable(),
        cardFirstSixDigits: z.string().nullable(),
        cardLastFourDigits: z.string().nullable(),
        dateCreated: z.string(),
        appEnvironmentId: z.union([z.literal(1), z.literal(2)]).describe('1 test, 2 live'),
        cardExpiry: z.string().nullable(),
        orderPaymentReference: z.string(),
      }),
    ),
    paymentLink: paymentLinkSchema.nullable(),
    amountRefunded: z.number().describe('what successful refunds sent back to the customer'),
    amountRefundable: z.number().describe('what may still be refunded (refunds being confirmed hold their amount)'),
    refunds: z.array(refundSchema).describe('every refund of the order, oldest first'),
    subsidiary: z.object({ id: int(), name: z.string() }),
    orderOrigin: z
      .enum(['server', 'browser'])
      .describe("Who created the order: your server (secret key) or a browser (publishable key). Before fulfilling a browser-made order, check its amount and currency."),
  })
  .meta({ id: 'VerifiedOrder' });
export type VerifyData = z.infer<typeof verifyDataSchema>;

export const verifyResponseSchema = successEnvelope(verifyDataSchema).meta({ id: 'VerifyOrderResponse' });
