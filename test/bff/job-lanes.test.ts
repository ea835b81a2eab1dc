import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { JobRunner } from '../../bff/jobs/runner.ts';
import type { JobHandlers } from '../../bff/jobs/kinds.ts';
import { enqueue } from '../../bff/jobs/queue.ts';
import { drivers, ManualClock, useTestApp, type Driver } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { WebhookReceiver, type Answer } from '../support/webhook-receiver.ts';

const SECOND = 1000;
const CARD_APPROVED = '5555555555554444';
const HANGING_ENDPOINTS = 16;

type Delivery = { id: string; status: string; nextAttemptAt: string | null; attempts: { attempt: number }[] };

/** Real milliseconds until `check` holds, or a failure naming what did not happen within `timeoutMs`. */
async function elapsedUntil(started: number, what: string, check: () => Promise<boolean> | boolean, timeoutMs = 5 * SECOND): Promise<number> {
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function addEndpoint(app: FastifyInstance, secretKey: string, url: string): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': secretKey }, payload: { url } });
  expect(created.statusCode).toBe(200);
  return created.json().data.id as string;
}

async function deliveriesOf(app: FastifyInstance, secretKey: string, endpointId: string): Promise<Delivery[]> {
  const response = await app.inject({ method: 'GET', url: `/checkout/webhooks/${endpointId}/deliveries`, headers: { 'api-key': secretKey } });
  expect(response.statusCode).toBe(200);
  return response.json().data as Delivery[];
}

async function paidOrder(client: CheckoutClient): Promise<string> {
  const reference = await client.newOrder();
  expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
  return reference;
}

async function paymentStatus(app: FastifyInstance, reference: string): Promise<number | undefined> {
  const [row] = await app.storage.query<{ status_id: number }>(
    'SELECT p.status_id FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.reference = $1',
    [reference],
  );
  return row?.status_id;
}


/**
 * An app of its own for each scenario (no job of one left in the queue of another), with the default lanes and
 * endpoint limits unless `overrides` says otherwise: transfer accounts expire after 6 seconds of its manual clock, a
 * webhook request is abandoned after 1 real second. Receivers and attempts still running end after each test.
 */
function useLanesApp(driver: Driver, overrides: Record<string, string> = {}) {
  const clock = new ManualClock(new Date('2026-11-28T10:00:00Z'));
  const test = useTestApp(driver, { clock, overrides: { WEBHOOK_TIMEOUT_SECONDS: '1', TRANSFER_EXPIRY_MINUTES: '0.1', ...overrides } });
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await test.app.jobs.idle();
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });
  return {
    clock,
    get app() {
      return test.app;
    },
    async receiver(answer: (index: number) => Answer): Promise<WebhookReceiver> {
      const started = await new WebhookReceiver(answer).start();
      receivers.push(started);
      return started;
    },
  };
}

