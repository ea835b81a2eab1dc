import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const CARD_APPROVED = '5555555555554444';
const HOUR = 3_600_000;
const START = new Date('2026-11-20T08:00:00Z');

type Customer = { id: string; email: string | null; name: string; mobile: string | null; ordersCount: number; paidCount: number };

describe.each(drivers)("the merchant's customers on %s", (driver) => {
  const clock = new ManualClock(new Date(START));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let client: CheckoutClient;

  const get = (url: string, apiKey = keys.secretKey) => app.inject({ method: 'GET', url, headers: { 'api-key': apiKey } });
  const customers = async (query = '') => {
    const answer = await get(`/checkout/customers${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.items as Customer[];
  };
  const emails = async (query = '') => (await customers(query)).map((customer) => customer.email ?? customer.mobile);

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    client = new CheckoutClient(app, keys);
    // 08:00 Ada pays; 09:00 Bola; 10:00 a customer known by mobile only; 11:00 Ada again, under a new name, in USD.
    const first = await client.newOrder({ customer: { email: 'ada@example.test' }, order: { amount: 12000 } });
    expect((await client.payByCard(first, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    clock.advance(HOUR);
    await client.newOrder({ customer: { email: 'Bola@Example.test', firstname: 'Bola', lastname: 'Ade', mobile: '+2348099990000' } });
    clock.advance(HOUR);
    await client.newOrder({ customer: { email: undefined, firstname: 'Chi', lastname: 'Eze', mobile: '08031234567' } });
    clock.advance(HOUR);
    const usd = await client.newOrder({ customer: { email: 'ADA@example.test', firstname: 'Ada', lastname: 'Obi-Eze' }, order: { currency: 'USD', amount: 40 } });
    expect((await client.payByCard(usd, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    await new CheckoutClient(app, other).newOrder({ customer: { email: 'ada@example.test' } });
  });

  it('lists one item per customer, newest customer first, with counts, paid totals per currency and the latest name', async () => {
    const all = await customers();
    expect(all.map((customer) => customer.email ?? customer.mobile)).toEqual(['08031234567', 'bola@example.test', 'ada@example.test']);
    expect(all[2]).toMatchObject({
      id: expect.stringMatching(/^cus_/), email: 'ada@example.test', name: 'Ada Obi-Eze', country: 'NG', ordersCount: 2, paidCount: 2,
      totalPaid: [{ currency: 'NGN', amountMinor: 1_200_000, amount: '12000.00' }, { currency: 'USD', amountMinor: 4000, amount: '40.00' }],
      firstOrderAt: '2026-11-20T08:00:00.000Z', lastOrderAt: '2026-11-20T11:00:00.000Z',
    });
    expect(all[0]).toMatchObject({ email: null, mobile: '08031234567', name: 'Chi Eze', ordersCount: 1, paidCount: 0, totalPaid: [] });
  });

  it('pages by cursor without repeating or skipping a customer, even when a listed customer orders again', async () => {
    const first = (await get('/checkout/customers?limit=1')).json().data;
    expect(first.items).toHaveLength(1);
    // Bola orders again between pages: its place (its first order) does not move.
    clock.advance(HOUR);
    await client.newOrder({ customer: { email: 'bola@example.test', firstname: 'Bola', lastname: 'Ade' } });
    // A new customer between pages appears on the first page, never on a later one.
    await client.newOrder({ customer: { email: 'dan@example.test', firstname: 'Dan' } });
    const second = (await get(`/checkout/customers?limit=1&cursor=${first.nextCursor}`)).json().data;
    const third = (await get(`/checkout/customers?limit=1&cursor=${second.nextCursor}`)).json().data;
    expect(third.nextCursor).toBeNull();
    expect([...first.items, ...second.items, ...third.items].map((item: Customer) => item.email ?? item.mobile)).toEqual(['08031234567', 'bola@example.test', 'ada@example.test']);
    expect(second.items[0].ordersCount).toBe(2);
    expect(await emails('?limit=1')).toEqual(['dan@example.test']);
  });

  it('finds customers by e-mail or phone prefix, and by the time of their last order', async () => {
    expect(await emails('?q=ADA%40')).toEqual(['ada@example.test']);
    expect(await emails('?q=bo')).toEqual(['bola@example.test']);
    expect(await emails('?q=0803123')).toEqual(['08031234567']);
    expect(await emails('?q=%2B23480999')).toEqual(['bola@example.test']);
    expect(await emails('?q=2348099990000')).toEqual(['bola@example.test']);
    expect(await emails('?q=nobody')).toEqual([]);
    expect(await emails('?from=2026-11-20T10:30:00Z')).toEqual(['dan@example.test', 'bola@example.test', 'ada@example.test']);
    expect(await emails('?from=2026-11-20T09:30:00Z&to=2026-11-20T10:30:00Z')).toEqual(['08031234567']);
  });

  it("shows one customer with its orders, and another merchant's customer is not found", async () => {
    const ada = (await customers('?q=ada@')).at(0)!;
    const detail = await get(`/checkout/customers/${ada.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const data = detail.json().data;
    expect(data).toMatchObject({ id: ada.id, ordersCount: 2, subscriptions: [], cards: [] });
    expect(data.orders.items.map((order: { currency: string }) => order.currency)).toEqual(['USD', 'NGN']);
    expect(data.orders.nextCursor).toBeNull();
    const theirs = await get(`/checkout/customers/${ada.id}`, other.secretKey);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.ordersCount).toBe(1);
    const bola = (await customers('?q=bola')).at(0)!;
    expect((await get(`/checkout/customers/${bola.id}`, other.secretKey)).json()).toMatchObject({ statusCode: 'NF404', reason: 'customer_not_found' });
    expect((await get(`/checkout/customers?q=bola`, other.secretKey)).json().data.items).toEqual([]);
  });

  it('shows the cards a vouched-for customer saved, without their token, and revokes one so it is neither offered nor usable', async () => {
    const shopper = await client.asCustomer('shopper-77');
    const reference = await shopper.newOrder({ customer: { email: 'saver@example.test' } });
    expect((await shopper.payByCard(reference, CARD_APPROVED, { save: true })).json().statusCode).toBe('00');
    const saver = (await customers('?q=saver@')).at(0)!;
    const detail = await get(`/checkout/customers/${saver.id}`);
    expect(detail.json().data.cards).toEqual([{ id: expect.stringMatching(/^card_\d+$/), brand: 'mastercard', last4: '4444', expiry: '01/39', savedAt: expect.stringMatching(/Z$/) }]);
    expect(detail.body).not.toMatch(/sbx_card_/);
    const cardId = detail.json().data.cards[0].id as string;

    const saverOrder = () => orderPayload(newReference(), { customer: { email: 'saver@example.test' } });
    const offered = await shopper.createOrder(saverOrder());
    const token = offered.json().data.savedCards[0].token as string;
    // Another merchant, and another customer of this merchant, cannot revoke it.
    const bola = (await customers('?q=bola')).at(0)!;
    const wrongCustomer = await app.inject({ method: 'DELETE', url: `/checkout/customers/${bola.id}/cards/${cardId}`, headers: { 'api-key': keys.secretKey } });
    expect(wrongCustomer.json()).toMatchObject({ statusCode: 'NF404', reason: 'card_not_found' });
    const stranger = await app.inject({ method: 'DELETE', url: `/checkout/customers/${saver.id}/cards/${cardId}`, headers: { 'api-key': other.secretKey } });
    expect(stranger.json()).toMatchObject({ statusCode: 'NF404', reason: 'customer_not_found' });

    const revoked = await app.inject({ method: 'DELETE', url: `/checkout/customers/${saver.id}/cards/${cardId}`, headers: { 'api-key': keys.secretKey } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data).toEqual({ id: cardId, revoked: true });
    expect((await get(`/checkout/customers/${saver.id}`)).json().data.cards).toEqual([]);
    const laterOrder = saverOrder();
    const later = await shopper.createOrder(laterOrder);
    expect(later.json().data.savedCards).toEqual([]);
    const refused = await shopper.pay(laterOrder.order.reference, { paymentoption: 'C', cardToken: token, card: { cvv: '123' } });
    expect(refused.statusCode, refused.body).toBe(404);
    expect(refused.json()).toMatchObject({ statusCode: 'NF404' });
    const again = await app.inject({ method: 'DELETE', url: `/checkout/customers/${saver.id}/cards/${cardId}`, headers: { 'api-key': keys.secretKey } });
    expect(again.json()).toMatchObject({ statusCode: 'NF404', reason: 'card_not_found' });
  });

  it('exports customers as CSV with a stable header and formulas neutralised', async () => {
    const answer = await get('/checkout/customers/export?q=0803');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe('customer_id,email,name,mobile,country,orders,paid_orders,total_paid,first_order_at,last_order_at');
    expect(lines).toHaveLength(2);
    const all = (await get('/checkout/customers/export')).body.trim().split('\r\n');
    expect(all.find((line) => line.includes('ada@example.test'))).toContain(',2,2,NGN 12000.00; USD 40.00,');
    expect(all.find((line) => line.includes('bola@example.test'))).toContain(",\"'+2348012345678\",");
  });

  it('refuses the publishable key and bad input with a reason', async () => {
    expect((await get('/checkout/customers', keys.publishableKey)).statusCode).toBe(403);
    expect((await get('/checkout/customers/export', keys.publishableKey)).statusCode).toBe(403);
    const refusals = {
      '/checkout/customers?limit=101': /limit/,
      '/checkout/customers?from=yesterday': /from/,
      '/checkout/customers/not-a-customer': /customerId/,
      'DELETE /checkout/customers/cus_AAAA/cards/visa': /cardId/,
    };
    for (const [url, field] of Object.entries(refusals)) {
      const [method, path] = url.startsWith('DELETE ') ? ['DELETE' as const, url.slice(7)] : ['GET' as const, url];
      const answer = await app.inject({ method, url: path, headers: { 'api-key': keys.secretKey } });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(field) });
    }
    // A well-formed id that names no customer's identity (neither e-mail nor mobile).
    expect((await get('/checkout/customers/cus_AAAA')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_field' });
    expect((await get('/checkout/customers?cursor=nope')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
    expect((await get('/checkout/customers?from=2026-12-01&to=2026-11-01')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
    expect((await get(`/checkout/customers/cus_${Buffer.from('e:nobody@example.test').toString('base64url')}`)).json()).toMatchObject({ statusCode: 'NF404', reason: 'customer_not_found' });
  });
});
