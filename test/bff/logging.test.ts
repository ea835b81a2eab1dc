import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../bff/app.ts';
import { cleanPlace, newPlace, testConfig, type Place } from '../support/app.ts';
import { CheckoutClient, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/** Everything the app logs at the most verbose level, while a customer pays and clients make mistakes. */
describe('logs', () => {
  let place: Place;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    place = newPlace('pglite');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp(testConfig(place, { LOG_LEVEL: 'trace' }), { logStream: stream });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it('never contain API keys, card numbers, CVVs or request bodies', async () => {
    const keys = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    const reference = await client.newOrder();
    await client.payByCard(reference, '5555555555554444', { cvv: '987' });
    await client.payByCard(await client.newOrder(), '4242424242424242', { cvv: '654' });
    await client.verify(reference);
    await app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': keys.secretKey }, payload: '{"Name": "broken' });
    await app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': `${keys.secretKey}x` }, payload: {} });
    await app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': keys.publishableKey }, payload: { data: JSON.stringify(orderPayload()) } });

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('"reqId"');
    for (const secret of [keys.secretKey, keys.publishableKey, keys.secretKey.slice(8), '5555555555554444', '4242424242424242', '"987"', '"654"', 'ada@example.test']) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/"body"|"payload"/);
  });
});
