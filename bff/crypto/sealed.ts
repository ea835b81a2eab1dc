import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for private keys: AES-256-GCM under the master key.
 * Layout: version (1 byte) | IV (12) | tag (16) | ciphertext.
 */
const VERSION = 1;

export function seal(masterKey: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

export function unseal(masterKey: Buffer, sealed: Buffer): Buffer {
  if (sealed[0] !== VERSION || sealed.length < 29) throw new Error('Sealed value has an unknown layout');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, sealed.subarray(1, 13));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}
