import { z } from 'zod';

/**
 * protocol.md section 3: encrypted endpoints take `{"data": "<ciphertext>"}`, either a JWE compact
 * serialization or the gateway's legacy RSA block. Routes validate only this envelope; the backend decrypts
 * `data` and validates the plain JSON inside against the endpoint's own schema.
 */
export const encryptedBodySchema = z
  .object({
    data: z
      .string()
      .describe('A JWE compact serialization for a key from GET /checkout/keys, or the legacy RSA-4096 block in standard base64.'),
  })
  .meta({ id: 'EncryptedBody' });
export type EncryptedBody = z.infer<typeof encryptedBodySchema>;

/** The one message every decryption failure gets, so the endpoint tells an attacker nothing about why. */
export const UNREADABLE_DATA_MESSAGE = 'The data field could not be read.';
