import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { isJweKeyAlgorithm } from '../../shared/keys.ts';
import type { Caller } from '../domain/merchant.ts';
import { decryptA256Gcm, decryptEcdhJwe, isAcceptableOaepJwe, looksLikeJwe, splitCompactJwe } from './jwe.ts';
import { LEGACY_KEY_ALGORITHM, parseLegacyCiphertext, removePkcs1Padding } from './legacy-rsa.ts';
import type { PayloadKeys } from './payload-keys.ts';
import type { RsaPool } from './rsa-pool.ts';

/**
 * Turns the `data` string of an encrypted request into plaintext bytes with the caller's active keys for its
 * mode. Every way a payload can be unreadable ends in `undefined`, never in an error, so the caller has exactly one
 * answer to give; errors that do escape are the server's own (storage, a full worker pool).
 */
export class PayloadDecryptor {
  private readonly rejectionSecret: KeyObject;

  constructor(
    private readonly keys: PayloadKeys,
    private readonly pool: RsaPool,
    rejectionSecret: Buffer,
  ) {
    this.rejectionSecret = createSecretKey(rejectionSecret);
  }

  async decrypt(caller: Caller, data: string): Promise<Uint8Array | undefined> {
    if (looksLikeJwe(data)) return this.decryptJwe(caller, data);
    if (!caller.merchant.legacyEncryption) return undefined;
    return this.decryptLegacy(caller, data);
  }

  private async decryptLegacy(caller: Caller, data: string): Promise<Uint8Array | undefined> {
    const ciphertext = parseLegacyCiphertext(data);
    if (!ciphertext) return undefined;
    const key = (await this.keys.active(caller.merchant.id, caller.mode)).get(LEGACY_KEY_ALGORITHM);
    if (!key) return undefined;
    const block = await this.pool.decrypt('raw', key.id, this.keys.privateDer(key), ciphertext);
    // A ciphertext not below the modulus is refused by the primitive; that is public, so no need to hide it.
    if (!block) return undefined;
    return removePkcs1Padding(block, ciphertext, this.rejectionSecret);
  }

  private async decryptJwe(caller: Caller, data: string): Promise<Uint8Array | undefined> {
    const jwe = splitCompactJwe(data);
    const algorithm = jwe?.header.alg;
    if (!jwe || !isJweKeyAlgorithm(algorithm)) return undefined;
    const key = (await this.keys.active(caller.merchant.id, caller.mode)).get(algorithm);
    if (!key) return undefined;
    // A kid, when sent, must name this merchant's key: a payload for another key must not be tried with ours.
    if (jwe.header.kid !== undefined && jwe.header.kid !== (await this.keys.publicJwk(key)).kid) return undefined;

    if (algorithm === 'ECDH-ES+A256KW') return decryptEcdhJwe(data, this.keys.ecdhKey(key));
    if (!isAcceptableOaepJwe(jwe)) return undefined;
    const contentKey = await this.pool.decrypt('oaep-sha256', key.id, this.keys.privateDer(key), jwe.encryptedKey);
    // RFC 7516 section 11.5: a failed key unwrap continues with a random key, so it fails where a wrong tag does.
    return decryptA256Gcm(contentKey?.length === 32 ? contentKey : randomBytes(32), jwe);
  }
}
