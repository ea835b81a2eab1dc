import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * The gateway's legacy scheme (protocol.md 3.1): RSAES-PKCS1-v1_5 under the merchant's RSA-4096 key, one block.
 * Node 20 refuses PKCS#1 v1.5 decryption (CVE-2023-46809, the Marvin attack), so the RSA primitive runs with
 * RSA_NO_PADDING in the worker pool and the padding is removed here, with implicit rejection: a malformed block
 * yields a deterministic pseudo-random message instead of an error, which then fails JSON parsing like any
 * other garbage. Whether the padding was good never changes the code path, only the values selected.
 */
export const LEGACY_KEY_ALGORITHM = 'RSA-PKCS1-4096';
export const LEGACY_CIPHERTEXT_BYTES = 512;

const MINIMUM_PADDING_BYTES = 8;

/** The secret that keys implicit rejection; derived, so it needs no storage and changes with the master key. */
export function deriveRejectionSecret(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout/legacy-rsa/implicit-rejection/v1', 32));
}

/**
 * The 684-character padded standard base64 of one 512-byte block. Line breaks are tolerated because Android's
 * Base64.DEFAULT wraps at 76 columns; missing `=` padding too. Anything else is not a legacy ciphertext.
 */
export function parseLegacyCiphertext(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length !== LEGACY_CIPHERTEXT_BYTES) return undefined;
  // Node's decoder skips stray bits; a canonical re-encoding proves the text meant exactly these bytes.
  if (bytes.toString('base64').replace(/=+$/, '') !== compact.replace(/=+$/, '')) return undefined;
  return bytes;
}

// Branch-free helpers over small non-negative integers (bytes and indexes below 2^31).
const isZero = (value: number) => ((value | -value) >>> 31) ^ 1;
const lessThan = (a: number, b: number) => (a - b) >>> 31;
const select = (bit: number, whenOne: number, whenZero: number) => (whenOne & -bit) | (whenZero & (bit - 1));

/**
 * The message the server pretends to have found in a malformed block: HMAC-SHA256 keyed by the rejection secret
 * over the ciphertext gives a key-derivation key; from it, a counter-mode HMAC stream gives the bytes and another
 * HMAC the length (0 to k - 11 bytes), so a rejected ciphertext always maps to the same message.
 */
export function rejectionMessage(ciphertext: Uint8Array, rejectionSecret: Buffer | KeyObject, blockLength = LEGACY_CIPHERTEXT_BYTES): Buffer {
  const { bytes, length } = syntheticMessage(ciphertext, rejectionSecret, blockLength - 11);
  return bytes.subarray(bytes.length - length);
}

function syntheticMessage(ciphertext: Uint8Array, rejectionSecret: Buffer | KeyObject, maximum: number): { bytes: Buffer; length: number } {
  // A KeyObject: the HMACs below (eighteen for a 4096-bit block) cost about 2 us each keyed by one, 10 us by bytes.
  const derivationKey = createSecretKey(createHmac('sha256', rejectionSecret).update(ciphertext).digest());
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < maximum; counter += 1) {
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(counter);
    blocks.push(createHmac('sha256', derivationKey).update(prefix).update('message').digest());
  }
  const lengthSource = createHmac('sha256', derivationKey).update('length').digest().readUInt32BE(0);
  return { bytes: Buffer.concat(blocks).subarray(0, maximum), length: lengthSource % (maximum + 1) };
}

/**
 * Removes `00 02 PS 00 M` (PS at least eight nonzero bytes; 0xFF bytes are as good as random ones) from a raw
 * RSA block. Every byte is visited and the synthetic message computed whatever the block holds; the result is
 * chosen with masks, not branches.
 */
export function removePkcs1Padding(block: Uint8Array, ciphertext: Uint8Array, rejectionSecret: Buffer | KeyObject): Buffer {
  const blockLength = block.length;
  const maximum = blockLength - 11;
  const synthetic = syntheticMessage(ciphertext, rejectionSecret, maximum);

  let good = isZero(block[0]!) & isZero(block[1]! ^ 2);
  let separator = 0;
  let searching = 1;
  for (let index = 2; index < blockLength; index += 1) {
    const zero = isZero(block[index]!);
    separator = select(searching & zero, index, separator);
    searching &= zero ^ 1;
  }
  good &= (searching ^ 1) & lessThan(1 + MINIMUM_PADDING_BYTES, separator);

  const length = select(good, blockLength - 1 - separator, synthetic.length);
  // The message is a suffix of the block's last k - 11 bytes, so a fixed window avoids a secret-dependent index.
  const window = Buffer.alloc(maximum);
  for (let index = 0; index < maximum; index += 1) {
    window[index] = select(good, block[11 + index]!, synthetic.bytes[index]!);
  }
  return window.subarray(maximum - length);
}
