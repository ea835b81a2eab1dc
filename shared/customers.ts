import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { requiredText } from './fields.ts';

/**
 * Customer sessions: the merchant's server names a customer it vouches for (its own customer id) with the secret
 * key and gets a short-lived signed session for the checkout. Only with it does the checkout show, use or save cards.
 */
export const customerSessionRequestSchema = z
  .object({
    customerReference: requiredText(64).describe("Your own id for this customer (an account number, a user id): never an e-mail address a stranger could type."),
  })
  .meta({ id: 'CustomerSessionRequest', example: { customerReference: 'user-1042' } });
export type CustomerSessionRequest = z.infer<typeof customerSessionRequestSchema>;

export const customerSessionResponseSchema = successEnvelope(
  z.object({
    customerReference: z.string(),
    customerSession: z.string().describe('Hand it to the checkout (`customer-session`); it expires after 30 minutes.'),
    expiresAt: z.string(),
  }),
).meta({ id: 'CustomerSessionResponse' });
