import { createDecipheriv, createHash, createPrivateKey, createPublicKey, createSecretKey, diffieHellman, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import { JWE_CONTENT_ENCRYPTION, type EncryptionJwk, type JweKeyAlgorithm } from '../../shared/keys.ts';
import { generateRsaKeyPair } from './gateway-key.ts';

/**
 * The modern scheme (protocol.md 3.2): JWE compact serialization, `ECDH-ES+A256KW` on P-256 or `RSA-OAEP-256`,
 * content always `A256GCM`. ECDH-ES runs synchronously on node:crypto (below: a third of jose's WebCrypto path,
 * whose key import alone cost more than the whole unwrap here). RSA-OAEP is split: the private
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

/**
 * A P-256 private key ready for ECDH, parsed once per key. A KeyObject rather than an `ECDH` object: Node's
 * `ECDH.computeSecret` checks its own key pair again on every call (a second scalar multiplication, about half of its
 * 92 us), where `diffieHellman` with KeyObjects does the agreement alone.
 */
export function ecdhPrivateKey(pkcs8Der: Buffer): KeyObject {
  const key = createPrivateKey({ key: pkcs8Der, format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('ECDH key is not a P-256 private key');
  return key;
}

const AES_KW_IV = Buffer.from('A6A6A6A6A6A6A6A6', 'hex');

const lengthPrefixed = (bytes: Buffer) => Buffer.concat([uint32(bytes.length), bytes]);
const uint32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

/**
 * The ephemeral public key of the header; undefined unless it is a P-256 EC JWK whose point is on the curve (OpenSSL
 * refuses any other point, so an invalid-curve point never reaches the agreement). Only `kty`, `crv`, `x` and `y` are
 * read.
 */
function ephemeralKey(epk: unknown): KeyObject | undefined {
  if (epk === null || typeof epk !== 'object') return undefined;
  const { kty, crv, x, y } = epk as Record<string, unknown>;
  if (kty !== 'EC' || crv !== 'P-256' || typeof x !== 'string' || typeof y !== 'string') return undefined;
  if (Buffer.from(x, 'base64url').length !== 32 || Buffer.from(y, 'base64url').length !== 32) return undefined;
  // `createPublicKey` asks of its argument whether it is a KeyObject or a CryptoKey, and Node answers each question
  // by building a TypeError it then discards, with a stack trace: 40% of the call's 31 us. The call is synchronous,
  // so the stack limit is lowered for it alone.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' });
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Optional base64url header member (`apu`, `apv`) as bytes; undefined when present but not a string. */
function partyInfo(value: unknown): Buffer | undefined {
  if (value === undefined) return Buffer.alloc(0);
  return typeof value === 'string' ? Buffer.from(value, 'base64url') : undefined;
}

/**
 * ECDH-ES+A256KW with A256GCM (RFC 7518 section 4.6, RFC 7516 section 5.2); undefined for any failure. The
 * ephemeral point is checked to be on the curve when it is read as a key (a point off the curve is refused), the shared
 * secret goes through the Concat KDF (SHA-256, one round for 256 bits) with the algorithm id, `apu`, `apv` and the
 * key length, the content key is unwrapped with AES key wrap (whose integrity check fails for a wrong key), and
 * the content is opened with A256GCM. Compression and critical extensions are refused.
 */
export function decryptEcdhJwe(data: string, privateKey: KeyObject): Uint8Array | undefined {
  const jwe = splitCompactJwe(data);
  if (!jwe) return undefined;
  const { header } = jwe;
  if (header.alg !== 'ECDH-ES+A256KW' || header.enc !== JWE_CONTENT_ENCRYPTION || header.zip !== undefined || header.crit !== undefined) return undefined;
  if (jwe.iv.length !== 12 || jwe.tag.length !== 16 || jwe.encryptedKey.length !== 40) return undefined;
  const [apu, apv] = [partyInfo(header.apu), partyInfo(header.apv)];
  if (!apu || !apv) return undefined;
  const publicKey = ephemeralKey(header.epk);
  if (!publicKey) return undefined;
  try {
    const shared = diffieHellman({ privateKey, publicKey });
    const otherInfo = Buffer.concat([lengthPrefixed(Buffer.from('ECDH-ES+A256KW', 'ascii')), lengthPrefixed(apu), lengthPrefixed(apv), uint32(256)]);
    const kek = createHash('sha256').update(uint32(1)).update(shared).update(otherInfo).digest();
    // Keys go in as KeyObjects: given raw bytes, Node 24 spends about 8 us checking them on every call, against 2 us
    // to make the KeyObject.
    const unwrap = createDecipheriv('id-aes256-wrap', createSecretKey(kek), AES_KW_IV);
    const contentKey = Buffer.concat([unwrap.update(jwe.encryptedKey), unwrap.final()]);
    return decryptA256Gcm(contentKey, jwe);
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
    const decipher = createDecipheriv('aes-256-gcm', createSecretKey(contentKey), jwe.iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(jwe.encodedHeader, 'ascii'));
    decipher.setAuthTag(jwe.tag);
    return Buffer.concat([decipher.update(jwe.ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}
