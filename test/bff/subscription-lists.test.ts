import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const HOUR = 3_600_000;
const APPROVING_CARD = '4242424242424242';

async function createSubLink(client: CheckoutClient, fields: Record<string, unknown> = {}) {
  const created = await client.app.inject({
    method: 'POST',
    url: '/checkout/links/create',
    headers: { 'api-key': client.keys.secretKey },
    payload: { Name: 'Gym', Description: 'Membership', PaymentType: 'SUB', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 5000, ...fields },
  });
  expect(created.statusCode, created.body).toBe(200);
  return created.json().data.paymentLink as { id: number; reference: string };
}

/** A customer subscribes: makes the order, pays the first charge by card, passes 3-D Secure. */
async function subscribe(client: CheckoutClient, linkId: number, email: string): Promise<string> {
  const reference = newReference('SUBORD');
  const created = await client.createOrder(orderPayload(reference, { payment: { paymentlinkid: linkId }, customer: { email } }));
  expect(created.statusCode, created.body).toBe(200);
  const paid = (await client.payByCard(reference, APPROVING_CARD)).json();
  expect(paid, JSON.stringify(paid)).toMatchObject({ statusCode: '02' });
  await client.authenticate(paid.data.paymentDetail.redirectUrl);
  return reference;
}

type Item = { id: number; reference: string; state: string; firstOrderReference: string; customer: { id: string; email: string } };

describe.each(drivers)("the merchant's subscriptions list and export on %s", (driver) => {
  const clock = new ManualClock(new Date('2026-11-20T08:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  const orders: Record<string, string> = {};
  const links: Record<string, { id: number; reference: string }> = {};

  const list = (query = '', apiKey = keys.secretKey) => app.inject({ method: 'GET', url: `/checkout/subscriptions${query}`, headers: { 'api-key': apiKey } });
  const firstOrders = async (query = '') => {
    const answer = await list(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json().data.items as Item[]).map((item) => item.firstOrderReference);
  };

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    links.weekly = await createSubLink(client, { Name: 'Weekly box', FrequencyId: 3, NumberOfPayments: 4 });
    links.monthly = await createSubLink(client, { Name: 'Monthly gym', FrequencyId: 6 });
    orders.ada = await subscribe(client, links.weekly.id, 'ada@example.test');
    clock.advance(HOUR);
    orders.bola = await subscribe(client, links.monthly.id, 'bola@example.test');
    clock.advance(HOUR);
    orders.chi = await subscribe(client, links.weekly.id, 'chi@example.test');
    const bola = (await list()).json().data.items.find((item: Item) => item.firstOrderReference === orders.bola) as Item;
    const cancelled = await app.inject({
      method: 'PATCH',
      url: `/checkout/links/recurringpayment/${bola.id}/cancel`,
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: String(bola.id) }),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const theirs = new CheckoutClient(app, other);
    await subscribe(theirs, (await createSubLink(theirs)).id, 'ada@example.test');
  });

  it('lists every subscription of the merchant newest first, with its plan, amount, customer, link and next charge', async () => {
    expect(await firstOrders()).toEqual([orders.chi, orders.bola, orders.ada]);
    const [chi, bola] = (await list()).json().data.items;
    expect(chi).toMatchObject({
      state: 'active', plan: { frequencyId: 3, frequency: 'Weekly', numberOfPayments: 4 }, amountMinor: 500_000, amount: '5000.00', currency: 'NGN',
      customer: { id: expect.stringMatching(/^cus_/), email: 'chi@example.test', name: 'Ada Obi' }, linkReference: links.weekly!.reference,
      paymentsMade: 1, nextChargeAt: '2026-11-27T10:00:00.000Z', createdAt: '2026-11-20T10:00:00.000Z', endedAt: null,
    });
    expect(bola).toMatchObject({ state: 'cancelled', plan: { frequency: 'Monthly', numberOfPayments: null }, nextChargeAt: null, endedAt: expect.stringMatching(/Z$/) });
  });

  it('pages by cursor without repeating or skipping a subscription', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Item[]; nextCursor: string | null } = (await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json().data;
      seen.push(...page.items.map((item: Item) => item.firstOrderReference));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([orders.chi, orders.bola, orders.ada]);
  });

  it('filters by state, link, customer and start time', async () => {
    expect(await firstOrders('?state=active')).toEqual([orders.chi, orders.ada]);
    expect(await firstOrders('?state=cancelled,past_due')).toEqual([orders.bola]);
    expect(await firstOrders(`?link=${links.weekly!.reference}`)).toEqual([orders.chi, orders.ada]);
    expect(await firstOrders('?link=PL-none')).toEqual([]);
    const ada = (await list(`?link=${links.weekly!.reference}`)).json().data.items.at(-1) as Item;
    expect(await firstOrders(`?customer=${ada.customer.id}`)).toEqual([orders.ada]);
    expect(await firstOrders('?from=2026-11-20T08:30:00Z&to=2026-11-20T09:30:00Z')).toEqual([orders.bola]);
  });

  it("never shows another merchant's subscriptions, and refuses the publishable key", async () => {
    expect((await list('', other.secretKey)).json().data.items).toHaveLength(1);
    expect(await firstOrders(`?link=${links.weekly!.reference}`)).toHaveLength(2);
    expect((await list(`?link=${links.weekly!.reference}`, other.secretKey)).json().data.items).toEqual([]);
    expect((await list('', keys.publishableKey)).statusCode).toBe(403);
  });

  it('refuses bad filters with the envelope', async () => {
    for (const [query, field] of [['?state=paused', /state/], ['?limit=0', /limit/], ['?to=soon', /to/]] as const) {
      const answer = await list(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(field) });
    }
    expect((await list('?customer=cus_AAAA')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_field' });
    expect((await list('?cursor=xyz')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
  });

  it('exports the filtered subscriptions as CSV with a stable header', async () => {
    const answer = await app.inject({ method: 'GET', url: '/checkout/subscriptions/export?state=active', headers: { 'api-key': keys.secretKey } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,reference,id,state,frequency,number_of_payments,payments_made,currency,amount,next_charge_at,ended_at,customer_id,customer_email,customer_name,customer_mobile,link_reference,first_order_reference',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,active,Weekly,4,1,NGN,5000.00,2026-11-27T10:00:00.000Z,,`);
    expect(lines[1]).toContain(",\"'+2348012345678\",");
    expect(lines[1]!.endsWith(`,${links.weekly!.reference},${orders.chi}`)).toBe(true);
    const bad = await app.inject({ method: 'GET', url: '/checkout/subscriptions/export?from=2026-12-01&to=2026-11-01', headers: { 'api-key': keys.secretKey } });
    expect(bad.json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
    expect((await app.inject({ method: 'GET', url: '/checkout/subscriptions/export', headers: { 'api-key': keys.publishableKey } })).statusCode).toBe(403);
  });
});
