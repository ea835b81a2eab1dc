import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, drivers, newPlace, startApp, TEST_DATABASE_URL, useTestApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/** Counts the statements an app sends that read a table. */
function countReads(app: FastifyInstance, table: string): () => number {
  let count = 0;
  const query = app.storage.query.bind(app.storage);
  app.storage.query = (sql, params) => {
    if (new RegExp(`FROM ${table}\\b`).test(sql)) count += 1;
    return query(sql, params);
  };
  return () => count;
}

/** What the keys endpoint answers an API key: the cheapest authenticated call. */
const keysAnswer = async (app: FastifyInstance, apiKey: string) => (await app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': apiKey } })).statusCode;

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(drivers)('merchants and keys held in memory on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  beforeAll(() => {
    app = context.app;
  });

  it("reads an API key's merchant and the encryption keys once, not on every request", async () => {
    const client = new CheckoutClient(app, await createMerchant(app));
    const reference = await client.newOrder();
    const apiKeyReads = countReads(app, 'api_keys');
    const encryptionKeyReads = countReads(app, 'encryption_keys');
    for (let index = 0; index < 5; index += 1) expect((await client.status(reference)).json().status_code).toBe('00');
    expect(apiKeyReads()).toBe(0);
    expect(encryptionKeyReads()).toBe(0);
  });

  it('refuses a rotated key on the next request and answers with the new keys, whoever changed them', async () => {
    const keys = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    const reference = await client.newOrder();
    expect((await client.status(reference)).statusCode).toBe(200);
    const rotated = await app.merchants.rotateKeys(keys.subsidiaryId, 'test');
    await eventually(async () => (await keysAnswer(app, keys.publishableKey)) === 401);
    const renewed = new CheckoutClient(app, rotated!);
    expect((await renewed.status(reference)).json().status_code).toBe('00');

    // An operator disables the merchant with SQL: no service call, only the database's notice.
    await app.storage.query('UPDATE merchants SET disabled = true WHERE id = $1', [keys.subsidiaryId]);
    await eventually(async () => (await keysAnswer(app, rotated!.publishableKey)) === 403);
  });
});

describe.runIf(TEST_DATABASE_URL)('merchants and keys held by two processes on one PostgreSQL', () => {
  const place: Place = newPlace('postgres');
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    first = await startApp(place);
    second = await startApp(place);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await cleanPlace(place);
  });

  it("drops a key another process revoked as soon as the database announces it", async () => {
    const keys = await createMerchant(first);
    const atFirst = new CheckoutClient(first, keys);
    const atSecond = new CheckoutClient(second, keys);
    const reference = await atFirst.newOrder();
    expect((await atSecond.status(reference)).statusCode).toBe(200);
    const reads = countReads(second, 'api_keys');
    expect((await atSecond.status(reference)).statusCode).toBe(200);
    expect(reads()).toBe(0);

    await first.merchants.rotateKeys(keys.subsidiaryId, 'test');
    await eventually(async () => (await keysAnswer(second, keys.publishableKey)) === 401, 2000);
  });
});
