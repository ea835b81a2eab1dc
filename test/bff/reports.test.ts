import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const CARD_APPROVED = '5555555555554444';
const CARD_DECLINED = '4000000000000002';
const HOUR = 3_600_000;

const money = (minor: number, amount: string) => ({ minor, amount });

describe.each(drivers)("the merchant's summary report on %s", (driver) => {
  // Monday 2 November 2026, 10:00 UTC.
  const clock = new ManualClock(new Date('2026-11-02T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;

  const report = (query: string, apiKey = keys.secretKey) =>
    app.inject({ method: 'GET', url: `/checkout/reports/summary${query}`, headers: { 'api-key': apiKey } });
  const summary = async (query: string) => {
    const answer = await report(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data;
  };

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    // Day one: NGN 5000 paid by card (fee 1.5 % + 100.00 = 175.00, borne by the customer), one declined, one never
    // tried; USD 40 paid by card (fee 6 % = 2.40, the customer's).
    const paid = await client.newOrder({ order: { amount: 5000 } });
    expect((await client.payByCard(paid, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    const declined = await client.newOrder({ order: { amount: 5000 } });
    expect((await client.payByCard(declined, CARD_DECLINED)).statusCode).toBe(200);
    await client.newOrder({ order: { amount: 5000 } });
    const usd = await client.newOrder({ order: { currency: 'USD', amount: 40 } });
    expect((await client.payByCard(usd, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    // Day two: NGN 5000 by bank transfer (fee 0.5 % = 25.00, the merchant's), 1000 of the card payment refunded,
    // and an order made a minute ago (not abandoned yet).
    clock.advance(24 * HOUR);
    const transfer = await client.newOrder({ order: { amount: 5000 } });
    const account = JSON.stringify((await client.payByTransfer(transfer)).json()).match(/"(\d{10})"/)![1]!;
    expect((await client.transfer(account, 5000)).statusCode).toBe(200);
    const refund = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference: paid, amount: 1000 } });
    expect(refund.json()).toMatchObject({ statusCode: '00' });
    await client.newOrder({ order: { amount: 2000 } });
    // Another merchant's payment counts only in its own report.
    const otherClient = new CheckoutClient(app, other);
    const theirs = await otherClient.newOrder({ order: { amount: 9000 } });
    expect((await otherClient.payByCard(theirs, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    clock.advance(60_000);
  });

  const dayOneNgn = {
    currency: 'NGN',
    collected: money(517_500, '5175.00'),
    fees: { customer: money(17_500, '175.00'), merchant: money(0, '0.00'), total: money(17_500, '175.00') },
    refunded: money(0, '0.00'),
    net: money(500_000, '5000.00'),
    orders: 3,
    paidOrders: 1,
    successRate: 0.3333,
    abandoned: 2,
    byMethod: [{ method: 'card', collected: money(517_500, '5175.00'), payments: 1, attempts: 2, successRate: 0.5 }],
  };
  const dayOneUsd = {
    currency: 'USD',
    collected: money(4_240, '42.40'),
    fees: { customer: money(240, '2.40'), merchant: money(0, '0.00'), total: money(240, '2.40') },
    refunded: money(0, '0.00'),
    net: money(4_000, '40.00'),
    orders: 1,
    paidOrders: 1,
    successRate: 1,
    abandoned: 0,
    byMethod: [{ method: 'card', collected: money(4_240, '42.40'), payments: 1, attempts: 1, successRate: 1 }],
  };
  const dayTwoNgn = {
    currency: 'NGN',
    collected: money(500_000, '5000.00'),
    fees: { customer: money(0, '0.00'), merchant: money(2_500, '25.00'), total: money(2_500, '25.00') },
    refunded: money(100_000, '1000.00'),
    net: money(397_500, '3975.00'),
    orders: 2,
    paidOrders: 1,
    successRate: 0.5,
    abandoned: 0,
    byMethod: [{ method: 'bank_transfer', collected: money(500_000, '5000.00'), payments: 1, attempts: 1, successRate: 1 }],
  };

  it('sums each UTC day per currency: collected, fees by bearer, refunds, net, orders, success rates by method and abandoned checkouts', async () => {
    const data = await summary('?from=2026-11-02&to=2026-11-04&interval=day');
    expect(data.from).toBe('2026-11-02T00:00:00.000Z');
    expect(data.interval).toBe('day');
    expect(data.buckets).toEqual([
      { start: '2026-11-02T00:00:00.000Z', end: '2026-11-03T00:00:00.000Z', currencies: [dayOneNgn, dayOneUsd] },
      { start: '2026-11-03T00:00:00.000Z', end: '2026-11-04T00:00:00.000Z', currencies: [dayTwoNgn] },
    ]);
  });

  it('totals the range per currency, never adding two currencies together', async () => {
    const { total } = await summary('?from=2026-11-02&to=2026-11-04');
    expect(total.currencies).toEqual([
      {
        currency: 'NGN',
        collected: money(1_017_500, '10175.00'),
        fees: { customer: money(17_500, '175.00'), merchant: money(2_500, '25.00'), total: money(20_000, '200.00') },
        refunded: money(100_000, '1000.00'),
        net: money(897_500, '8975.00'),
        orders: 5,
        paidOrders: 2,
        successRate: 0.4,
        abandoned: 2,
        byMethod: [
          { method: 'bank_transfer', collected: money(500_000, '5000.00'), payments: 1, attempts: 1, successRate: 1 },
          { method: 'card', collected: money(517_500, '5175.00'), payments: 1, attempts: 2, successRate: 0.5 },
        ],
      },
      dayOneUsd,
    ]);
  });

  it('buckets by ISO week from Monday and by month, clipped to the range, with empty buckets kept', async () => {
    const weeks = await summary('?from=2026-11-01&to=2026-11-10&interval=week');
    expect(weeks.buckets.map((bucket: { start: string; end: string }) => [bucket.start, bucket.end])).toEqual([
      ['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z'],
      ['2026-11-02T00:00:00.000Z', '2026-11-09T00:00:00.000Z'],
      ['2026-11-09T00:00:00.000Z', '2026-11-10T00:00:00.000Z'],
    ]);
    expect(weeks.buckets[0].currencies).toEqual([]);
    expect(weeks.buckets[1].currencies.map((each: { currency: string; collected: unknown }) => [each.currency, each.collected])).toEqual([
      ['NGN', money(1_017_500, '10175.00')],
      ['USD', money(4_240, '42.40')],
    ]);
    const months = await summary('?from=2026-10-15T00:00:00Z&to=2026-12-01&interval=month');
    expect(months.buckets.map((bucket: { start: string }) => bucket.start)).toEqual(['2026-10-15T00:00:00.000Z', '2026-11-01T00:00:00.000Z']);
    expect(months.buckets[1].currencies[0].paidOrders).toBe(2);
  });

  it('shows a merchant only its own figures, and answers only the secret key', async () => {
    const theirs = await (async () => {
      const answer = await report('?from=2026-11-01&to=2026-11-30', other.secretKey);
      expect(answer.statusCode).toBe(200);
      return answer.json().data.total.currencies;
    })();
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ currency: 'NGN', orders: 1, paidOrders: 1, collected: { minor: 923_500 } }); // 9000.00 with its fee of 235.00
    expect((await report('?from=2026-11-01&to=2026-11-30', keys.publishableKey)).statusCode).toBe(403);
  });

  it('refuses a range over 366 days or backwards with invalid_date_range, and other bad input with VAL400 invalid_field', async () => {
    expect((await report('?from=2025-01-01&to=2026-01-03')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
    expect((await report('?from=2026-11-04&to=2026-11-02')).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_date_range' });
    expect((await report('?from=2025-01-01&to=2026-01-02')).statusCode).toBe(200);
    for (const query of ['', '?from=2026-11-01', '?from=2026-11-01&to=2026-11-02&interval=hour', '?from=yesterday&to=2026-11-02']) {
      const answer = await report(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json(), query).toMatchObject({ status: 'failed', statusCode: 'VAL400', reason: 'invalid_field' });
    }
  });
});
