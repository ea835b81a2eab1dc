import { z } from 'zod';
import { aliased } from './binding.ts';
import { successEnvelope } from './envelope.ts';
import { optionalText, requiredText } from './fields.ts';
import { encryptionJwkSchema } from './keys.ts';
import { createLinkResponseSchema } from './links.ts';

/**
 * The endpoints the TransactPay Dart package calls beyond the ePayClub API (protocol.md 4.11; issue 34 item 7).
 * Each has a `/checkout` twin; the `/payment/...` paths are aliases of them.
 */

/** `PATCH /payment/order/save-card`: the Dart package sends `{"reference"}` encrypted. */
export const saveCardPlainSchema = z
  .object({ reference: aliased(requiredText(64), 'orderReference', 'orderreference') })
  .meta({ id: 'SaveCardPlain', description: 'Saves the card that paid this order for the customer the order was created for.', example: { reference: 'ORDER-1042' } });

export const savedCardResponseSchema = successEnvelope(
  z.object({ token: z.string(), brand: z.string(), first6: z.string(), last4: z.string(), expiry: z.string() }),
).meta({ id: 'SavedCardResponse' });

/** `POST /payment/order/card/tokenized/pay`: a saved card's token and its CVV, for an order of the card's customer. */
export const tokenizedPayPlainSchema = z
  .object({
    reference: aliased(requiredText(64), 'orderReference', 'orderreference'),
    token: aliased(requiredText(64), 'cardToken', 'cardtoken', 'savedCardToken'),
    cvv: z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().regex(/^\d{3,4}$/, { message: 'must be 3 or 4 digits' })),
    country: optionalText(2),
  })
  .meta({ id: 'TokenizedPayPlain', example: { reference: 'ORDER-1042', token: 'tok_...', cvv: '123' } });
export type TokenizedPayPlain = z.infer<typeof tokenizedPayPlainSchema>;

/** `GET /payment/paymentlink/info`: the link's reference, in the query or (as the Dart package sends it) an encrypted GET body. */
export const paymentLinkInfoPlainSchema = z
  .object({ reference: aliased(requiredText(64), 'paymentLinkReference', 'linkReference') })
  .meta({ id: 'PaymentLinkInfoPlain', example: { reference: 'pl_...' } });

export const paymentLinkInfoResponseSchema = createLinkResponseSchema;

/** `POST /payment/paymentlink/get-keys`: the public keys a client encrypts to, never a secret. */
export const paymentKeysResponseSchema = successEnvelope(
  z.object({
    encryptionKey: z.string().nullable().describe("the legacy RSA key in the gateway's format (`NDA5NiE8...`); null when the merchant switched legacy mode off"),
    keys: z.array(encryptionJwkSchema).describe('the public JWKs, as GET /checkout/keys gives them'),
  }),
).meta({ id: 'PaymentKeysResponse' });