describe.each(drivers)('a merchant whose endpoints never answer on %s', (driver) => {
  const lanes = useLanesApp(driver);

  /**
   * A merchant with timed work due behind whatever is queued already: an endpoint that answers at once, a transfer
   * account that has run out (6 seconds, then the clock moves 7), and an order paid after it.
   */
  async function merchantWithDueWork(answering: WebhookReceiver) {
    const { app, clock } = lanes;
    const keys = await createMerchant(app);
    await addEndpoint(app, keys.secretKey, answering.url());
    const client = new CheckoutClient(app, keys);
    const transfer = await client.newOrder();
    expect((await client.payByTransfer(transfer)).json()).toMatchObject({ statusCode: '02' });
    clock.advance(7 * SECOND);
    const paid = await paidOrder(client);
    expect(await paymentStatus(app, transfer)).toBe(2);
    return { transfer, paid };
  }

  /** Runs what is due; real milliseconds until the merchant's account expired and its paid order's webhook arrived. */
  async function timeDueWork(answering: WebhookReceiver, work: { transfer: string; paid: string }) {
    const { app } = lanes;
    const started = Date.now();
    const running = app.jobs.runDue();
    const expiredAfter = await elapsedUntil(started, 'the transfer expiry', async () => (await paymentStatus(app, work.transfer)) === 4);
    const deliveredAfter = await elapsedUntil(started, 'the order.successful delivery', () =>
      answering.received.some((request) => request.body.includes(work.paid) && request.body.includes('"order.successful"')),
    );
    await running;
    return { expiredAfter, deliveredAfter };
  }

  it("delays no other merchant's transfer expiry or webhook delivery by a second while one merchant's 16 endpoints never answer", async () => {
    const { app } = lanes;
    const answering = await lanes.receiver(() => 204);
    // How long merchant B's work takes on this machine with nothing else queued (after one run to warm up).
    await timeDueWork(answering, await merchantWithDueWork(answering));
    const alone = await timeDueWork(answering, await merchantWithDueWork(answering));

    // Merchant A: 16 endpoints that hold every request open, and 10 paid orders: 160 deliveries due before B's work.
    const hanging = await lanes.receiver(() => 'hold');
    const merchantA = await createMerchant(app);
    const endpointsA: string[] = [];
    for (let index = 0; index < HANGING_ENDPOINTS; index += 1) endpointsA.push(await addEndpoint(app, merchantA.secretKey, hanging.url(`/hooks/${index}`)));
    const clientA = new CheckoutClient(app, merchantA);
    for (let index = 0; index < 10; index += 1) await paidOrder(clientA);

    const behindA = await timeDueWork(answering, await merchantWithDueWork(answering));
    // Before lanes, B waited for 20 rounds of 8 deliveries each timing out after a second.
    expect(behindA.expiredAfter - alone.expiredAfter).toBeLessThan(SECOND);
    expect(behindA.deliveredAfter - alone.deliveredAfter).toBeLessThan(SECOND);

    // A's endpoints each had one attempt in flight at a time, no more: a timeout freed its place for the next delivery
    // until five in a row opened the breaker, and the other five wait out its cool-down without using an attempt.
    expect(hanging.received).toHaveLength(5 * HANGING_ENDPOINTS);
    expect(new Set(hanging.mostOpen.values())).toEqual(new Set([1]));
    for (const endpointId of [endpointsA[0]!, endpointsA[HANGING_ENDPOINTS - 1]!]) {
      const deliveries = await deliveriesOf(app, merchantA.secretKey, endpointId);
      expect(deliveries).toHaveLength(10);
      expect(deliveries.map((delivery) => delivery.attempts.length).sort()).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
      for (const delivery of deliveries) expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
    }
  });
});

describe.each(drivers)('the breaker of an endpoint that keeps timing out on %s', (driver) => {
  // Two timeouts in a row open an endpoint's breaker for a minute.
  const lanes = useLanesApp(driver, { WEBHOOK_BREAKER_TIMEOUTS: '2', WEBHOOK_BREAKER_COOLDOWN_SECONDS: '60' });

  it("opens an endpoint's breaker after consecutive timeouts, holds its deliveries through the cool-down without attempts, and closes it on a success", async () => {
    const { app, clock } = lanes;
    let answer: Answer = 'hold';
    const endpoint = await lanes.receiver(() => answer);
    const merchant = await createMerchant(app);
    const endpointId = await addEndpoint(app, merchant.secretKey, endpoint.url());
    const client = new CheckoutClient(app, merchant);
    const attemptsMade = async () => (await deliveriesOf(app, merchant.secretKey, endpointId)).reduce((sum, delivery) => sum + delivery.attempts.length, 0);

    // One attempt at a time: the first times out and frees the endpoint for the second, whose timeout, the second in
    // a row, opens the breaker; the other two have waited without an attempt.
    for (let index = 0; index < 4; index += 1) await paidOrder(client);
    await app.jobs.runDue();
    expect(endpoint.received).toHaveLength(2);
    expect(endpoint.mostOpen.get('/webhooks')).toBe(1);
    expect(await attemptsMade()).toBe(2);

    // Through the 60-second cool-down no attempt is made, however often the deliveries come due.
    for (let second = 0; second < 55; second += 5) {
      clock.advance(5 * SECOND);
      await app.jobs.runDue();
    }
    expect(endpoint.received).toHaveLength(2);
    expect(await attemptsMade()).toBe(2);

    // After it, one probe; it succeeds, which closes the breaker, and each delivery that waited follows the last.
    answer = 204;
    clock.advance(10 * SECOND);
    await app.jobs.runDue();
    expect(endpoint.received).toHaveLength(2 + 4);
    expect(endpoint.mostOpen.get('/webhooks')).toBe(1);
    const deliveries = await deliveriesOf(app, merchant.secretKey, endpointId);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    // The two that timed out used one attempt each before their success; the two held back used none.
    expect(deliveries.map((delivery) => delivery.attempts.length).sort()).toEqual([1, 1, 2, 2]);
  });
});

