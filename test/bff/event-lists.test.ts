import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const MINUTE = 60_000;
const CARD_APPROVED = '5555555555554444';
const CARD_DECLINED = '4000000000000002';

type Event = {
  id: string; type: string; orderReference: string | null; createdAt: string;
  deliveries: { total: number; pending: number; succeeded: number; failed: number; lastAttemptAt: string | null };
};

describe.each(drivers)("the merchant's events list on %s", (driver) => {
  const clock = new ManualClock(new Date('2026-11-20T08:00:00Z'));
  const test = useTestApp(driver, { clock, overrides: { WEBHOOK_TIMEOUT_SECONDS: '1' } });
  // The endpoint takes the first delivery and fails every later one.
  const receiver = new WebhookReceiver((index) => (index === 0 ? 204 : 500));
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let paid = '';
  let declined = '';

  const list = (query = '', apiKey = keys.secretKey) => app.inject({ method: 'GET', url: `/checkout/events${query}`, headers: { 'api-key': apiKey } });
  const events = async (query = '') => {
    const answer = await list(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.items as Event[];
  };

  beforeAll(async () => {
    app = test.app;
    await receiver.start();
    keys = await createMerchant(app);
    other = await createMerchant(app);
    const endpoint = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': keys.secretKey }, payload: { url: receiver.url() } });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    const client = new CheckoutClient(app, keys);
    paid = await client.newOrder();
    expect((await client.payByCard(paid, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    await app.jobs.runDue();
    clock.advance(MINUTE);
    declined = await client.newOrder();
    expect((await client.payByCard(declined, CARD_DECLINED)).statusCode).toBe(200);
    await app.jobs.runDue();
    const theirs = new CheckoutClient(app, other);
    const reference = await theirs.newOrder();
    expect((await theirs.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it("lists the merchant's events newest first, each with its order and its deliveries by state", async () => {
    const [failed, successful] = await events();
    expect(failed).toMatchObject({
      id: expect.stringMatching(/^evt_/), type: 'payment.failed', orderReference: declined, createdAt: '2026-11-20T08:01:00.000Z',
      deliveries: { total: 1, pending: 1, succeeded: 0, failed: 0, lastAttemptAt: '2026-11-20T08:01:00.000Z' },
    });
    expect(successful).toMatchObject({
      type: 'order.successful', orderReference: paid, createdAt: '2026-11-20T08:00:00.000Z',
      deliveries: { total: 1, pending: 0, succeeded: 1, failed: 0, lastAttemptAt: '2026-11-20T08:00:00.000Z' },
    });
    expect(await events()).toHaveLength(2);
  });

  it('filters by type and time, and pages by cursor without repeats or gaps', async () => {
    expect((await events('?type=order.successful')).map((event) => event.orderReference)).toEqual([paid]);
    expect((await events('?type=order.successful,payment.failed')).map((event) => event.orderReference)).toEqual([declined, paid]);
    expect(await events('?type=refund.failed')).toEqual([]);
    expect((await events('?from=2026-11-20T08:00:30Z')).map((event) => event.type)).toEqual(['payment.failed']);
    const first = (await list('?limit=1')).json().data;
    const second = (await list(`?limit=1&cursor=${first.nextCursor}`)).json().data;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((event: Event) => event.id)).toEqual((await events()).map((event) => event.id));
  });

  it("shows another merchant only its own events (without deliveries when it has no endpoint), and refuses the publishable key", async () => {
    const theirs = (await list('', other.secretKey)).json().data.items as Event[];
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ type: 'order.successful', deliveries: { total: 0, pending: 0, succeeded: 0, failed: 0, lastAttemptAt: null } });
    expect(theirs[0]!.orderReference).not.toBe(paid);
    expect((await list('', keys.publishableKey)).statusCode).toBe(403);
  });

  it('refuses bad filters with the envelope and a reason', async () => {
    expect((await list('?type=order.unheard_of')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_field' });
    expect((await list('?type=ORDER')).json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(/type/) });
    expect((await list('?limit=500')).statusCode).toBe(400);
    expect((await list('?cursor=W10')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
    expect((await list('?from=2026-11-21&to=2026-11-20')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
  });

  it('documents every new list in the OpenAPI document, from the contract', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/checkout/customers', '/checkout/customers/export', '/checkout/customers/{customerId}', '/checkout/customers/{customerId}/cards/{cardId}',
        '/checkout/subscriptions', '/checkout/subscriptions/export', '/checkout/payment-links', '/checkout/payment-links/{idOrReference}',
        '/checkout/payment-links/{idOrReference}/orders', '/checkout/events',
      ]),
    );
    expect(document.paths['/checkout/customers/{customerId}/cards/{cardId}'].delete.summary).toBe("Revoke a customer's saved card");
  });
});
