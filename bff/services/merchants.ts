import { keyMatches, newApiKey, parseApiKey, type Mode } from '../crypto/api-keys.ts';
import { generateRsaKeyPair, toGatewayKey } from '../crypto/gateway-key.ts';
import { generateJweKeyPairs } from '../crypto/jwe.ts';
import { LEGACY_KEY_ALGORITHM } from '../crypto/legacy-rsa.ts';
import { seal } from '../crypto/sealed.ts';
import type { KeyCaller, Merchant } from '../domain/merchant.ts';
import * as merchants from '../repositories/merchants.ts';
import type { Storage } from '../storage/storage.ts';
import type { MerchantCache } from './merchant-cache.ts';

export { LEGACY_KEY_ALGORITHM };

/** What a merchant receives once, when keys are issued: the secret key is never shown again. */
export type IssuedKeys = {
  subsidiaryId: number;
  name: string;
  publishableKey: string;
  secretKey: string;
  encryptionKey: string;
};

/** Keys generated for one mode, before they are stored. */
type KeyMaterial = Awaited<ReturnType<MerchantService['prepareKeys']>>;

export type MerchantProfile = { name: string; country: string; supportEmail: string; allowedOrigins?: string[] };

export class MerchantService {
  constructor(
    private readonly storage: Storage,
    private readonly masterKey: Buffer,
    private readonly cache: MerchantCache,
  ) {}

  async create(profile: MerchantProfile, mode: Mode = 'test'): Promise<IssuedKeys> {
    // Key generation happens before the transaction so the transaction stays short.
    const material = await this.prepareKeys(mode);
    return this.storage.transaction((tx) => this.insertWithKeys(tx, profile, mode, material));
  }

  private async insertWithKeys(
    tx: Parameters<typeof merchants.insertMerchant>[0],
    profile: MerchantProfile,
    mode: Mode,
    material: KeyMaterial,
  ): Promise<IssuedKeys> {
    const allowedOrigins = [...new Set((profile.allowedOrigins ?? []).map((origin) => new URL(origin).origin))];
    const merchant = await merchants.insertMerchant(tx, { ...profile, allowedOrigins });
    return this.storeKeys(tx, merchant, mode, material);
  }

  /** Replaces a mode's API keys and encryption key pair; the old ones stop working at once. */
  async rotateKeys(merchantId: number, mode: Mode): Promise<IssuedKeys | undefined> {
    const material = await this.prepareKeys(mode);
    const issued = await this.storage.transaction(async (tx) => {
      const merchant = await merchants.findMerchant(tx, merchantId);
      if (!merchant) return undefined;
      await merchants.revokeApiKeys(tx, merchantId, mode);
      await merchants.retireEncryptionKeys(tx, merchantId, mode);
      return this.storeKeys(tx, merchant, mode, material);
    });
    this.cache.changed(merchantId);
    return issued;
  }

  /** Replaces the web origins allowed to embed the merchant's checkout (normalised to scheme://host[:port]). */
  async setAllowedOrigins(merchantId: number, origins: readonly string[]): Promise<Merchant | undefined> {
    const normalised = [...new Set(origins.map((origin) => new URL(origin).origin))];
    const updated = await merchants.updateAllowedOrigins(this.storage, merchantId, normalised);
    this.cache.changed(merchantId);
    return updated;
  }

  /** Sets (an https address) or clears (null) the logo shown in the checkout's header and on the hosted pages. */
  async setLogo(merchantId: number, logoUrl: string | null): Promise<Merchant | undefined> {
    const updated = await merchants.updateLogo(this.storage, merchantId, logoUrl);
    this.cache.changed(merchantId);
    return updated;
  }

  list(): Promise<Merchant[]> {
    return merchants.listMerchants(this.storage);
  }

  find(id: number): Promise<Merchant | undefined> {
    return merchants.findMerchant(this.storage, id);
  }

  publishableKey(merchantId: number, mode: Mode): Promise<string | undefined> {
    return merchants.findPublishableKey(this.storage, merchantId, mode);
  }

  /** The sandbox merchant's publishable key (the oldest merchant with test keys), for the demo page. */
  sandboxPublishableKey(): Promise<string | undefined> {
    return merchants.findFirstTestPublishableKey(this.storage);
  }

  /** On an empty database, creates the sandbox merchant the demo page uses and returns its keys. */
  async ensureSandboxMerchant(): Promise<IssuedKeys | undefined> {
    if ((await merchants.countMerchants(this.storage)) > 0) return undefined;
    const material = await this.prepareKeys('test');
    // Processes starting together on one empty PostgreSQL take turns: the first creates it, the others see it.
    return this.storage.transaction(async (tx) => {
      await merchants.lockForSandboxCreation(tx);
      if ((await merchants.countMerchants(tx)) > 0) return undefined;
      return this.insertWithKeys(tx, { name: 'Sandbox Merchant', country: 'NG', supportEmail: 'support@sandbox.test', allowedOrigins: [] }, 'test', material);
    });
  }

  /** Resolves an `api-key` header value; undefined for anything that is not a live key of ours. */
  async authenticate(key: string): Promise<KeyCaller | undefined> {
    const parsed = parseApiKey(key);
    if (!parsed) return undefined;
    const stored = await this.cache.read(`api-key:${parsed.lookup}`, () => merchants.findApiKey(this.storage, parsed.lookup), (found) => found.merchant.id);
    if (!stored || !keyMatches(key, stored.digest)) return undefined;
    return { merchant: stored.merchant, mode: stored.mode, kind: stored.kind };
  }

  private async prepareKeys(mode: Mode) {
    // Independent pairs: generated together, issuing costs the time of the slowest (RSA-4096), not the sum.
    const [rsa, jwe] = await Promise.all([generateRsaKeyPair(), generateJweKeyPairs()]);
    return {
      publishable: newApiKey('publishable', mode),
      secret: newApiKey('secret', mode),
      rsa: {
        publicPem: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        gatewayKey: toGatewayKey(rsa.publicKey),
        privateSealed: seal(this.masterKey, rsa.privateKey.export({ type: 'pkcs8', format: 'der' })),
      },
      jwe: jwe.map((pair) => ({
        algorithm: pair.algorithm,
        publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        privateSealed: seal(this.masterKey, pair.privateKey.export({ type: 'pkcs8', format: 'der' })),
      })),
    };
  }

  private async storeKeys(
    tx: Parameters<typeof merchants.insertApiKey>[0],
    merchant: Merchant,
    mode: Mode,
    material: KeyMaterial,
  ): Promise<IssuedKeys> {
    const { publishable, secret, rsa, jwe } = material;
    await merchants.insertApiKey(tx, { merchantId: merchant.id, mode, kind: 'publishable', lookup: publishable.lookup, digest: publishable.digest, publishableKey: publishable.key });
    await merchants.insertApiKey(tx, { merchantId: merchant.id, mode, kind: 'secret', lookup: secret.lookup, digest: secret.digest, publishableKey: null });
    await merchants.insertEncryptionKey(tx, { merchantId: merchant.id, mode, algorithm: LEGACY_KEY_ALGORITHM, publicKey: rsa.publicPem, privateKeySealed: rsa.privateSealed });
    for (const key of jwe) {
      await merchants.insertEncryptionKey(tx, { merchantId: merchant.id, mode, algorithm: key.algorithm, publicKey: key.publicPem, privateKeySealed: key.privateSealed });
    }
    return { subsidiaryId: merchant.id, name: merchant.name, publishableKey: publishable.key, secretKey: secret.key, encryptionKey: rsa.gatewayKey };
  }
}
