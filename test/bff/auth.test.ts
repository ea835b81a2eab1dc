import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const link = { Name: 'Auth probe', Description: 'd', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH', Amount: 10 };

describe.each(drivers)('the api-key header on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;

  const createLink = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/checkout/links/create', headers, payload: link });

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('refuses a request without a key with AUTH401', async () => {
    const response = await createLink({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'AUTH401', message: 'The api-key header is required.' });
  });

  it.each([
    ['a key of the wrong shape', 'not-a-key'],
    ['a well-formed key nobody issued', 'sk_test_AAAAAAAAAAAABBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'],
  ])('refuses %s with AUTH401', async (_label, key) => {
    const response = await createLink({ 'api-key': key });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'AUTH401', message: 'The api-key is not valid.' });
  });

  it('refuses a key whose secret part was altered, even though its lookup part is real', async () => {
    const tampered = `${keys.secretKey.slice(0, -1)}${keys.secretKey.endsWith('A') ? 'B' : 'A'}`;
    const response = await createLink({ 'api-key': tampered });
    expect(response.statusCode).toBe(401);
  });

  it('refuses the publishable key on a secret-key endpoint with AUTH403', async () => {
    const response = await createLink({ 'api-key': keys.publishableKey });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      status: 'failed',
      statusCode: 'AUTH403',
      message: 'This operation needs the secret key; a publishable key was sent.',
    });
  });

  it('accepts the secret key on a secret-key endpoint', async () => {
    expect((await createLink({ 'api-key': keys.secretKey })).statusCode).toBe(200);
  });

  it('stops accepting the old keys once they are rotated, and accepts the new ones', async () => {
    const own = await createMerchant(app);
    const rotated = await app.merchants.rotateKeys(own.subsidiaryId, 'test');
    expect(rotated).toBeDefined();
    expect((await createLink({ 'api-key': own.secretKey })).statusCode).toBe(401);
    expect((await createLink({ 'api-key': rotated!.secretKey })).statusCode).toBe(200);
    expect(rotated!.encryptionKey).not.toBe(own.encryptionKey);
  });

  it('refuses every key of a disabled merchant with AUTH403', async () => {
    const own = await createMerchant(app);
    await app.storage.query('UPDATE merchants SET disabled = true WHERE id = $1', [own.subsidiaryId]);
    const response = await createLink({ 'api-key': own.secretKey });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 'AUTH403', message: 'This merchant account is disabled.' });
  });

  it('keeps secret keys out of the database: only digests are stored', async () => {
    const rows = await app.storage.query<{ text: string }>('SELECT row_to_json(k)::text AS text FROM api_keys k');
    const everything = rows.map((row) => row.text).join('\n');
    expect(everything).not.toContain(keys.secretKey);
    expect(everything).not.toContain(keys.secretKey.slice(20));
  });
});
