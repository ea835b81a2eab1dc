import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { calculateJwkThumbprint, CompactEncrypt, importJWK } from 'jose';
import { encryptionKeysResponseSchema, type EncryptionJwk } from '../../shared/keys.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';

describe.each(drivers)('GET /checkout/keys on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;

  const fetchKeys = (apiKey?: string) =>
    app.inject({ method: 'GET', url: '/checkout/keys', headers: apiKey === undefined ? {} : { 'api-key': apiKey } });
  const jwksOf = async (apiKey: string): Promise<EncryptionJwk[]> => (await fetchKeys(apiKey)).json().data.keys;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('publishes a P-256 ECDH-ES+A256KW key and an RSA-OAEP-256 key, each with kid, alg and use enc', async () => {
    const response = await fetchKeys(keys.publishableKey);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(encryptionKeysResponseSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ status: 'success', statusCode: '00', message: 'Operation successful' });
    const [ec, rsa] = body.data.keys as EncryptionJwk[];
    expect(ec).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES+A256KW', use: 'enc' });
    expect(rsa).toMatchObject({ kty: 'RSA', e: 'AQAB', alg: 'RSA-OAEP-256', use: 'enc' });
    // RSA-3072: the modulus is 384 bytes.
    expect(Buffer.from((rsa as { n: string }).n, 'base64url')).toHaveLength(384);
  });

  it('names each key by its RFC 7638 thumbprint and publishes no private member', async () => {
    for (const jwk of await jwksOf(keys.publishableKey)) {
      const { kid, alg, use, ...members } = jwk;
      expect(kid).toBe(await calculateJwkThumbprint(members));
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(jwk).not.toHaveProperty(secret);
    }
  });

  it('serves keys jose can import and encrypt to', async () => {
    for (const jwk of await jwksOf(keys.publishableKey)) {
      const key = await importJWK(jwk, jwk.alg);
      const jwe = await new CompactEncrypt(new TextEncoder().encode('{"reference":"ORD-1"}'))
        .setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid })
        .encrypt(key);
      expect(jwe.split('.')).toHaveLength(5);
    }
  });

  it('answers the secret key with the same keys as the publishable key', async () => {
    expect(await jwksOf(keys.secretKey)).toEqual(await jwksOf(keys.publishableKey));
  });

  it('gives every merchant keys of its own', async () => {
    const another = await createMerchant(app);
    const mine = (await jwksOf(keys.publishableKey)).map((jwk) => jwk.kid);
    const theirs = (await jwksOf(another.publishableKey)).map((jwk) => jwk.kid);
    expect(theirs.filter((kid) => mine.includes(kid))).toEqual([]);
  });

  it('publishes new keys, and only those, after a key rotation', async () => {
    const merchant = await createMerchant(app);
    const before = (await jwksOf(merchant.publishableKey)).map((jwk) => jwk.kid);
    const rotated = await app.merchants.rotateKeys(merchant.subsidiaryId, 'test');
    const after = (await jwksOf(rotated!.publishableKey)).map((jwk) => jwk.kid);
    expect(after).toHaveLength(2);
    expect(after.filter((kid) => before.includes(kid))).toEqual([]);
  });

  it('stores the modern private keys sealed, beside the legacy key', async () => {
    const rows = await app.storage.query<{ algorithm: string; sealed: Uint8Array }>(
      'SELECT algorithm, private_key_sealed AS sealed FROM encryption_keys WHERE merchant_id = $1 AND retired_at IS NULL ORDER BY algorithm',
      [keys.subsidiaryId],
    );
    expect(rows.map((row) => row.algorithm)).toEqual(['ECDH-ES+A256KW', 'RSA-OAEP-256', 'RSA-PKCS1-4096']);
    for (const row of rows) expect(Buffer.from(row.sealed)[0]).toBe(1);
  });

  it('refuses a request without an api-key with AUTH401', async () => {
    const response = await fetchKeys();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'AUTH401', message: 'The api-key header is required.' });
  });

  it('refuses an unknown api-key with AUTH401', async () => {
    const response = await fetchKeys('pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'AUTH401' });
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(document.paths['/checkout/keys'].get.summary).toBe('Fetch the encryption keys');
  });
});
