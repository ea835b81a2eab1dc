import type { KeyObject } from 'node:crypto';
import { CompactEncrypt, importJWK } from 'jose';
import { isJweKeyAlgorithm, JWE_KEY_ALGORITHMS, type EncryptionJwk } from '../../shared/keys.ts';
import type { Mode } from './api-keys.ts';
import { ecdhPrivateKey, toEncryptionJwk } from './jwe.ts';
import { unseal } from './sealed.ts';

/**
 * A merchant's active encryption keys for one mode, with their private halves unsealed on first use. The list of
 * active keys is read on every call so a rotation takes effect at once; what is cached (bounded, by key id, which
 * is never reused) is only the work of unsealing and parsing a key.
 */
export type StoredKey = { id: number; algorithm: string; publicKey: string; privateKeySealed: Buffer };
export type LoadActiveKeys = (merchantId: number, mode: Mode) => Promise<StoredKey[]>;

const MAX_CACHED_KEYS = 1024;

class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();
  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): V {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
    return value;
  }
}

export class PayloadKeys {
  readonly #privateDer = new BoundedCache<number, Buffer>(MAX_CACHED_KEYS);
  readonly #ecdhKeys = new BoundedCache<number, KeyObject>(MAX_CACHED_KEYS);
  readonly #publicJwks = new BoundedCache<number, EncryptionJwk>(MAX_CACHED_KEYS);

  constructor(
    private readonly masterKey: Buffer,
    private readonly loadActive: LoadActiveKeys,
  ) {}

  /** The active key of each algorithm. */
  async active(merchantId: number, mode: Mode): Promise<Map<string, StoredKey>> {
    const keys = await this.loadActive(merchantId, mode);
    return new Map(keys.map((key) => [key.algorithm, key]));
  }

  /** The public JWKs a client encrypts to, in a stable order (ECDH first: it is the cheap one). */
  async publicJwks(merchantId: number, mode: Mode): Promise<EncryptionJwk[]> {
    const active = await this.active(merchantId, mode);
    const published: EncryptionJwk[] = [];
    for (const algorithm of JWE_KEY_ALGORITHMS) {
      const key = active.get(algorithm);
      if (key) published.push(await this.publicJwk(key));
    }
    return published;
  }

  /**
   * `plaintext` as a JWE for the merchant's published ECDH key, as the widget makes one (the sandbox helper that lets
   * the API documentation try encrypted endpoints); undefined when the merchant has no such key in this mode.
   */
  async encryptFor(merchantId: number, mode: Mode, plaintext: string): Promise<string | undefined> {
    const jwk = (await this.publicJwks(merchantId, mode)).find((key) => key.alg === 'ECDH-ES+A256KW');
    if (!jwk) return undefined;
    return new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid })
      .encrypt(await importJWK(jwk, jwk.alg));
  }

  async publicJwk(key: StoredKey): Promise<EncryptionJwk> {
    if (!isJweKeyAlgorithm(key.algorithm)) throw new Error(`${key.algorithm} keys are not published as JWKs`);
    return this.#publicJwks.get(key.id) ?? this.#publicJwks.set(key.id, await toEncryptionJwk(key.publicKey, key.algorithm));
  }

  /** The private key as PKCS#8 DER, the form the RSA worker pool receives. */
  privateDer(key: StoredKey): Buffer {
    return this.#privateDer.get(key.id) ?? this.#privateDer.set(key.id, unseal(this.masterKey, key.privateKeySealed));
  }

  /** The ECDH private key, parsed once: each unwrap is then synchronous node:crypto work. */
  ecdhKey(key: StoredKey): KeyObject {
    return this.#ecdhKeys.get(key.id) ?? this.#ecdhKeys.set(key.id, ecdhPrivateKey(unseal(this.masterKey, key.privateKeySealed)));
  }
}
