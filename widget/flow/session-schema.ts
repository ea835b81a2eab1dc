import * as v from 'valibot';
import { bankTransferDetails, createOrderData } from '../api/wire.ts';
import type { CheckoutSession } from './session.ts';

/** The resume record's shape (session.ts), parsed like a network answer: storage is input too. */
const checkoutSession: v.GenericSchema<unknown, CheckoutSession> = v.object({
  reference: v.string(),
  order: v.optional(createOrderData),
  option: v.optional(v.string()),
  transfer: v.optional(bankTransferDetails),
  waiting: v.optional(v.boolean()),
  authUrl: v.optional(v.string()),
});

/** The record as stored, or undefined when it does not have the record's shape. */
export function readSession(stored: unknown): CheckoutSession | undefined {
  const parsed = v.safeParse(checkoutSession, stored);
  return parsed.success ? parsed.output : undefined;
}
