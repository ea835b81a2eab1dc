import * as z from 'zod/mini';
import { bankTransferDetails, createOrderData } from '../api/wire.ts';
import type { CheckoutSession } from './session.ts';

/** The resume record's shape (session.ts), parsed like a network answer: storage is input too. */
export const checkoutSession: z.ZodMiniType<CheckoutSession> = z.object({
  reference: z.string(),
  order: z.optional(createOrderData),
  option: z.optional(z.string()),
  transfer: z.optional(bankTransferDetails),
  waiting: z.optional(z.boolean()),
  authUrl: z.optional(z.string()),
});
