import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { subscriptionListResponseSchema, type SubscriptionView } from '../../shared/subscriptions.ts';
import { readConfig } from '../../bff/config.ts';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, TEST_DATABASE_URL, useTestApp, type Place } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { verifyWebhookSignature } from '../../shared/webhooks.ts';
import { createMerchant } from '../support/merchant.ts';

const HOUR = 3_600_000;
const WEEK = 168 * HOUR;
const APPROVING_CARD = '4242424242424242';
/** The sandbox card whose token approves one recurring charge and declines every later one (51). */
const STARTS_DECLINING_CARD = '4000000000003220';

async function createSubLink(client: CheckoutClient, fields: Record<string, unknown> = {}) {
  const created = await client.app.inject({
    method: 'POST',
    url: '/checkout/links/create',
    headers: { 'api-key': client.keys.secretKey },
    payload: { Name: 'Gym', Description: 'Membership', PaymentType: 'SUB', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 5000, ...fields },
  });
  expect(created.statusCode).toBe(200);
  return created.json().data.paymentLink as { id: number; reference: string; frequencyId: number | null; numberOfPayments: number | null };
}

/**
 * An order with its own plan, as only the merchant's server may make it (secret key), and the checkout that pays it
 * with the order's client token.
 */
async function serverOrder(client: CheckoutClient, reference: string, payment: object): Promise<CheckoutClient> {
  const created = await client.post('/checkout/order/create', orderPayload(reference, { payment }), client.keys.secretKey);
  expect(created.statusCode, created.body).toBe(200);
  return client.with({ 'checkout-client-token': created.json().data.clientToken.token });
}

/**
 * A customer subscribes: the order is made (on a SUB link by the browser; with its own plan by the merchant's
 * server), the customer pays the first charge by card and passes 3-D Secure.
 */
async function subscribe(client: CheckoutClient, payment: { frequencyId?: number; [member: string]: unknown }, card = APPROVING_CARD): Promise<string> {
  const reference = newReference('SUBORD');
  let checkout = client;
  if (payment.frequencyId !== undefined) checkout = await serverOrder(client, reference, payment);
  else {
    const created = await client.createOrder(orderPayload(reference, { payment }));
    expect(created.statusCode, created.body).toBe(200);
  }
  const paid = (await checkout.payByCard(reference, card)).json();
  expect(paid, JSON.stringify(paid)).toMatchObject({ statusCode: '02' });
  await checkout.authenticate(paid.data.paymentDetail.redirectUrl);
  return reference;
}

async function listSubscriptions(client: CheckoutClient, link: string | number): Promise<SubscriptionView[]> {
  const answer = await client.app.inject({ method: 'GET', url: `/checkout/links/${link}/subscriptions`, headers: { 'api-key': client.keys.secretKey } });
  expect(answer.statusCode, answer.body).toBe(200);
  return subscriptionListResponseSchema.parse(answer.json()).data;
}

function cancel(client: CheckoutClient, id: string | number, payload: unknown = { id: String(id) }) {
  return client.app.inject({
    method: 'PATCH',
    url: `/checkout/links/recurringpayment/${id}/cancel`,
    headers: { 'api-key': client.keys.secretKey, 'content-type': 'application/json' },
    payload: payload === undefined ? '' : JSON.stringify(payload),
  });
}

/** What verify says of the order charging `period` of a subscription (404 when no such charge was made). */
async function verifyPeriod(client: CheckoutClient, subscription: { reference: string }, period: number) {
  return client.verify(`${subscription.reference}-${period}`);
}

async function subscriptionEvents(app: FastifyInstance, reference: string): Promise<string[]> {
  const rows = await app.storage.query<{ type: string }>(
    // Events of one transaction share their time: a last charge's `charged` comes before its `completed`.
    `SELECT type FROM domain_events WHERE type LIKE 'subscription.%' AND data->>'reference' = $1
      ORDER BY created_at, type = 'subscription.completed'`,
    [reference],
  );
  return rows.map((row) => row.type);
}

