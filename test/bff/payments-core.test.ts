import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { payOrderResponseSchema } from '../../shared/payments.ts';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, TEST_DATABASE_URL, useTestApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const MINUTE = 60_000;
/** The sandbox card whose approval is lost on the way back, as when an acquirer's answer times out. */
const LOST_ANSWER_CARD = '4000000000000341';

async function domainEvents(app: FastifyInstance, reference: string) {
  return app.storage.query<{ type: string; data: { orderReference: string; statusId: number } }>(
    `SELECT e.type, e.data FROM domain_events e JOIN orders o ON o.id = e.order_id WHERE o.reference = $1 ORDER BY e.created_at, e.id`,
    [reference],
  );
}

describe.each(drivers)('the payments core on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  let client: CheckoutClient;
  beforeAll(async () => {
    client = new CheckoutClient(test.app, await createMerchant(test.app));
  });

  it('leaves a payment whose processor answer was lost processing, refuses a second attempt, and settles it once from the re-query', async () => {
    const reference = await client.newOrder();
    const paid = payOrderResponseSchema.parse((await client.payByCard(reference, LOST_ANSWER_CARD)).json());
    expect(paid).toMatchObject({ status: 'success', statusCode: '02', data: { paymentDetail: { redirectUrl: null }, bankTransferDetails: null } });
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });
    expect((await client.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: 'CON409' });

    clock.advance(2 * MINUTE);
    await test.app.jobs.runDue();
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 5, payment_response_code: '00' } });
    expect((await client.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: 'CON409', message: 'This order has already been paid.' });
    const verified = (await client.verify(reference)).json().data;
    expect(verified.orderPayments.filter((payment: { statusId: number }) => payment.statusId === 5)).toHaveLength(1);
    expect((await domainEvents(test.app, reference)).map((event) => event.type)).toEqual(['order.successful']);
  });

  it('leaves no job behind an attempt its own request settled, and the event carries the order as verify shows it', async () => {
    const requeryJobs = (reference: string) =>
      test.app.storage.query<{ key: string }>(
        `SELECT j.key FROM jobs j JOIN order_payments p ON j.key = 'payment.requery:' || p.id JOIN orders o ON o.id = p.order_id WHERE o.reference = $1`,
        [reference],
      );
    const declined = await client.newOrder();
    expect((await client.payByCard(declined, '4000000000009995')).json()).toMatchObject({ statusCode: '51' });
    const approved = await client.newOrder();
    expect((await client.payByCard(approved, '5555555555554444')).json()).toMatchObject({ statusCode: '00' });
    const lost = await client.newOrder();
    expect((await client.payByCard(lost, LOST_ANSWER_CARD)).json()).toMatchObject({ statusCode: '02' });

    expect(await requeryJobs(declined)).toEqual([]);
    expect(await requeryJobs(approved)).toEqual([]);
    // An answer that never came is still the job's to find.
    expect(await requeryJobs(lost)).toHaveLength(1);
    const [event] = await domainEvents(test.app, approved);
    expect(event!.data).toEqual((await client.verify(approved)).json().data);
  });

  it('writes each merchant event with its change: a decline, then a transfer paid in two parts', async () => {
    const reference = await client.newOrder();
    expect((await client.payByCard(reference, '4000000000009995')).json()).toMatchObject({ statusCode: '51' });
    clock.advance(1000);
    const transfer = payOrderResponseSchema.parse((await client.payByTransfer(reference)).json());
    const account = transfer.data.bankTransferDetails!;
    await client.transfer(account.bankAccount, account.amount - 100);
    clock.advance(1000);
    await client.transfer(account.bankAccount, 100);
    const events = await domainEvents(test.app, reference);
    expect(events.map((event) => event.type)).toEqual(['payment.failed', 'transfer.partially_paid', 'order.successful']);
    // Each carries the order as verify showed it at that moment.
    expect(events.map((event) => [event.data.orderReference, event.data.statusId])).toEqual([[reference, 4], [reference, 2], [reference, 5]]);
  });

  it('writes transfer.expired when the expiry job ends an account, and nothing for a read of the order', async () => {
    const reference = await client.newOrder();
    const transfer = payOrderResponseSchema.parse((await client.payByTransfer(reference)).json());
    clock.advance(31 * MINUTE);
    await client.status(reference);
    expect(await domainEvents(test.app, reference)).toEqual([]);
    await test.app.jobs.runDue();
    expect((await domainEvents(test.app, reference)).map((event) => event.type)).toEqual(['transfer.expired']);
    expect((await client.transfer(transfer.data.bankTransferDetails!.bankAccount, 10)).statusCode).toBe(409);
  });

  it('writes no event when the change it belongs to is rolled back', async () => {
    const reference = await client.newOrder();
    await test.app.storage.exec(`
      CREATE FUNCTION refuse_success() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$;
      CREATE TRIGGER refuse_success BEFORE UPDATE ON orders FOR EACH ROW WHEN (NEW.status_id = 5) EXECUTE FUNCTION refuse_success();`);
    try {
      expect((await client.payByCard(reference, '5555555555554444')).statusCode).toBe(500);
    } finally {
      await test.app.storage.exec('DROP TRIGGER refuse_success ON orders; DROP FUNCTION refuse_success();');
    }
    expect(await domainEvents(test.app, reference)).toEqual([]);
  });

  it('purges idempotency keys past their 24-hour window from the hourly maintenance job', async () => {
    const reference = await client.newOrder();
    const payload = { data: await client.encrypt({ eventname: 'opened', orderreference: reference }) };
    const headers = { 'api-key': client.keys.publishableKey, 'idempotency-key': `purge-${reference}` };
    expect((await test.app.inject({ method: 'POST', url: '/checkout/order/event/track', headers, payload })).statusCode).toBe(200);
    const count = async () => (await test.app.storage.query<{ count: number }>(`SELECT count(*)::int AS count FROM idempotency_keys WHERE key = $1`, [headers['idempotency-key']]))[0]!.count;
    expect(await count()).toBe(1);
    clock.advance(25 * 60 * MINUTE);
    await test.app.jobs.runDue();
    expect(await count()).toBe(0);
  });

  it('charges a saved card for the merchant without a CVV or 3-D Secure, and declines a token it never issued', async () => {
    const customer = await client.asCustomer('recurring-customer');
    const reference = await customer.newOrder();
    expect((await customer.payByCard(reference, '5555555555554444', { save: true })).json()).toMatchObject({ statusCode: '00' });
    const [saved] = await test.app.storage.query<{ token: string }>('SELECT token FROM saved_cards ORDER BY id DESC LIMIT 1');
    const request = { reference: 'PAYRECURRING1', amountMinor: 500_000, currency: 'NGN', authenticationRequired: true, merchantName: 'Acme', instrumentLabel: 'Mastercard ****4444' };
    const charged = await test.app.sandbox.charge({ kind: 'token', token: saved!.token, initiator: 'merchant' }, request);
    expect(charged).toMatchObject({ kind: 'approved' });
    const unknown = await test.app.sandbox.charge({ kind: 'token', token: 'sbx_card_never_issued', initiator: 'merchant' }, { ...request, reference: 'PAYRECURRING2' });
    expect(unknown).toMatchObject({ kind: 'declined', code: '14' });
    // A restart of the sandbox loses nothing: its book is in the database.
    expect(await test.app.sandbox.lookup('PAYRECURRING1')).toMatchObject({ kind: 'approved' });
  });
});

