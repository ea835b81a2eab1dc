import { createDecipheriv, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, compactDecrypt } from 'jose';
import { JWE_CONTENT_ENCRYPTION, type EncryptionJwk, type JweKeyAlgorithm } from '../../shared/keys.ts';
import { generateRsaKeyPair } from './gateway-key.ts';

/**
 * The modern scheme (protocol.md 3.2): JWE compact serialization, `ECDH-ES+A256KW` on P-256 or `RSA-OAEP-256`,
 * content always `A256GCM`. ECDH goes through jose (its WebCrypto work is cheap). RSA-OAEP is split: the private
 * operation runs in the RSA worker pool like the legacy one, so all RSA work shares one bounded pool with a
 * thread per core (concurrent WebCrypto RSA jobs on one key contend for a lock in Node 20, and share libuv's four
 * threads with file I/O); the A256GCM content step is below, all RFC 7516 section 5.2 asks for with these parameters.
 */
const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * RSA-3072 for OAEP: it matches the 128-bit strength of P-256 and A256GCM, where RSA-2048 (112 bits) is only
 * approved until 2030 and these keys live until the merchant rotates them. The private operation costs about
 * 1.7 ms instead of 0.3 ms, which the worker pool absorbs; clients that can use ECDH pay nothing for it.
 */
export const OAEP_MODULUS_LENGTH = 3072;

export type JweKeyPair = { algorithm: JweKeyAlgorithm; publicKey: KeyObject; privateKey: KeyObject };

/** Both modern key pairs, generated concurrently on libuv's thread pool. */
export async function generateJweKeyPairs(): Promise<JweKeyPair[]> {
  const [ec, rsa] = await Promise.all([
    generateKeyPairAsync('ec', { namedCurve: 'P-256' }),
    generateRsaKeyPair(OAEP_MODULUS_LENGTH),
  ]);
  return [
    { algorithm: 'ECDH-ES+A256KW', ...ec },
    { algorithm: 'RSA-OAEP-256', ...rsa },
  ];
}

/** The published form of a stored public key: its JWK with an RFC 7638 thumbprint as `kid`. */
export async function toEncryptionJwk(publicKeyPem: string, algorithm: JweKeyAlgorithm): Promise<EncryptionJwk> {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' });
  if (algorithm === 'ECDH-ES+A256KW') {
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('ECDH key is not a P-256 key');
    const members = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } as const;
    return { ...members, kid: await calculateJwkThumbprint(members), alg: algorithm, use: 'enc' };
  }
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('RSA-OAEP key is not an RSA key');
  const members = { kty: 'RSA', n: jwk.n, e: jwk.e } as const;
  return { ...members, kid: await calculateJwkThumbprint(members), alg: algorithm, use: 'enc' };
}

/** Five dot-separated base64url parts: the shape that tells a JWE from a legacy base64 block. */
const COMPACT_JWE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/;

export function looksLikeJwe(data: string): boolean {
  return COMPACT_JWE.test(data);
}

export type CompactJwe = {
  header: Record<string, unknown>;
  encodedHeader: string;
  encryptedKey: Buffer;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
};

/** Splits a compact JWE and reads its protected header; undefined when the header is not a JSON object. */
export function splitCompactJwe(data: string): CompactJwe | undefined {
  if (!looksLikeJwe(data)) return undefined;
  const [encodedHeader, encryptedKey, iv, ciphertext, tag] = data.split('.') as [string, string, string, string, string];
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) return undefined;
  const bytes = (part: string) => Buffer.from(part, 'base64url');
  return {
    header: header as Record<string, unknown>,
    encodedHeader,
    encryptedKey: bytes(encryptedKey),
    iv: bytes(iv),
    ciphertext: bytes(ciphertext),
    tag: bytes(tag),
  };
}

/** ECDH-ES+A256KW with A256GCM through jose; undefined for any failure. Compression is refused. */
export async function decryptEcdhJwe(data: string, privateKey: CryptoKey): Promise<Uint8Array | undefined> {
  try {
    const { plaintext } = await compactDecrypt(data, privateKey, {
      keyManagementAlgorithms: ['ECDH-ES+A256KW'],
      contentEncryptionAlgorithms: [JWE_CONTENT_ENCRYPTION],
      maxDecompressedLength: 0,
    });
    return plaintext;
  } catch {
    return undefined;
  }
}

/**
 * Whether an RSA-OAEP-256 JWE's header is one this service accepts: `enc` A256GCM, no compression, no critical
 * extensions, the IV and tag sizes A256GCM defines. The caller checks `alg` and `kid`.
 */
export function isAcceptableOaepJwe(jwe: CompactJwe): boolean {
  const { header } = jwe;
  return (
    header.enc === JWE_CONTENT_ENCRYPTION &&
    header.zip === undefined &&
    header.crit === undefined &&
    jwe.iv.length === 12 &&
    jwe.tag.length === 16 &&
    jwe.encryptedKey.length > 0
  );
}

/**
 * A256GCM content decryption (RFC 7516 section 5.2, steps 14 to 16): the ASCII of the encoded protected header is
 * the additional authenticated data. The tag length is fixed at 16 so a truncated tag cannot be accepted.
 */
export function decryptA256Gcm(contentKey: Uint8Array, jwe: CompactJwe): Uint8Array | undefined {
  if (contentKey.length !== 32) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', contentKey, jwe.iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(jwe.encodedHeader, 'ascii'));
    decipher.setAuthTag(jwe.tag);
    return Buffer.concat([decipher.update(jwe.ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}
