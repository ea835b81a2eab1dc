// @ts-check
/**
 * Runs inside the RSA worker pool (rsa-pool.ts). Plain CommonJS on purpose: the pool starts its threads with no
 * loader flags, and piscina loads a handler with `require`, which takes a CommonJS file as it is (an ES module
 * would go through Node's require(esm) path). So it loads the same under tsx (npm start), vitest and plain node.
 * It does only the RSA private operation; everything around it stays in the typed code on the main thread.
 */
const { constants, createPrivateKey, privateDecrypt } = require('node:crypto');

// Parsing a PKCS#8 key costs more than the decryption itself would save by skipping the cache; bounded because
// key ids only grow as merchants rotate keys.
const MAX_CACHED_KEYS = 256;
/** @type {Map<number, import('node:crypto').KeyObject>} */
const keys = new Map();

/** @param {number} keyId @param {Uint8Array} der */
function keyFor(keyId, der) {
  let key = keys.get(keyId);
  if (key) {
    keys.delete(keyId);
  } else {
    key = createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(/** @type {number} */ (keys.keys().next().value));
  }
  keys.set(keyId, key);
  return key;
}

const PADDINGS = {
  raw: { padding: constants.RSA_NO_PADDING },
  'oaep-sha256': { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
};

/**
 * @param {{ operation: 'raw' | 'oaep-sha256', keyId: number, der: Uint8Array, input: Uint8Array }} task
 * @returns {Uint8Array | null} null when the RSA primitive refuses the input (a value not below the modulus,
 *   a failed OAEP check); the caller turns that into the same answer as any other unreadable payload.
 */
function decrypt({ operation, keyId, der, input }) {
  const key = keyFor(keyId, der);
  try {
    return privateDecrypt({ key, ...PADDINGS[operation] }, input);
  } catch {
    return null;
  }
}

module.exports = decrypt;
