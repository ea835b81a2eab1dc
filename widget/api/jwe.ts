import type { PublicEncryptionKey } from './wire.ts';

/**
 * JWE compact serialization (RFC 7516) of a payload for the merchant's public key, on the browser's WebCrypto:
 * `ECDH-ES+A256KW` on P-256 (RFC 7518 section 4.6: an ephemeral key pair, the Concat KDF over the shared secret, the
 * content key wrapped with AES key wrap) or `RSA-OAEP-256`, the content encrypted with `A256GCM` under a fresh
 * random key and IV, the protected header as its additional data. Every cryptographic step is WebCrypto's; this
 * module only arranges their inputs and outputs as the RFCs lay them out (jose did the same for 7 KB).
 */
const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A 32-bit big-endian length followed by the bytes (the Concat KDF's "datalen || data"). */
function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * The key-wrapping key of ECDH-ES+A256KW: SHA-256 over round 1, the shared secret Z and OtherInfo (AlgorithmID,
 * empty PartyUInfo and PartyVInfo, keydatalen 256); one round gives the 256 bits A256KW needs.
 */
async function concatKdf(sharedSecret: ArrayBuffer, algorithm: string): Promise<ArrayBuffer> {
  const round = new Uint8Array([0, 0, 0, 1]);
  const keyBits = new Uint8Array([0, 0, 1, 0]);
  const otherInfo = concat(lengthPrefixed(encoder.encode(algorithm)), lengthPrefixed(new Uint8Array()), lengthPrefixed(new Uint8Array()), keyBits);
  return crypto.subtle.digest('SHA-256', concat(round, new Uint8Array(sharedSecret), otherInfo));
}

/** The content key wrapped for the recipient, and what the protected header must carry for it. */
async function wrapContentKey(contentKey: CryptoKey, key: PublicEncryptionKey): Promise<{ encryptedKey: ArrayBuffer; header: Record<string, unknown> }> {
  if (key.kty === 'EC') {
    const recipient = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: key.crv, x: key.x, y: key.y }, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
    const ephemeral = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
    const sharedSecret = await crypto.subtle.deriveBits({ name: 'ECDH', public: recipient }, ephemeral.privateKey, 256);
    const wrappingKey = await crypto.subtle.importKey('raw', await concatKdf(sharedSecret, key.alg), 'AES-KW', false, ['wrapKey']);
    const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', ephemeral.publicKey);
    return { encryptedKey: await crypto.subtle.wrapKey('raw', contentKey, wrappingKey, 'AES-KW'), header: { epk: { kty, crv, x, y } } };
  }
  const recipient = await crypto.subtle.importKey('jwk', { kty: 'RSA', n: key.n, e: key.e }, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['wrapKey']);
  return { encryptedKey: await crypto.subtle.wrapKey('raw', contentKey, recipient, { name: 'RSA-OAEP' }), header: {} };
}

export async function encryptCompact(plaintext: Uint8Array<ArrayBuffer>, key: PublicEncryptionKey): Promise<string> {
  const contentKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const { encryptedKey, header } = await wrapContentKey(contentKey, key);
  const protectedHeader = base64url(encoder.encode(JSON.stringify({ alg: key.alg, enc: 'A256GCM', kid: key.kid, ...header })));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(protectedHeader), tagLength: 128 }, contentKey, plaintext));
  const tagStart = sealed.length - 16;
  return [protectedHeader, base64url(new Uint8Array(encryptedKey)), base64url(iv), base64url(sealed.subarray(0, tagStart)), base64url(sealed.subarray(tagStart))].join('.');
}
