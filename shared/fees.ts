import { z } from 'zod';
import { aliased } from './binding.ts';
import { successEnvelope } from './envelope.ts';
import { currencyCode, optionalText, positiveAmount } from './fields.ts';
import { paymentOptionCode } from './payments.ts';

/** protocol.md 4.5: query order fee. */
export const feePlainSchema = z
  .object({
    amount: positiveAmount,
    currency: z.preprocess((value) => (value === undefined || value === null || value === '' ? 'NGN' : value), currencyCode),
    paymentoption: aliased(paymentOptionCode, 'paymentOption', 'paymentmethod', 'paymentMethod'),
    reference: aliased(optionalText(64), 'orderReference', 'orderreference').describe(
      "optional: quote from the order's own fee rules, exactly what paying it will charge",
    ),
  })
  .meta({ id: 'FeeQueryPlain', example: { amount: 12500, currency: 'NGN', paymentoption: 'C', reference: 'ORDER-1042' } });
export type FeePlain = z.infer<typeof feePlainSchema>;

export const feeQuoteSchema = z.object({
  fee: z.number(),
  amount: z.number(),
  subsidiaryFee: z.number(),
  customerFee: z.number(),
  totalChargedAmount: z.number(),
  paymentOption: z.string(),
  currency: z.string(),
  bearer: z.enum(['customer', 'merchant', 'split']),
});
export type FeeQuote = z.infer<typeof feeQuoteSchema>;

export const feeResponseSchema = successEnvelope(feeQuoteSchema).meta({ id: 'FeeResponse' });
export type FeeResponse = z.infer<typeof feeResponseSchema>;
