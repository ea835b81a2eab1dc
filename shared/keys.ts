import { z } from 'zod';
import { successEnvelope } from './envelope.ts';

/**
 * The public keys of the modern scheme (protocol.md section 3, item 2), published as JWKs at GET /checkout/keys.
 * A client picks a key by `alg`, encrypts with `enc` A256GCM and puts the key's `kid` in the protected header.
 */
export const JWE_KEY_ALGORITHMS = ['ECDH-ES+A256KW', 'RSA-OAEP-256'] as const;
export type JweKeyAlgorithm = (typeof JWE_KEY_ALGORITHMS)[number];
export const JWE_CONTENT_ENCRYPTION = 'A256GCM';

export function isJweKeyAlgorithm(value: unknown): value is JweKeyAlgorithm {
  return typeof value === 'string' && (JWE_KEY_ALGORITHMS as readonly string[]).includes(value);
}

const keyMembers = {
  kid: z.string().describe('RFC 7638 thumbprint of the key; send it as the `kid` header parameter'),
  use: z.literal('enc'),
};

export const ecEncryptionJwkSchema = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), alg: z.literal('ECDH-ES+A256KW'), ...keyMembers })
  .meta({ id: 'EcEncryptionJwk' });

export const rsaEncryptionJwkSchema = z
  .object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), alg: z.literal('RSA-OAEP-256'), ...keyMembers })
  .meta({ id: 'RsaEncryptionJwk' });

export const encryptionJwkSchema = z.discriminatedUnion('kty', [ecEncryptionJwkSchema, rsaEncryptionJwkSchema]);
export type EncryptionJwk = z.infer<typeof encryptionJwkSchema>;

export const encryptionKeysResponseSchema = successEnvelope(z.object({ keys: z.array(encryptionJwkSchema) })).meta({
  id: 'EncryptionKeysResponse',
});
export type EncryptionKeysResponse = z.infer<typeof encryptionKeysResponseSchema>;
