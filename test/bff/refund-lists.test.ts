import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const CARD_APPROVED = '5555555555554444';
const MINUTE = 60_000;

type Refund = { reference: string; orderReference: string; state: string; amountMinor: number; currency: string; [field: string]: unknown };

describe.each(drivers)("the merchant's refunds list and export on %s", (driver) => {
  const clock = new ManualClock(new Date('2026-11-10T08:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  const orders: Record<string, string> = {};
  const refunds: Record<string, string> = {};

  const list = (query: string, apiKey = keys.secretKey) => app.inject({ method: 'GET', url: `/checkout/refunds${query}`, headers: { 'api-key': apiKey } });
  const items = async (query: string): Promise<Refund[]> => {
    const answer = await list(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.items;
  };
  const references = async (query: string) => (await items(query)).map((item) => item.reference);

  async function paidOrder(client: CheckoutClient, order: object): Promise<string> {
    const reference = await client.newOrder({ order });
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    return reference;
  }
  async function refund(apiKey: string, body: object): Promise<string> {
    clock.advance(MINUTE);
    const answer = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': apiKey }, payload: body });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.refund.refundReference;
  }

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    orders.ngn = await paidOrder(client, { amount: 5000 });
    orders.usd = await paidOrder(client, { currency: 'USD', amount: 40 });
    refunds.partial = await refund(keys.secretKey, { reference: orders.ngn, amount: 1000, reason: '=HYPERLINK("http://evil.test")' });
    // The sandbox declines a refund whose amount ends in .05.
    refunds.failed = await refund(keys.secretKey, { reference: orders.ngn, amount: 100.05 });
    refunds.usd = await refund(keys.secretKey, { reference: orders.usd });
    const theirs = await paidOrder(new CheckoutClient(app, other), { amount: 3000 });
    await refund(other.secretKey, { reference: theirs, amount: 100 });
  });

  it('lists every refund of the merchant newest first, and none of another merchant', async () => {
    expect(await references('')).toEqual([refunds.usd, refunds.failed, refunds.partial]);
  });

  it('presents a refund with its order, payment, amount, state, reason and the processor’s answer', async () => {
    const [usd, failed, partial] = await items('');
    expect(partial).toEqual({
      reference: refunds.partial, orderReference: orders.ngn, paymentReference: expect.stringMatching(/^PAY/), state: 'succeeded',
      amountMinor: 100_000, amount: '1000.00', currency: 'NGN', reason: '=HYPERLINK("http://evil.test")', responseCode: '00',
      responseMessage: expect.any(String), createdAt: '2026-11-10T08:01:00.000Z', completedAt: '2026-11-10T08:01:00.000Z',
    });
    expect(failed).toMatchObject({ state: 'failed', amountMinor: 10_005, amount: '100.05', responseCode: '05', orderReference: orders.ngn });
    expect(usd).toMatchObject({ state: 'succeeded', currency: 'USD', orderReference: orders.usd, amountMinor: expect.any(Number) });
    expect(usd!.amountMinor).toBeGreaterThanOrEqual(4_000);
  });

  it('pages by cursor without repeating or skipping a refund', async () => {
    const first = (await list('?limit=2')).json().data;
    expect(first.items).toHaveLength(2);
    const second = (await list(`?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((item: Refund) => item.reference)).toEqual([refunds.usd, refunds.failed, refunds.partial]);
  });

  it('filters by state, order reference, currency and date range', async () => {
    expect(await references('?state=failed')).toEqual([refunds.failed]);
    expect(await references('?state=succeeded')).toEqual([refunds.usd, refunds.partial]);
    expect(await references(`?order=${orders.ngn}`)).toEqual([refunds.failed, refunds.partial]);
    expect(await references('?currency=USD')).toEqual([refunds.usd]);
    expect(await references('?from=2026-11-10T08:02:00Z')).toEqual([refunds.usd, refunds.failed]);
    expect(await references('?from=2026-11-10T08:02:00Z&to=2026-11-10T08:03:00Z')).toEqual([refunds.failed]);
    expect(await references('?to=2026-11-10')).toEqual([]);
    expect(await references('?order=NO-SUCH-ORDER')).toEqual([]);
  });

  it('refuses bad filters with VAL400 and a reason', async () => {
    for (const query of ['?limit=0', '?limit=101', '?state=lost', '?currency=XX', '?from=yesterday', '?from=2026-11-10T08:00:00']) {
      const answer = await list(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ status: 'failed', statusCode: 'VAL400', reason: 'invalid_field' });
    }
    expect((await list('?cursor=not-a-cursor')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_cursor' });
    expect((await list('?from=2026-12-01&to=2026-11-01')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
  });

  it('answers only the secret key, and another merchant sees only its own refunds', async () => {
    expect((await list('', keys.publishableKey)).statusCode).toBe(403);
    const theirs = (await list('', other.secretKey)).json().data.items as Refund[];
    expect(theirs).toHaveLength(1);
    expect(Object.values(refunds)).not.toContain(theirs[0]!.reference);
    expect((await list(`?order=${orders.ngn}`, other.secretKey)).json().data.items).toEqual([]);
  });

  it('exports the filtered refunds as CSV with stable columns, amounts in major units and formulas neutralised', async () => {
    const answer = await app.inject({ method: 'GET', url: '/checkout/refunds/export?currency=NGN', headers: { 'api-key': keys.secretKey } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="refunds.csv"');
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe('created_at,reference,order_reference,payment_reference,state,currency,amount,reason,response_code,response_message,completed_at');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^2026-11-10T08:02:00.000Z,${refunds.failed},${orders.ngn},PAY\\w+,failed,NGN,100.05,,05,`));
    expect(lines[2]).toContain(`,succeeded,NGN,1000.00,"'=HYPERLINK(""http://evil.test"")",00,`);
    const bad = await app.inject({ method: 'GET', url: '/checkout/refunds/export?from=2026-12-01&to=2026-11-01', headers: { 'api-key': keys.secretKey } });
    expect(bad.json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
    expect((await app.inject({ method: 'GET', url: '/checkout/refunds/export', headers: { 'api-key': keys.publishableKey } })).statusCode).toBe(403);
  });
});
