import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * API keys: `pk_test_…`, `sk_live_…`. After the prefix, 12 characters identify the key (stored in the clear to
 * find its row) and 32 more are the secret (about 190 bits). Only a SHA-256 digest of the whole key is stored;
 * the digest is compared in constant time.
 */
export type KeyKind = 'publishable' | 'secret';
export type Mode = 'test' | 'live';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^(pk|sk)_(test|live)_([A-Za-z0-9]{12})([A-Za-z0-9]{32})$/;

export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += ALPHABET[randomInt(ALPHABET.length)];
  return text;
}

export function newApiKey(kind: KeyKind, mode: Mode): { key: string; lookup: string; digest: Buffer } {
  const lookup = randomAlphanumeric(12);
  const key = `${kind === 'publishable' ? 'pk' : 'sk'}_${mode}_${lookup}${randomAlphanumeric(32)}`;
  return { key, lookup, digest: digestKey(key) };
}

export function parseApiKey(key: string): { kind: KeyKind; mode: Mode; lookup: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { kind: match[1] === 'pk' ? 'publishable' : 'secret', mode: match[2] as Mode, lookup: match[3]! };
}

export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function keyMatches(key: string, storedDigest: Buffer): boolean {
  const digest = digestKey(key);
  return storedDigest.length === digest.length && timingSafeEqual(digest, storedDigest);
}
