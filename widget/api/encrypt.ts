import type { JWE_CONTENT_ENCRYPTION, JweKeyAlgorithm } from '../../shared/keys.ts';
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

let jose: Promise<typeof import('./jose-encrypt.ts')> | undefined;

/**
 * jose is fetched as its own chunk: the first paint does not need it, and the API client starts loading it at
 * the same moment it asks for the merchant's keys, so both arrive together.
 */
export function loadJose(): Promise<typeof import('./jose-encrypt.ts')> {
  jose ??= import('./jose-encrypt.ts').catch((error: unknown) => {
    jose = undefined; // a failed fetch must not stop the next attempt
    throw error;
  });
  return jose;
}

export async function encryptPayload(payload: unknown, key: PublicEncryptionKey): Promise<string> {
  const header = { alg: key.alg, enc: 'A256GCM' satisfies typeof JWE_CONTENT_ENCRYPTION, kid: key.kid };
  const { CompactEncrypt } = await loadJose();
  return new CompactEncrypt(encoder.encode(JSON.stringify(payload))).setProtectedHeader(header).encrypt(key);
}
