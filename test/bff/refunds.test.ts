import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import * as wire from '../support/wire-tables.ts';
import { expectWireShape } from '../support/wire-types.ts';

const CARD_APPROVED = '5555555555554444';
const MINUTE = 60_000;
let keyCounter = 0;
const newKey = () => `refund-${Date.now().toString(36)}-${(keyCounter += 1)}`;

type Verified = {
  statusId: number; status: string; amountRefunded: number; amountRefundable: number; totalAmountCharged: number;
  refunds: { refundReference: string; amount: number; statusId: number; status: string; reason: string | null; responseCode: string | null }[];
  orderPayments: { statusId: number }[];
};

describe.each(drivers)('refunds on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;
  let endpointId: string;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    client = new CheckoutClient(app, keys);
    // Deliveries are recorded when an event happens; the jobs that send them run only when a test asks.
    const created = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': keys.secretKey }, payload: { url: 'http://127.0.0.1:9/hooks' } });
    expect(created.statusCode).toBe(200);
    endpointId = created.json().data.id;
  });

  /** The merchant's server asks for a refund in the clear. */
  const refund = (body: object, headers: Record<string, string> = {}, apiKey = keys.secretKey, url = '/checkout/order/refund') =>
    app.inject({ method: 'POST', url, headers: { 'api-key': apiKey, ...headers }, payload: body });

  /** The same, encrypted in `data` as the gateway's Java and Dart clients send their server calls. */
  const refundEncrypted = async (plain: object, headers: Record<string, string> = {}, apiKey = keys.secretKey, url = '/checkout/order/refund') =>
    app.inject({ method: 'POST', url, headers: { 'api-key': apiKey, ...headers }, payload: { data: await client.encrypt(plain) } });

  const verify = async (reference: string): Promise<Verified> => {
    const response = await client.verify(reference);
    expect(response.statusCode).toBe(200);
    return response.json().data;
  };

  async function paidOrder(amount = 5000): Promise<{ reference: string; paid: number }> {
    const reference = await client.newOrder({ order: { amount } });
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    return { reference, paid: (await verify(reference)).totalAmountCharged };
  }

  /**
   * The events delivered to the merchant's endpoint for one order, by type (events of one transaction share their
   * time, so the deliveries list has no order among them to compare).
   */
  async function eventsFor(reference: string): Promise<{ type: string; body: Record<string, unknown> }[]> {
    const response = await app.inject({ method: 'GET', url: `/checkout/webhooks/${endpointId}/deliveries?limit=100`, headers: { 'api-key': keys.secretKey } });
    expect(response.statusCode).toBe(200);
    const deliveries = response.json().data as { eventType: string; eventId: string }[];
    const rows = await app.storage.query<{ id: string; type: string; data: Record<string, unknown> | string }>('SELECT id, type, data FROM domain_events');
    return deliveries
      .map((delivery) => {
        const row = rows.find((each) => each.id === delivery.eventId)!;
        const body = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
        return { type: delivery.eventType, body };
      })
      .filter(({ body }) => body.orderReference === reference || (body.order as { orderReference?: string } | undefined)?.orderReference === reference)
      .sort((a, b) => a.type.localeCompare(b.type));
  }

  const expectRefused = (response: LightMyRequestResponse, code: string, message: string | RegExp, reason?: string) => {
    expect(response.json()).toEqual({ status: 'failed', statusCode: code, message: expect.stringMatching(message), ...(reason ? { reason } : {}) });
    expect(response.json()).not.toHaveProperty('data');
  };

  it('refunds an order in full: 00, the order becomes 6 Reversed, and refund.succeeded is sent', async () => {
    const { reference, paid } = await paidOrder();
    const response = await refund({ reference, reason: 'Customer returned both tickets' });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expectWireShape(answer, wire.REFUND);
    expect(answer).toMatchObject({
      status: 'success',
      statusCode: '00',
      message: 'Refund successful',
      data: {
        refund: { orderReference: reference, amount: paid, currency: 'NGN', statusId: 5, status: 'Successful', responseCode: '00', reason: 'Customer returned both tickets' },
        order: { orderReference: reference, statusId: 6, status: 'Reversed', amountPaid: paid, amountRefunded: paid, amountRefundable: 0 },
      },
    });
    expect(answer.data.refund.refundReference).toMatch(/^RFD[0-9A-F]{24}$/);

    const verified = await verify(reference);
    expect(verified).toMatchObject({ statusId: 6, status: 'Reversed', amountRefunded: paid, amountRefundable: 0 });
    expect(verified.orderPayments.map((payment) => payment.statusId)).toEqual([6]);
    expect(verified.refunds).toEqual([expect.objectContaining({ amount: paid, statusId: 5, reason: 'Customer returned both tickets' })]);
    const status = (await client.status(reference)).json();
    expectWireShape(status, wire.STATUS);
    expect(status).toMatchObject({ is_final_status: true, data: { payment_status: 6, amount_refunded: paid } });

    const events = await eventsFor(reference);
    expect(events.map((event) => event.type)).toEqual(['order.successful', 'payment.reversed', 'refund.succeeded']);
    const succeeded = events.find((event) => event.type === 'refund.succeeded')!.body;
    expect(succeeded).toMatchObject({ refundReference: answer.data.refund.refundReference, amount: paid, statusId: 5, order: { orderReference: reference, statusId: 6, amountRefunded: paid } });
  });

  it('refunds part of an order: the order stays successful and shows what was refunded and what is left', async () => {
    const { reference, paid } = await paidOrder();
    const answer = (await refund({ reference, amount: 1000.5 })).json();
    expect(answer).toMatchObject({ statusCode: '00', data: { refund: { amount: 1000.5, statusId: 5 }, order: { statusId: 5, amountRefunded: 1000.5 } } });
    const verified = await verify(reference);
    expect(verified).toMatchObject({ statusId: 5, status: 'Successful', amountRefunded: 1000.5, amountRefundable: paid - 1000.5 });
    expect((await client.status(reference)).json().data).toMatchObject({ payment_status: 5, amount_refunded: 1000.5 });
    expect((await eventsFor(reference)).map((event) => event.type)).toEqual(['order.successful', 'refund.succeeded'].sort());
  });

  it('takes several partial refunds up to the total, reverses the order on the last, then refuses the next', async () => {
    const { reference, paid } = await paidOrder();
    for (const amount of [1000, 2000]) {
      expect((await refund({ reference, amount })).json()).toMatchObject({ statusCode: '00', data: { order: { statusId: 5 } } });
    }
    const last = (await refund({ reference, amount: paid - 3000 })).json();
    expect(last).toMatchObject({ statusCode: '00', data: { order: { statusId: 6, amountRefunded: paid, amountRefundable: 0 } } });
    const next = await refund({ reference, amount: 1 });
    expect(next.statusCode).toBe(409);
    expectRefused(next, 'CON409', new RegExp(`^Nothing is left to refund on the order ${reference}: all of the NGN ${paid} paid has been refunded or is being refunded\\.$`), 'nothing_left_to_refund');
    expectRefused(await refund({ reference }), 'CON409', /^Nothing is left to refund/, 'nothing_left_to_refund');
    const verified = await verify(reference);
    expect(verified.refunds.map((each) => each.amount)).toEqual([1000, 2000, paid - 3000]);
    expect(verified).toMatchObject({ statusId: 6, amountRefunded: paid });
  });

  it('refuses a refund of more than is left, and changes nothing', async () => {
    const { reference, paid } = await paidOrder();
    const over = await refund({ reference, amount: paid + 0.01 });
    expect(over.statusCode).toBe(409);
    expectRefused(over, 'CON409', `The amount field is more than is left to refund: NGN ${paid} of the NGN ${paid} paid.`, 'refund_exceeds_payment');
    expect((await refund({ reference, amount: 5000 })).json().statusCode).toBe('00');
    expectRefused(await refund({ reference, amount: paid - 4999 }), 'CON409', `The amount field is more than is left to refund: NGN ${paid - 5000} of the NGN ${paid} paid.`, 'refund_exceeds_payment');
    expect(await verify(reference)).toMatchObject({ statusId: 5, amountRefunded: 5000, amountRefundable: paid - 5000 });
    expect((await verify(reference)).refunds).toHaveLength(1);
  });

  it('never refunds more than was paid when 20 refunds arrive at once', async () => {
    const { reference, paid } = await paidOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? refund({ reference, amount: 1000 }) : refundEncrypted({ reference, amount: 1000 }))));
    const succeeded = answers.filter((answer) => answer.json().statusCode === '00');
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(succeeded).toHaveLength(Math.floor(paid / 1000));
    expect(refused).toHaveLength(20 - succeeded.length);
    for (const answer of refused) expectRefused(answer, 'CON409', /^The amount field is more than is left to refund/, 'refund_exceeds_payment');
    const verified = await verify(reference);
    expect(verified.amountRefunded).toBe(succeeded.length * 1000);
    expect(verified.amountRefundable).toBe(paid - succeeded.length * 1000);
    expect(verified.refunds.filter((each) => each.statusId === 5)).toHaveLength(succeeded.length);
    expect(verified.statusId).toBe(5);
  });

  it('refunds once when a refund is retried with the same Idempotency-Key, plain or re-encrypted', async () => {
    const { reference, paid } = await paidOrder();
    const key = newKey();
    const first = await refund({ reference, amount: 700 }, { 'idempotency-key': key });
    expect(first.json()).toMatchObject({ statusCode: '00' });
    const again = await refund({ reference, amount: 700 }, { 'idempotency-key': key });
    const reEncrypted = await refundEncrypted({ reference, amount: 700 }, { 'idempotency-key': key });
    for (const replay of [again, reEncrypted]) {
      expect(replay.body).toBe(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }
    const otherBody = await refund({ reference, amount: 800 }, { 'idempotency-key': key });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json().statusCode).toBe('IDEM422');

    // The same key sent by several retries at once still refunds once.
    const racingKey = newKey();
    await Promise.all(Array.from({ length: 5 }, () => refund({ reference, amount: 300 }, { 'idempotency-key': racingKey })));
    const verified = await verify(reference);
    expect(verified.refunds.map((each) => each.amount)).toEqual([700, 300]);
    expect(verified.amountRefunded).toBe(1000);
    expect(verified.amountRefundable).toBe(paid - 1000);
  });

  it('refuses a publishable key, plain or encrypted, with the auth envelope', async () => {
    const { reference } = await paidOrder();
    for (const response of [await refund({ reference }, {}, keys.publishableKey), await refundEncrypted({ reference }, {}, keys.publishableKey)]) {
      expect(response.statusCode).toBe(403);
      expectRefused(response, 'AUTH403', 'This operation needs the secret key; a publishable key was sent.');
    }
    const missing = await app.inject({ method: 'POST', url: '/checkout/order/refund', payload: { reference } });
    expect(missing.statusCode).toBe(401);
    expect(await verify(reference)).toMatchObject({ statusId: 5, refunds: [] });
  });

  it('leaves the order untouched when the processor declines the refund, and sends refund.failed', async () => {
    const { reference, paid } = await paidOrder();
    const response = await refund({ reference, amount: 100.05 });
    expect(response.statusCode).toBe(200);
    expectWireShape(response.json(), wire.REFUND);
    expect(response.json()).toMatchObject({
      status: 'failed',
      statusCode: '05',
      message: 'Do not honour',
      data: { refund: { amount: 100.05, statusId: 4, status: 'Failed', responseCode: '05' }, order: { statusId: 5, amountRefunded: 0, amountRefundable: paid } },
    });
    const verified = await verify(reference);
    expect(verified).toMatchObject({ statusId: 5, amountRefunded: 0, amountRefundable: paid });
    expect(verified.orderPayments.map((payment) => payment.statusId)).toEqual([5]);
    expect(verified.refunds).toEqual([expect.objectContaining({ amount: 100.05, statusId: 4, responseCode: '05' })]);
    const events = await eventsFor(reference);
    expect(events.map((event) => event.type)).toEqual(['order.successful', 'refund.failed']);
    expect(events.find((event) => event.type === 'refund.failed')!.body).toMatchObject({ statusId: 4, responseCode: '05', order: { statusId: 5, amountRefunded: 0 } });
    // The money is still there to refund.
    expect((await refund({ reference })).json()).toMatchObject({ statusCode: '00', data: { order: { statusId: 6, amountRefunded: paid } } });
  });

  it('keeps a refund whose answer was lost pending, holding its amount, until the re-query finds it', async () => {
    const { reference, paid } = await paidOrder();
    const pending = (await refund({ reference, amount: 100.41 })).json();
    expect(pending).toMatchObject({ status: 'success', statusCode: '02', data: { refund: { statusId: 2, status: 'Pending', responseCode: null }, order: { amountRefunded: 0 } } });
    expect(pending.data.order.amountRefundable).toBeCloseTo(paid - 100.41, 2);
    expect((await verify(reference)).refunds).toEqual([expect.objectContaining({ statusId: 2 })]);
    expectRefused(await refund({ reference, amount: paid }), 'CON409', /^The amount field is more than is left to refund/, 'refund_exceeds_payment');
    expect((await eventsFor(reference)).map((event) => event.type)).toEqual(['order.successful'].sort());

    clock.advance(2 * MINUTE);
    await app.jobs.runDue();
    const verified = await verify(reference);
    expect(verified.refunds).toEqual([expect.objectContaining({ statusId: 5, responseCode: '00', amount: 100.41 })]);
    expect(verified.amountRefunded).toBe(100.41);
    expect(verified.statusId).toBe(5);
    expect((await eventsFor(reference)).map((event) => event.type)).toEqual(['order.successful', 'refund.succeeded'].sort());
  });

  it('refunds the excess of an overpaid transfer, then the rest, which reverses the order', async () => {
    const reference = await client.newOrder();
    const pending = (await client.payByTransfer(reference)).json();
    const due = pending.data.bankTransferDetails.amount as number;
    expect((await client.transfer(pending.data.bankTransferDetails.bankAccount, due + 500)).json().data).toMatchObject({ excessAmount: 500 });
    expect(await verify(reference)).toMatchObject({ statusId: 5, amountRefundable: due + 500 });
    expect((await refund({ reference, amount: 500, reason: 'Excess of the transfer' })).json()).toMatchObject({ statusCode: '00', data: { order: { statusId: 5, amountRefunded: 500 } } });
    expect((await refund({ reference })).json()).toMatchObject({ statusCode: '00', data: { refund: { amount: due }, order: { statusId: 6, amountRefunded: due + 500, amountRefundable: 0 } } });
  });

  it("refunds the money an expired transfer account received, leaving the order's failed state as it was", async () => {
    const reference = await client.newOrder();
    const pending = (await client.payByTransfer(reference)).json();
    await client.transfer(pending.data.bankTransferDetails.bankAccount, 1200);
    clock.advance(31 * MINUTE);
    await app.jobs.runDue();
    expect(await verify(reference)).toMatchObject({ statusId: 4, amountRefunded: 0, amountRefundable: 1200 });
    expectRefused(await refund({ reference, amount: 1200.01 }), 'CON409', 'The amount field is more than is left to refund: NGN 1200 of the NGN 1200 paid.', 'refund_exceeds_payment');
    const answer = (await refund({ reference })).json();
    expect(answer).toMatchObject({ statusCode: '00', data: { refund: { amount: 1200 }, order: { statusId: 4, amountRefunded: 1200, amountRefundable: 0 } } });
    expect((await eventsFor(reference)).map((event) => event.type)).toEqual(['transfer.partially_paid', 'transfer.expired', 'refund.succeeded'].sort());
  });

  it('refuses an order that was never paid', async () => {
    const reference = await client.newOrder();
    expectRefused(await refund({ reference }), 'CON409', `The order ${reference} has not been paid: there is nothing to refund.`, 'order_not_paid');
    expect((await client.payByCard(reference, '4000000000000002')).json().statusCode).toBe('05');
    expectRefused(await refund({ reference, amount: 10 }), 'CON409', `The order ${reference} has not been paid: there is nothing to refund.`, 'order_not_paid');
  });

  it('answers bad input with the envelope: negative, zero, too many decimals, unknown reference, another merchant’s order, no reference', async () => {
    const { reference } = await paidOrder();
    const cases: [object, number, string, string][] = [
      [{ reference, amount: -5 }, 400, 'VAL400', 'The amount field must be greater than 0.'],
      [{ reference, amount: 0 }, 400, 'VAL400', 'The amount field must be greater than 0.'],
      [{ reference, amount: '-5' }, 400, 'VAL400', 'The amount field must be a number.'],
      [{ reference, amount: 'ten' }, 400, 'VAL400', 'The amount field must be a number.'],
      [{ reference, amount: 10.001 }, 400, 'VAL400', 'The amount field has more decimal places than NGN allows.'],
      [{ reference, amount: 100_000_001 }, 400, 'VAL400', 'The amount field must be at most 100000000 NGN.'],
      [{ reference, reason: 'x'.repeat(256) }, 400, 'VAL400', 'The reason field must be at most 255 characters long.'],
      [{ amount: 10 }, 400, 'VAL400', 'The reference field is required.'],
      [{ reference: 'ORD-never-made' }, 404, 'NF404', 'No order with reference ORD-never-made exists for this merchant.'],
    ];
    for (const [body, httpStatus, code, message] of cases) {
      const response = await refund(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(httpStatus);
      expect(response.json(), JSON.stringify(body)).toEqual({ status: 'failed', statusCode: code, message });
    }
    const encrypted = await refundEncrypted({ reference, amount: 0 });
    expect(encrypted.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The amount field must be greater than 0.' });
    const unreadable = await refund({ data: 'bm90IGEgYmxvY2s=' });
    expect(unreadable.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The data field could not be read.' });

    const other = await createMerchant(app);
    const stranger = await refund({ reference }, {}, other.secretKey);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ status: 'failed', statusCode: 'NF404', message: `No order with reference ${reference} exists for this merchant.` });
    expect(await verify(reference)).toMatchObject({ statusId: 5, refunds: [] });
  });

  it('keeps no card number from a reason, and answers at the TransactPay path encrypted', async () => {
    const { reference } = await paidOrder();
    const answer = (await refundEncrypted({ orderReference: reference, amount: 10, reason: 'Refund to card 4242 4242 4242 4242 please' }, {}, keys.secretKey, '/payment/order/refund')).json();
    expect(answer).toMatchObject({ statusCode: '00', data: { refund: { amount: 10, reason: 'Refund to card **** **** **** **** please' } } });
    const rows = await app.storage.query<{ reason: string }>('SELECT reason FROM refunds WHERE reference = $1', [answer.data.refund.refundReference]);
    expect(rows).toEqual([{ reason: 'Refund to card **** **** **** **** please' }]);
  });
});