describe.each(drivers)('lanes shared by several runners on %s', (driver) => {
  const lanes = useLanesApp(driver);

  it('claims each lane into its own slots across runners sharing the queue, and runs every job once', async () => {
    const { app, clock } = lanes;
    const ran: string[] = [];
    const inFlight = { payments: 0, webhooks: 0 };
    const most = { payments: 0, webhooks: 0 };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Deliveries hold their slots until every payment job is done: payment jobs that needed a delivery's slot, or
    // waited for a batch holding one, would never finish (the deliveries give up after 10 s, failing the test).
    let paymentsDone = 0;
    let releaseDeliveries = () => {};
    const allPaymentsDone = new Promise<void>((resolve) => (releaseDeliveries = resolve));
    const run = async (lane: 'payments' | 'webhooks', id: string, work: () => Promise<unknown>) => {
      inFlight[lane] += 1;
      most[lane] = Math.max(most[lane], inFlight[lane]);
      await work();
      inFlight[lane] -= 1;
      ran.push(id);
      return { outcome: 'done' } as const;
    };
    const handlers = {
      'webhook.deliver': ({ deliveryId }) => run('webhooks', deliveryId, () => Promise.race([allPaymentsDone, sleep(10 * SECOND)])),
      'payment.expire-transfer': ({ paymentId }) =>
        run('payments', `p${paymentId}`, async () => {
          await sleep(5);
          paymentsDone += 1;
          if (paymentsDone === 12) releaseDeliveries();
        }),
    } as Partial<JobHandlers> as JobHandlers;
    const log = { error: () => {}, warn: () => {}, debug: () => {} };
    const options = { leaseMs: 60_000, maxAttempts: 3, concurrency: { payments: 2, webhooks: 3 } };
    const runners = [new JobRunner(app.storage, clock, handlers, log, options), new JobRunner(app.storage, clock, handlers, log, options)];
    // The app's own periodic job runs first, so the runners below see only the 24 jobs added here.
    await app.jobs.runDue();
    const now = clock.now();
    for (let index = 0; index < 12; index += 1) {
      await enqueue(app.storage, { kind: 'webhook.deliver', payload: { deliveryId: `lane-test-${index}` } }, now, now);
      await enqueue(app.storage, { kind: 'payment.expire-transfer', payload: { paymentId: 900_000 + index } }, now, now);
    }

    const counts = await Promise.all(runners.map((runner) => runner.runDue()));
    expect(counts[0]! + counts[1]!).toBe(24);
    expect(new Set(ran).size).toBe(24);
    // Every payment job finished while all six delivery slots (three per runner) were held; never more at once.
    expect(ran.slice(0, 12).every((id) => id.startsWith('p'))).toBe(true);
    expect(most).toEqual({ payments: expect.any(Number), webhooks: 6 });
    expect(most.payments).toBeLessThanOrEqual(4);
  });
});

describe('job lanes in the configuration', () => {
  it("refuses a delivery lane that one merchant's endpoints could fill", async () => {
    const { readConfig } = await import('../../bff/config.ts');
    expect(() => readConfig({ WEBHOOK_CONCURRENCY: '32', WEBHOOK_ENDPOINT_CONCURRENCY: '2' })).toThrow(/WEBHOOK_CONCURRENCY \(32\) must be more than 16/);
    expect(readConfig({ WEBHOOK_CONCURRENCY: '33', WEBHOOK_ENDPOINT_CONCURRENCY: '2' }).jobs.concurrency).toEqual({ payments: 8, webhooks: 33 });
  });
});
