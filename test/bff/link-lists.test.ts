import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const HOUR = 3_600_000;
const CARD_APPROVED = '5555555555554444';

type Link = { id: number; reference: string; name: string; type: string; active: boolean };

describe.each(drivers)("the merchant's payment links list on %s", (driver) => {
  const clock = new ManualClock(new Date('2026-11-20T08:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  const links: Record<string, Link> = {};
  const orders: string[] = [];

  const get = (url: string, apiKey = keys.secretKey) => app.inject({ method: 'GET', url, headers: { 'api-key': apiKey } });
  const names = async (query = '') => {
    const answer = await get(`/checkout/payment-links${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json().data.items as Link[]).map((link) => link.name);
  };
  const create = async (merchant: IssuedKeys, fields: Record<string, unknown>) => {
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': merchant.secretKey },
      payload: { Description: 'A link', Currency: 'NGN', AuthOption: 'NOAUTH', ...fields },
    });
    expect(created.statusCode, created.body).toBe(200);
    clock.advance(HOUR);
    return created.json().data.paymentLink as Link;
  };

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    links.sale = await create(keys, { Name: 'Spring sale', PaymentType: 'SC', Amount: 5000 });
    links.stall = await create(keys, { Name: 'Market stall', PaymentType: 'MC', Amount: 2500 });
    links.box = await create(keys, { Name: 'Weekly box', PaymentType: 'SUB', Amount: 5000, FrequencyId: 3, NumberOfPayments: 4 });
    links.theirs = await create(other, { Name: 'Spring sale', PaymentType: 'SC', Amount: 5000 });
    const disabled = await app.inject({ method: 'PATCH', url: `/checkout/links/${links.stall.id}/status/disable`, headers: { 'api-key': keys.secretKey } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const client = new CheckoutClient(app, keys);
    orders.push(await client.newOrder({ payment: { paymentlinkid: links.sale.id } }));
    expect((await client.payByCard(orders[0]!, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    clock.advance(HOUR);
    orders.push(await client.newOrder({ payment: { paymentlinkid: links.box.id } }));
    await client.newOrder();
  });

  it('lists the links newest first with their type, state, amount, plan and address', async () => {
    expect(await names()).toEqual(['Weekly box', 'Market stall', 'Spring sale']);
    const [box, stall, sale] = (await get('/checkout/payment-links')).json().data.items;
    expect(sale).toMatchObject({
      id: links.sale!.id, reference: links.sale!.reference, type: 'SC', active: true, currency: 'NGN', amountMinor: 500_000, amount: '5000.00',
      payments: 1, plan: null, url: expect.stringContaining(`/l/${links.sale!.reference}`), createdAt: expect.stringMatching(/Z$/),
    });
    expect(stall).toMatchObject({ type: 'MC', active: false });
    expect(box).toMatchObject({ type: 'SUB', plan: { frequencyId: 3, numberOfPayments: 4 } });
  });

  it('pages by cursor without repeating or skipping a link', async () => {
    const first = (await get('/checkout/payment-links?limit=2')).json().data;
    const second = (await get(`/checkout/payment-links?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((link: Link) => link.name)).toEqual(['Weekly box', 'Market stall', 'Spring sale']);
  });

  it('filters by type, active, name or reference prefix, and creation time', async () => {
    expect(await names('?type=SUB')).toEqual(['Weekly box']);
    expect(await names('?active=false')).toEqual(['Market stall']);
    expect(await names('?active=true&type=SC')).toEqual(['Spring sale']);
    expect(await names('?q=SPRING')).toEqual(['Spring sale']);
    expect(await names(`?q=${links.box!.reference.slice(0, -2)}`)).toEqual(['Weekly box']);
    expect(await names('?q=sale')).toEqual([]);
    // Links take their creation time from the database's clock: the range is read off the list.
    const [box, stall] = (await get('/checkout/payment-links')).json().data.items as { createdAt: string }[];
    expect(await names(`?from=${stall!.createdAt}&to=${box!.createdAt}`)).toEqual(['Market stall']);
    expect(await names(`?from=${box!.createdAt}`)).toEqual(['Weekly box']);
  });

  it('shows one link by its id or its reference, and not another merchant’s', async () => {
    for (const key of [String(links.sale!.id), links.sale!.reference]) {
      const answer = await get(`/checkout/payment-links/${key}`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().data).toMatchObject({ id: links.sale!.id, name: 'Spring sale' });
    }
    for (const key of [String(links.theirs!.id), links.theirs!.reference, 'all', '999999']) {
      expect((await get(`/checkout/payment-links/${key}`)).json(), key).toMatchObject({ statusCode: 'NF404', reason: 'link_not_found' });
    }
    expect((await get(`/checkout/payment-links/${links.sale!.id}`, other.secretKey)).json()).toMatchObject({ statusCode: 'NF404' });
  });

  it("lists a link's orders through the orders list, with its filters", async () => {
    const items = (await get(`/checkout/payment-links/${links.sale!.reference}/orders`)).json().data.items;
    expect(items.map((order: { reference: string }) => order.reference)).toEqual([orders[0]]);
    expect(items[0]).toMatchObject({ state: 'paid', linkReference: links.sale!.reference, origin: 'payment_link' });
    expect((await get(`/checkout/payment-links/${links.box!.id}/orders`)).json().data.items.map((order: { reference: string }) => order.reference)).toEqual([orders[1]]);
    expect((await get(`/checkout/payment-links/${links.sale!.id}/orders?state=pending`)).json().data.items).toEqual([]);
    expect((await get(`/checkout/payment-links/${links.stall!.id}/orders`)).json().data).toEqual({ items: [], nextCursor: null });
    expect((await get(`/checkout/payment-links/${links.sale!.id}/orders`, other.secretKey)).json()).toMatchObject({ statusCode: 'NF404', reason: 'link_not_found' });
  });

  it('keeps the gateway’s own link routes working beside it', async () => {
    const all = await get('/checkout/links/all');
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toHaveLength(3);
  });

  it('refuses the publishable key and bad input', async () => {
    expect((await get('/checkout/payment-links', keys.publishableKey)).statusCode).toBe(403);
    expect((await get(`/checkout/payment-links/${links.sale!.id}`, keys.publishableKey)).statusCode).toBe(403);
    for (const [query, field] of [['?type=XX', /type/], ['?active=maybe', /active/], ['?limit=101', /limit/], ['?q=', /q/]] as const) {
      const answer = await get(`/checkout/payment-links${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(field) });
    }
    expect((await get('/checkout/payment-links?cursor=abc')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
    expect((await get(`/checkout/payment-links/${links.sale!.id}/orders?state=lost`)).statusCode).toBe(400);
  });
});