/** Every order of a subscription with its successful attempts, period by period (the first order is period 1). */
async function chargesByPeriod(app: FastifyInstance, reference: string): Promise<{ period: number; paid: number }[]> {
  return app.storage.query<{ period: number; paid: number }>(
    `SELECT COALESCE(o.recurring_period, 1) AS period, count(p.id) FILTER (WHERE p.status_id = 5)::int AS paid
       FROM orders o JOIN subscriptions s ON s.id = o.subscription_id LEFT JOIN order_payments p ON p.order_id = o.id
      WHERE s.reference = $1 GROUP BY 1 ORDER BY 1`,
    [reference],
  );
}

describe.each(drivers)('subscriptions on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  let client: CheckoutClient;
  beforeAll(async () => {
    client = new CheckoutClient(test.app, await createMerchant(test.app));
  });

  it('charges a Weekly subscription of 4 payments exactly 4 times, each as an order verify shows, then completes it', async () => {
    const link = await createSubLink(client, { FrequencyId: 3, NumberOfPayments: 4 });
    expect(link).toMatchObject({ frequencyId: 3, numberOfPayments: 4 });
    const first = await subscribe(client, { paymentlinkid: link.id });
    const [subscription] = await listSubscriptions(client, link.reference);
    expect(subscription).toMatchObject({ status: 'active', frequencyId: 3, frequencyName: 'Weekly', numberOfPayments: 4, paymentsMade: 1, amount: 5000, orderReference: first, nextPaymentDate: '2026-11-29T10:00:00.000' });
    expect((await client.verify(first)).json().data).toMatchObject({ statusId: 5, recurringPaymentId: subscription!.id, recurringPaymentReference: subscription!.reference, recurringPeriod: null });

    for (let week = 1; week <= 5; week += 1) {
      clock.advance(WEEK);
      await test.app.jobs.runDue();
    }
    const [finished] = await listSubscriptions(client, link.id);
    expect(finished).toMatchObject({ status: 'completed', paymentsMade: 4, nextPaymentDate: null });
    expect(await chargesByPeriod(test.app, subscription!.reference)).toEqual([1, 2, 3, 4].map((period) => ({ period, paid: 1 })));
    const second = (await verifyPeriod(client, subscription!, 2)).json().data;
    expect(second).toMatchObject({
      statusId: 5,
      recurringPaymentId: subscription!.id,
      recurringPaymentReference: subscription!.reference,
      recurringPeriod: 2,
      paymentLinkId: link.id,
      orderPayments: [{ statusId: 5, remarks: 'Payment approved' }],
    });
    // The merchant's server asks for the status of a charge it did not make by the same reference.
    expect((await client.post('/checkout/order/status', { reference: `${subscription!.reference}-4` }, client.keys.secretKey)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 5 } });
    expect((await verifyPeriod(client, subscription!, 5)).statusCode).toBe(404);
    expect(await subscriptionEvents(test.app, subscription!.reference)).toEqual([
      'subscription.created',
      'subscription.charged',
      'subscription.charged',
      'subscription.charged',
      'subscription.completed',
    ]);
  });

  it('charges each period missed while nothing ran exactly once when the jobs run again', async () => {
    const reference = await subscribe(client, { frequencyId: 2, numberOfPayments: 5 });
    const recurringReference = (await client.verify(reference)).json().data.recurringPaymentReference as string;
    clock.advance(3 * 24 * HOUR + HOUR);
    await test.app.jobs.runDue();
    await test.app.jobs.runDue();
    expect(await chargesByPeriod(test.app, recurringReference)).toEqual([1, 2, 3, 4].map((period) => ({ period, paid: 1 })));
    clock.advance(24 * HOUR);
    await test.app.jobs.runDue();
    expect(await chargesByPeriod(test.app, recurringReference)).toEqual([1, 2, 3, 4, 5].map((period) => ({ period, paid: 1 })));
  });

  it('stops charging a subscription the merchant cancelled, at the gateway path the Java SDK calls', async () => {
    const link = await createSubLink(client, { FrequencyId: 3 });
    await subscribe(client, { paymentlinkid: link.id });
    const [subscription] = await listSubscriptions(client, link.id);
    expect(subscription).toMatchObject({ status: 'active', numberOfPayments: null });
    clock.advance(WEEK);
    await test.app.jobs.runDue();

    clock.advance(60_000);
    const cancelled = await cancel(client, subscription!.id);
    expect(cancelled.json()).toEqual({ status: 'success', statusCode: '00', message: 'Recurring payment cancelled successfully', data: null });
    clock.advance(3 * WEEK);
    await test.app.jobs.runDue();
    const [after] = await listSubscriptions(client, link.id);
    expect(after).toMatchObject({ status: 'cancelled', paymentsMade: 2, nextPaymentDate: null });
    expect((await verifyPeriod(client, subscription!, 3)).statusCode).toBe(404);
    // Again, by reference and without a body: the same answer, nothing more happens.
    expect((await cancel(client, subscription!.reference, undefined)).json()).toMatchObject({ statusCode: '00', message: 'Recurring payment cancelled successfully' });
    expect(await subscriptionEvents(test.app, subscription!.reference)).toEqual(['subscription.created', 'subscription.charged', 'subscription.cancelled']);
  });

  it('refuses to cancel a subscription of another merchant, one that does not exist, and one that completed', async () => {
    const reference = await subscribe(client, { frequencyId: 1, numberOfPayments: 2 });
    const id = (await client.verify(reference)).json().data.recurringPaymentId as number;
    const other = new CheckoutClient(test.app, await createMerchant(test.app));
    expect((await cancel(other, id)).json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
    expect((await cancel(client, 'SUB-NOSUCHTHING')).json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
    const withPublishable = await client.app.inject({ method: 'PATCH', url: `/checkout/links/recurringpayment/${id}/cancel`, headers: { 'api-key': client.keys.publishableKey } });
    expect(withPublishable.statusCode).toBe(403);
    clock.advance(HOUR);
    await test.app.jobs.runDue();
    expect((await cancel(client, id)).json()).toEqual({ status: 'failed', statusCode: 'CON409', message: 'This recurring payment has already completed.' });
  });

  it('retries a card that starts declining three times, later each time, then marks the subscription past due and tells the merchant', async () => {
    const receiver = await new WebhookReceiver().start();
    const client = new CheckoutClient(test.app, await createMerchant(test.app));
    const endpoint = await test.app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': client.keys.secretKey }, payload: { url: receiver.url() } });
    const secret = endpoint.json().data.secret as string;
    const link = await createSubLink(client, { FrequencyId: 3, NumberOfPayments: 6 });
    await subscribe(client, { paymentlinkid: link.id }, STARTS_DECLINING_CARD);
    clock.advance(WEEK);
    await test.app.jobs.runDue();
    const [charged] = await listSubscriptions(client, link.id);
    expect(charged).toMatchObject({ status: 'active', paymentsMade: 2, failedAttempts: 0 });

    clock.advance(WEEK);
    await test.app.jobs.runDue();
    for (const wait of [HOUR, 6 * HOUR, 24 * HOUR]) {
      const [waiting] = await listSubscriptions(client, link.id);
      expect(waiting!.status).toBe('active');
      // Each retry is due later than the one before: 1 hour, 6 hours, then a day after the decline.
      expect(Date.parse(`${waiting!.nextPaymentDate}Z`) - clock.now().getTime()).toBe(wait);
      // Not yet due: nothing is tried a minute early.
      clock.advance(wait - 60_000);
      await test.app.jobs.runDue();
      clock.advance(60_000);
      await test.app.jobs.runDue();
    }
    const [pastDue] = await listSubscriptions(client, link.id);
    expect(pastDue).toMatchObject({ status: 'past_due', paymentsMade: 2, failedAttempts: 4, nextPaymentDate: null });
    const third = (await verifyPeriod(client, pastDue!, 3)).json().data;
    expect(third.statusId).toBe(4);
    expect(third.orderPayments.map((payment: { responseCode: string }) => payment.responseCode)).toEqual(['51', '51', '51', '51']);
    expect(await subscriptionEvents(test.app, pastDue!.reference)).toEqual(['subscription.created', 'subscription.charged', 'subscription.past_due']);
    // The merchant's endpoint is told, signed, with the subscription as its list shows it.
    const told = receiver.received.map((request) => ({ request, event: JSON.parse(request.body) as { type: string; data: SubscriptionView } }));
    const pastDueHook = told.find(({ event }) => event.type === 'subscription.past_due');
    expect(pastDueHook?.event.data).toEqual(pastDue);
    expect(verifyWebhookSignature(pastDueHook!.request.body, String(pastDueHook!.request.headers['checkout-signature']), secret, { now: clock.now() })).toBe(true);
    clock.advance(4 * WEEK);
    await test.app.jobs.runDue();
    expect((await verifyPeriod(client, pastDue!, 4)).statusCode).toBe(404);
    await receiver.stop();
  });

  it('ends a SUB link with Limit 3 and 10 concurrent subscribers with exactly 3 subscriptions', async () => {
    const link = await createSubLink(client, { FrequencyId: 6, Limit: 3 });
    const attempts = await Promise.allSettled(Array.from({ length: 10 }, () => subscribe(client, { paymentlinkid: link.id })));
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(3);
    expect(await listSubscriptions(client, link.id)).toHaveLength(3);
  });

  it('refuses a plan on a link that is not SUB, and a bank transfer for an order that subscribes', async () => {
    const refused = await client.app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': client.keys.secretKey },
      payload: { Name: 'Tickets', Description: 'Two', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 50, FrequencyId: 3 },
    });
    expect(refused.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The FrequencyId field is for SUB (subscription) links only.' });
    const reference = newReference();
    const checkout = await serverOrder(client, reference, { frequencyId: 6, numberOfPayments: 3 });
    const created = (await checkout.createOrder(orderPayload(reference, { payment: { frequencyId: 6, numberOfPayments: 3 } }))).json();
    expect(created.data.order).toMatchObject({ frequencyId: 6, numberOfPayments: 3, recurringPaymentId: null });
    expect(created.data.otherPaymentOptions.map((option: { code: string }) => option.code)).toEqual(['C']);
    expect((await checkout.payByTransfer(reference)).json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The paymentoption field must be C: a subscription is paid by card.' });
  });
});

