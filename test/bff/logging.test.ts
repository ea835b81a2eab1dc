import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../bff/app.ts';
import { cleanPlace, newPlace, testConfig, type Place, logCapture } from '../support/app.ts';
import { CheckoutClient, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/** Everything the app logs at the most verbose level, while a customer pays and clients make mistakes. */
describe('logs', () => {
  let place: Place;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    place = newPlace('pglite');
    const { stream } = logCapture(lines);
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

  it('never contain a key sent in the query string, nor link references or frame tokens from paths', async () => {
    const keys = await createMerchant(app);
    const link = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Tickets', Description: 'Two tickets', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH' },
    });
    const reference = link.json().data.paymentLink.reference as string;
    const frameToken = `ft_${'q'.repeat(40)}`;
    const before = lines.length;
    await app.inject({ method: 'GET', url: `/checkout/frequencies?api-key=${keys.secretKey}` });
    await app.inject({ method: 'GET', url: `/l/${reference}` });
    await app.inject({ method: 'GET', url: `/checkout/frame/${frameToken}?x=1` });

    const log = lines.slice(before).join('');
    expect(log).toContain('/checkout/frequencies');
    expect(log).toContain('/l/***');
    for (const secret of [keys.secretKey, keys.secretKey.slice(8), reference, frameToken, 'api-key=']) {
      expect(log).not.toContain(secret);
    }
  });

  it('name a storage failure by its code and message, never its SQL or bind values', async () => {
    const failing = newPlace('pglite');
    const failingLines: string[] = [];
    const { stream } = logCapture(failingLines);
    const broken = await buildApp(testConfig(failing, { LOG_LEVEL: 'trace' }), { logStream: stream });
    try {
      const keys = await createMerchant(broken);
      // A column the insert needs goes away, so the statement fails inside the driver with its bind values attached.
      await broken.storage.query('ALTER TABLE payment_links RENAME COLUMN description TO gone');
      const response = await broken.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey },
        payload: { Name: 'Zebedee Quartermaine', Description: 'Secret Garden Tour', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH' },
      });
      expect(response.statusCode).toBe(500);
      const failure = failingLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'unexpected error');
      expect(failure?.err).toMatchObject({ code: '42703', message: expect.stringContaining('description') });
      const log = failingLines.join('');
      for (const secret of ['Zebedee Quartermaine', 'Secret Garden Tour', '"params"', '"query"', 'INSERT INTO']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await broken.close();
      await cleanPlace(failing);
    }
  });
});
