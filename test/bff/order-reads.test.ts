import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import * as orders from '../../bff/repositories/orders.ts';
import * as payments from '../../bff/repositories/payments.ts';
import * as refunds from '../../bff/repositories/refunds.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const CARD_APPROVED = '5555555555554444';
const CARD_DECLINED = '4000000000000002';

describe.each(drivers)('reading an order with its attempts on %s', (driver) => {
  const test = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    client = new CheckoutClient(app, keys);
  });

  /** What status read before it was one statement: the order, then its payments, then its refunds. */
  async function readSeparately(reference: string) {
    const found = await orders.findOrders(app.storage, keys.subsidiaryId, 'test', reference);
    return Promise.all(
      found.map(async (order) => ({ order, payments: await payments.listPayments(app.storage, order.id), refunds: await refunds.listRefunds(app.storage, order.id) })),
    );
  }

  it('gives the same orders, payments and refunds, with the same types, as reading each separately', async () => {
    const refunded = await client.newOrder();
    expect((await client.payByCard(refunded, CARD_DECLINED)).statusCode).toBe(200);
    expect((await client.payByCard(refunded, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    const answer = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference: refunded, amount: 10, reason: 'One ticket' } });
    expect(answer.json()).toMatchObject({ statusCode: '00' });
    const transfer = await client.newOrder();
    expect((await client.payByTransfer(transfer)).statusCode).toBe(200);
    const untouched = await client.newOrder();

    for (const reference of [refunded, transfer, untouched]) {
      const combined = await orders.findOrdersWithAttempts(app.storage, keys.subsidiaryId, 'test', reference);
      expect(combined).toHaveLength(1);
      expect(combined).toStrictEqual(await readSeparately(reference));
    }
    const [{ payments: attempts, refunds: given }] = (await orders.findOrdersWithAttempts(app.storage, keys.subsidiaryId, 'test', refunded)) as [orders.OrderWithAttempts];
    expect(attempts.map((payment) => payment.statusId)).toEqual([4, 5]);
    expect(attempts[1]!.confirmedAt).toBeInstanceOf(Date);
    expect(typeof attempts[1]!.totalMinor).toBe('number');
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ amountMinor: 1000, paymentReference: attempts[1]!.reference, currency: 'NGN', state: 'succeeded' });
    expect(given[0]!.completedAt).toBeInstanceOf(Date);
    const [{ payments: [pending] }] = (await orders.findOrdersWithAttempts(app.storage, keys.subsidiaryId, 'test', transfer)) as [orders.OrderWithAttempts];
    expect(pending!.transferExpiresAt).toBeInstanceOf(Date);
  });

  it('keeps orders under a unique key led by merchant, mode and reference, so a read by reference descends straight to its order', async () => {
    // A key led by (merchant, mode, origin) made every read by reference walk all of the merchant's orders of that
    // mode: status, fee, pay and create grew slower with each order (docs/decisions.md, "Orders found by reference").
    const keys = await app.storage.query<{ columns: string }>(
      `SELECT string_agg(a.attname::text, ',' ORDER BY k.position) AS columns
         FROM pg_index i
         CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
        WHERE i.indrelid = 'orders'::regclass AND i.indisunique
        GROUP BY i.indexrelid`,
    );
    expect(keys.map((key) => key.columns)).toContain('merchant_id,mode,reference,created_by');
    expect(keys.map((key) => key.columns)).not.toContain('merchant_id,mode,created_by,reference');
  });

  it('finds nothing under a reference no order has', async () => {
    expect(await orders.findOrdersWithAttempts(app.storage, keys.subsidiaryId, 'test', 'NO-SUCH-ORDER')).toEqual([]);
  });
});