describe.runIf(TEST_DATABASE_URL)('durable jobs shared by two processes on one PostgreSQL', () => {
  const place: Place = newPlace('postgres');
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    first = await startApp(place, {}, clock);
    second = await startApp(place, {}, clock);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await cleanPlace(place);
  });

  it('runs each due expiry exactly once when both processes run their jobs at the same time', async () => {
    const client = new CheckoutClient(first, await createMerchant(first));
    const references: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const reference = await client.newOrder();
      expect((await client.payByTransfer(reference)).json()).toMatchObject({ statusCode: '02' });
      references.push(reference);
    }
    clock.advance(31 * MINUTE);
    const [ranFirst, ranSecond] = await Promise.all([first.jobs.runDue(), second.jobs.runDue()]);
    // 12 expiries and 12 re-queries that find nothing to do, split between the two.
    expect(ranFirst + ranSecond).toBe(24);
    const expired = await first.storage.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM order_events e JOIN orders o ON o.id = e.order_id WHERE e.name = 'attempt-expired' AND o.reference = ANY($1)`,
      [references],
    );
    expect(expired[0]!.count).toBe(12);
    const events = await first.storage.query<{ count: number }>(`SELECT count(*)::int AS count FROM domain_events WHERE type = 'transfer.expired'`);
    expect(events[0]!.count).toBe(12);
  });
});
