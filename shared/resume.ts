import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { createOrderDataSchema } from './orders.ts';
import { payOrderResponseSchema } from './payments.ts';

/**
 * Resume an order (`POST /checkout/order/resume`, encrypted `{"reference"}`): what the checkout needs to show an
 * order it did not create in this page, from the server rather than from the browser's storage. A checkout framed by
 * a page of another site often has no storage at all (browsers that block third-party storage refuse it), so after
 * a reload, a reopened modal or the return from the bank it asks here: the order as its create answer shows it, and
 * the latest payment attempt as the pay answer showed it (the bank's authentication page of a card payment, the
 * account of a transfer), or null before any.
 */
export const resumeOrderDataSchema = z.object({
  order: createOrderDataSchema,
  payment: payOrderResponseSchema.nullable().describe('the latest payment attempt, as its pay answer: null before any'),
});
export type ResumeOrderData = z.infer<typeof resumeOrderDataSchema>;

export const resumeOrderResponseSchema = successEnvelope(resumeOrderDataSchema).meta({ id: 'ResumeOrderResponse' });
export type ResumeOrderResponse = z.infer<typeof resumeOrderResponseSchema>;
