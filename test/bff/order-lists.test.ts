import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const CARD_APPROVED = '5555555555554444';
const CARD_DECLINED = '4000000000000002';

describe.each(drivers)("the merchant's orders list, search and export on %s", (driver) => {
  const test = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let client: CheckoutClient;
  const made: Record<string, string> = {};
  let accountNumber = '';

  const list = (query: string, apiKey = keys.secretKey) => app.inject({ method: 'GET', url: `/checkout/orders${query}`, headers: { 'api-key': apiKey } });
  const references = async (query: string) => {
    const answer = await list(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json().data.items as { reference: string }[]).map((item) => item.reference);
  };

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    client = new CheckoutClient(app, keys);
    made.pending = await client.newOrder({ customer: { email: 'Pending.Person@Example.test', mobile: '+2348011110000' } });
    made.paid = await client.newOrder({ customer: { email: 'card.payer@example.test' }, order: { amount: 12000 } });
    expect((await client.payByCard(made.paid, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    made.failed = await client.newOrder();
    expect((await client.payByCard(made.failed, CARD_DECLINED)).statusCode).toBe(200);
    made.awaiting = await client.newOrder({ customer: { email: 'transfer@example.test' } });
    const transfer = (await client.payByTransfer(made.awaiting)).json();
    accountNumber = JSON.stringify(transfer).match(/"(\d{10})"/)?.[1] ?? '';
    expect(accountNumber).toMatch(/^\d{10}$/);
    made.underpaid = await client.newOrder();
    const underpaidAccount = JSON.stringify((await client.payByTransfer(made.underpaid)).json()).match(/"(\d{10})"/)![1]!;
    expect((await client.transfer(underpaidAccount, 1000)).statusCode).toBe(200);
    made.usd = await client.newOrder({ order: { currency: 'USD', amount: 40 } });
    await new CheckoutClient(app, other).newOrder();
  });

  it('lists every order of the merchant newest first, and none of another merchant', async () => {
    const all = await references('');
    expect(all).toEqual([made.usd, made.underpaid, made.awaiting, made.failed, made.paid, made.pending]);
  });

  it('pages by cursor without repeating or skipping an order', async () => {
    const first = (await list('?limit=4')).json().data;
    expect(first.items).toHaveLength(4);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await list(`?limit=4&cursor=${first.nextCursor}`)).json().data;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((item: { reference: string }) => item.reference)).toEqual(await references(''));
  });

  it('tells each order state apart and filters by one or several', async () => {
    const answer = (await list('')).json().data.items as { reference: string; state: string }[];
    const states = Object.fromEntries(answer.map((item) => [item.reference, item.state]));
    expect(states).toEqual({
      [made.pending!]: 'pending', [made.paid!]: 'paid', [made.failed!]: 'failed', [made.awaiting!]: 'awaiting_transfer',
      [made.underpaid!]: 'underpaid', [made.usd!]: 'pending',
    });
    expect(await references('?state=paid')).toEqual([made.paid]);
    expect(await references('?state=underpaid,awaiting_transfer')).toEqual([made.underpaid, made.awaiting]);
  });

  it('filters by method, currency and amount range, and by date range', async () => {
    expect(await references('?method=card')).toEqual([made.failed, made.paid]);
    expect(await references('?currency=USD')).toEqual([made.usd]);
    expect(await references('?currency=NGN&amountMin=10000')).toEqual([made.paid]);
    expect(await references('?currency=NGN&amountMin=5000&amountMax=5000')).toEqual([made.underpaid, made.awaiting, made.failed, made.pending]);
    expect(await references('?to=2000-01-01')).toEqual([]);
    expect(await references('?from=2000-01-01T00:00:00Z')).toHaveLength(6);
  });

  it('finds orders by reference, e-mail, phone, last four, transfer account and payment reference, exactly or by prefix', async () => {
    expect(await references(`?q=${made.paid}`)).toEqual([made.paid]);
    expect(await references('?q=pending.person@')).toEqual([made.pending]);
    expect(await references('?q=PENDING.PERSON%40EXAMPLE.TEST')).toEqual([made.pending]);
    expect(await references('?q=%2B2348011110000')).toEqual([made.pending]);
    expect(await references('?q=2348011110')).toEqual([made.pending]);
    expect(await references('?q=4444')).toEqual([made.paid]);
    expect(await references(`?q=${accountNumber}`)).toEqual([made.awaiting]);
    const paymentReference = (await list(`?q=${made.paid}`)).json().data.items[0].payment.reference as string;
    expect(await references(`?q=${paymentReference.slice(0, 12)}`)).toEqual([made.paid]);
    expect(await references('?q=nobody-has-this')).toEqual([]);
  });

  it("presents an order with its customer, last attempt, fee and who bore it", async () => {
    const [paid] = (await list(`?q=${made.paid}`)).json().data.items;
    expect(paid).toMatchObject({
      reference: made.paid, origin: 'widget', state: 'paid', statusId: 5, amountMinor: 1_200_000, amount: '12000.00', currency: 'NGN',
      customer: { email: 'card.payer@example.test', name: 'Ada Obi', id: expect.stringMatching(/^cus_/) },
      payment: { method: 'card', cardLast4: '4444', cardBrand: expect.any(String), feeBearer: expect.stringMatching(/customer|merchant|shared/) },
    });
    expect(paid.createdAt).toMatch(/Z$/);
    expect(await references(`?customer=${paid.customer.id}`)).toEqual([made.paid]);
  });

  it("follows each order's later changes: a transfer completed or overpaid, a card payment refunded in full", async () => {
    const stateOf = async (reference: string) => (await list(`?q=${reference}`)).json().data.items[0].state as string;
    const exact = await client.newOrder();
    const exactAccount = JSON.stringify((await client.payByTransfer(exact)).json()).match(/"(\d{10})"/)![1]!;
    expect(await stateOf(exact)).toBe('awaiting_transfer');
    expect((await client.transfer(exactAccount, 5000)).statusCode).toBe(200);
    expect(await stateOf(exact)).toBe('paid');
    const over = await client.newOrder();
    const overAccount = JSON.stringify((await client.payByTransfer(over)).json()).match(/"(\d{10})"/)![1]!;
    expect((await client.transfer(overAccount, 6000)).statusCode).toBe(200);
    expect(await stateOf(over)).toBe('overpaid');
    const refunded = await client.newOrder();
    expect((await client.payByCard(refunded, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    const refund = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference: refunded } });
    expect(refund.json()).toMatchObject({ statusCode: '00' });
    expect(await stateOf(refunded)).toBe('reversed');
    expect(await references('?state=reversed')).toEqual([refunded]);
  });

  it('refuses bad filters with the envelope and a reason', async () => {
    for (const query of ['?limit=101', '?limit=0', '?state=lost', '?from=yesterday', '?from=2026-01-01T10:00:00', '?method=cash', '?amountMin=5']) {
      const answer = await list(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ status: 'failed', statusCode: 'VAL400' });
    }
    const cursor = await list('?cursor=not-a-cursor');
    expect(cursor.json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
    const range = await list('?from=2026-02-01&to=2026-01-01');
    expect(range.json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
  });

  it('answers only the secret key: a publishable key is refused, and another merchant sees only its own', async () => {
    expect((await list('', keys.publishableKey)).statusCode).toBe(403);
    const theirs = (await list(`?q=${made.paid}`, other.secretKey)).json().data.items;
    expect(theirs).toEqual([]);
    expect((await list('', other.secretKey)).json().data.items).toHaveLength(1);
  });

  it('exports the filtered list as CSV with a stable header, amounts in major units and formulas neutralised', async () => {
    const answer = await app.inject({ method: 'GET', url: '/checkout/orders/export?currency=NGN', headers: { 'api-key': keys.secretKey } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe('created_at,reference,state,status_id,currency,amount,fee,fee_bearer,method,card_brand,card_last4,transfer_account,received,payment_reference,customer_email,customer_name,customer_mobile,link_reference,subscription_reference,origin,description');
    expect(lines).toHaveLength(1 + (await references('?currency=NGN')).length);
    expect(lines.find((line) => line.includes(made.paid!))).toContain(',12000.00,');
    expect(lines.find((line) => line.includes(made.pending!))).toContain(",\"'+2348011110000\",");
    const bad = await app.inject({ method: 'GET', url: '/checkout/orders/export?from=2026-02-01&to=2026-01-01', headers: { 'api-key': keys.secretKey } });
    expect(bad.json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
  });
});
