import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { paymentLinkSchema } from './links.ts';
import { statusIdSchema } from './orders.ts';
import { orderPaymentSchema } from './payments.ts';

/** protocol.md 4.8: what a merchant's server reads before fulfilling an order (and what webhooks carry). */
export const verifyDataSchema = z
  .object({
    orderReference: z.string(),
    paymentReference: z.string().nullable(),
    totalAmountCharged: z.number(),
    amount: z.number(),
    statusId: statusIdSchema,
    status: z.string(),
    paymentMethod: z.string().nullable(),
    paymentResponseCode: z.string().nullable(),
    paymentResponseMessage: z.string().nullable(),
    narration: z.string().nullable(),
    remarks: z.string().nullable(),
    currencyName: z.string(),
    fee: z.number(),
    feeRate: z.number(),
    subsidiaryFee: z.number(),
    customerFee: z.number(),
    dateCreated: z.string(),
    dateUpdated: z.string().nullable(),
    datePaymentConfirmed: z.string().nullable(),
    orderPayments: z.array(
      orderPaymentSchema.extend({
        paymentOption: z.string(),
        dateCreated: z.string(),
        datePaymentConfirmed: z.string().nullable(),
        amountReceived: z.number().nullable(),
        excessAmount: z.number().nullable(),
      }),
    ),
    customer: z.object({ email: z.string(), firstName: z.string(), lastName: z.string(), mobile: z.string().nullable(), country: z.string().nullable() }),
    cardDetails: z.array(
      z.object({
        cardType: z.string().nullable(),
        cardFirstSixDigits: z.string().nullable(),
        cardLastFourDigits: z.string().nullable(),
        cardExpiry: z.string().nullable(),
        orderPaymentReference: z.string(),
      }),
    ),
    paymentLink: paymentLinkSchema.nullable(),
    subsidiary: z.object({ id: z.number(), name: z.string() }),
  })
  .meta({ id: 'VerifiedOrder' });
export type VerifyData = z.infer<typeof verifyDataSchema>;

export const verifyResponseSchema = successEnvelope(verifyDataSchema).meta({ id: 'VerifyOrderResponse' });
