import { z } from 'zod';
import { aliased } from './binding.ts';
import { blankToUndefined, optionalFreeText, optionalText, positiveAmount, requiredText } from './fields.ts';

/** The longest refund reason kept (card-like numbers in it are masked before it is stored). */
const MAX_REASON = 255;

const amount = z
  .preprocess(blankToUndefined, positiveAmount.optional())
  .describe("In the order's major units (NGN 100.50 is `100.5`). Absent: everything left to refund of the order's payment.");
const reason = optionalFreeText(MAX_REASON, { multiline: true }).describe('Why the money goes back, at most 255 characters; shown in verify and webhooks.');

/** The refund request as plain JSON (protocol.md 4.12), also what the encrypted `data` carries. */
export const refundPlainSchema = z
  .object({
    reference: aliased(requiredText(64), 'orderReference', 'orderreference'),
    amount,
    reason,
  })
  .meta({ id: 'RefundOrderPlain' });
export type RefundPlain = z.infer<typeof refundPlainSchema>;

/** The body: `{reference, amount?, reason?}` in the clear, or the same JSON encrypted in `data` (read when present). */
export const refundRequestSchema = z
  .object({
    reference: aliased(optionalText(64), 'orderReference', 'orderreference'),
    amount,
    reason,
    data: z.string().optional().describe('the encrypted `{"reference", "amount"?, "reason"?}`, as a JWE or the legacy RSA block'),
  })
  .superRefine((body, context) => {
    if (body.reference === undefined && body.data === undefined) context.addIssue({ code: 'custom', path: ['reference'], message: 'is required' });
  })
  .meta({ id: 'RefundOrderRequest' });

const int = () => z.number().int();

/** One refund as every surface shows it (the refund answer, verify's `refunds`, refund webhooks). */
export const refundSchema = z
  .object({
    refundReference: z.string(),
    orderReference: z.string(),
    paymentReference: z.string().describe('the order payment whose money goes back'),
    amount: z.number(),
    currency: z.string(),
    reason: z.string().nullable(),
    statusId: int().describe('2 Pending (being confirmed with the processor), 4 Failed, 5 Successful'),
    status: z.string(),
    responseCode: z.string().nullable().describe('`00`, or the ISO 8583 decline code; null while pending'),
    responseMessage: z.string().nullable(),
    processorReference: z.string().nullable(),
    dateCreated: z.string(),
    dateUpdated: z.string(),
    dateCompleted: z.string().nullable(),
  })
  .meta({ id: 'Refund' });
export type RefundData = z.infer<typeof refundSchema>;

export const refundAnswerDataSchema = z.object({
  refund: refundSchema,
  order: z.object({
    orderReference: z.string(),
    statusId: int(),
    status: z.string(),
    currency: z.string(),
    amountPaid: z.number().describe('everything the order took from the customer that may be refunded'),
    amountRefunded: z.number().describe('what successful refunds sent back'),
    amountRefundable: z.number().describe('what may still be refunded (refunds being confirmed hold their amount)'),
  }),
});
export type RefundAnswerData = z.infer<typeof refundAnswerDataSchema>;

/**
 * `00` refunded, `02` being confirmed with the processor (check verify), or `status: failed` with the ISO 8583
 * decline code as `statusCode` and the refund in `data` (nothing went back).
 */
export const refundResponseSchema = z
  .object({
    status: z.enum(['success', 'failed']),
    statusCode: z.string(),
    message: z.string(),
    data: refundAnswerDataSchema,
  })
  .meta({ id: 'RefundOrderResponse' });
export type RefundResponse = z.infer<typeof refundResponseSchema>;