describe.each(drivers)('subscriptions across a restart on %s', (driver) => {
  it('neither skips nor repeats a charge when the process stops and starts again between due dates', async () => {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    let app = await startApp(place, {}, clock);
    try {
      const keys = await createMerchant(app);
      const reference = await subscribe(new CheckoutClient(app, keys), { frequencyId: 3, numberOfPayments: 4 });
      const recurring = (await new CheckoutClient(app, keys).verify(reference)).json().data.recurringPaymentReference as string;
      clock.advance(WEEK);
      await app.jobs.runDue();
      await app.close();

      clock.advance(WEEK / 2);
      app = await startApp(place, {}, clock);
      await app.jobs.runDue();
      expect(await chargesByPeriod(app, recurring)).toEqual([1, 2].map((period) => ({ period, paid: 1 })));
      await app.close();

      clock.advance(WEEK);
      app = await startApp(place, {}, clock);
      await app.jobs.runDue();
      clock.advance(WEEK);
      await app.jobs.runDue();
      expect(await chargesByPeriod(app, recurring)).toEqual([1, 2, 3, 4].map((period) => ({ period, paid: 1 })));
    } finally {
      await app.close();
      await cleanPlace(place);
    }
  });
});

describe.each(drivers)('a recurring charge interrupted by a crash on %s', (driver) => {
  it('settles the charge the processor approved from its record after the restart, once, and goes on with the next period', async () => {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    let app = await startApp(place, {}, clock);
    try {
      const keys = await createMerchant(app);
      const reference = await subscribe(new CheckoutClient(app, keys), { frequencyId: 3, numberOfPayments: 3 });
      const recurring = (await new CheckoutClient(app, keys).verify(reference)).json().data.recurringPaymentReference as string;
      clock.advance(WEEK);
      // The database refuses to record the end of any attempt, as a lost connection would, and the process dies.
      await app.storage.exec(`
        CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'simulated database failure'; END $$;
        CREATE TRIGGER refuse_settlement BEFORE UPDATE ON order_payments FOR EACH ROW WHEN (NEW.stage = 'done')
          EXECUTE FUNCTION refuse_settlement();`);
      await app.jobs.runDue();
      await app.storage.exec('DROP TRIGGER refuse_settlement ON order_payments; DROP FUNCTION refuse_settlement();');
      const left = await app.storage.query<{ stage: string }>(
        'SELECT p.stage FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.reference = $1',
        [`${recurring}-2`],
      );
      expect(left).toEqual([{ stage: 'processing' }]);
      await app.close();

      clock.advance(3 * 60_000);
      app = await startApp(place, {}, clock);
      await app.jobs.runDue();
      expect(await chargesByPeriod(app, recurring)).toEqual([1, 2].map((period) => ({ period, paid: 1 })));
      clock.advance(WEEK);
      await app.jobs.runDue();
      expect(await chargesByPeriod(app, recurring)).toEqual([1, 2, 3].map((period) => ({ period, paid: 1 })));
      // One charge at the processor per period: the approval it gave before the crash was taken, never asked for again.
      const asked = await app.storage.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM sandbox_charges c JOIN order_payments p ON p.reference = c.reference JOIN orders o ON o.id = p.order_id
          JOIN subscriptions s ON s.id = o.subscription_id WHERE s.reference = $1 AND o.recurring_period IS NOT NULL`,
        [recurring],
      );
      expect(asked[0]!.count).toBe(2);
    } finally {
      await app.close();
      await cleanPlace(place);
    }
  });
});

describe.runIf(TEST_DATABASE_URL)('subscriptions charged by two processes on one PostgreSQL', () => {
  const place: Place = newPlace('postgres');
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
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

  it('never charges one period twice while both run their jobs at the same time', async () => {
    const keys = await createMerchant(first);
    const references: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const order = await subscribe(new CheckoutClient(index % 2 === 0 ? first : second, keys), { frequencyId: 2, numberOfPayments: 4 });
      references.push((await new CheckoutClient(first, keys).verify(order)).json().data.recurringPaymentReference);
    }
    for (let day = 0; day < 4; day += 1) {
      clock.advance(24 * HOUR);
      await Promise.all([first.jobs.runDue(), second.jobs.runDue(), first.jobs.runDue(), second.jobs.runDue()]);
    }
    for (const reference of references) {
      expect(await chargesByPeriod(first, reference)).toEqual([1, 2, 3, 4].map((period) => ({ period, paid: 1 })));
    }
    const attempts = await first.storage.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.recurring_period IS NOT NULL`,
    );
    expect(attempts[0]!.count).toBe(6 * 3);
  });
});

describe('the test clock of end-to-end tests', () => {
  it('exists only in test mode with CHECKOUT_TEST_CLOCK=1, and moves the server’s time on', async () => {
    expect(() => readConfig({ NODE_ENV: 'development', CHECKOUT_TEST_CLOCK: '1' })).toThrow('CHECKOUT_TEST_CLOCK=1 is allowed only when NODE_ENV=test.');
    for (const flag of ['0', '1']) {
      const place = newPlace('pglite');
      const app = await startApp(place, { CHECKOUT_TEST_CLOCK: flag });
      try {
        const keys = await createMerchant(app);
        const before = app.clock.now().getTime();
        const moved = await app.inject({ method: 'POST', url: '/checkout/sandbox/clock', headers: { 'api-key': keys.secretKey }, payload: { advanceSeconds: 3600 } });
        if (flag === '0') {
          expect(moved.statusCode).toBe(404);
        } else {
          expect(moved.json()).toMatchObject({ statusCode: '00', message: 'Clock advanced' });
          expect(app.clock.now().getTime() - before).toBeGreaterThanOrEqual(3_600_000);
        }
      } finally {
        await app.close();
        await cleanPlace(place);
      }
    }
  });
});
