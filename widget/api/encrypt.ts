import type { JWE_CONTENT_ENCRYPTION, JweKeyAlgorithm } from '../../shared/keys.ts';
import { encryptCompact } from './jwe.ts';
import type { PublicEncryptionKey } from './wire.ts';

/**
 * Order payloads travel as a JWE compact serialization (protocol.md section 3, "Modern"): ECDH-ES+A256KW on P-256
 * when the merchant publishes such a key (about 100x cheaper for the server than RSA), RSA-OAEP-256 otherwise.
 */
const PREFERRED_ALGORITHMS = ['ECDH-ES+A256KW', 'RSA-OAEP-256'] as const satisfies readonly JweKeyAlgorithm[];

/** Picks the cheapest encryption key of a JWK set; undefined when the set is empty. */
export function chooseKey(keys: readonly PublicEncryptionKey[]): PublicEncryptionKey | undefined {
  for (const algorithm of PREFERRED_ALGORITHMS) {
    const key = keys.find((candidate) => candidate.alg === algorithm);
    if (key) return key;
  }
  return undefined;
}

const encoder = new TextEncoder();

export function encryptPayload(payload: unknown, key: PublicEncryptionKey): Promise<string> {
  return encryptCompact(encoder.encode(JSON.stringify(payload)), key);
}
