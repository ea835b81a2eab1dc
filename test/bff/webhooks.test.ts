import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readConfig } from '../../bff/config.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { payOrderResponseSchema } from '../../shared/payments.ts';
import { SIGNATURE_HEADER, signWebhook, verifyWebhookSignature } from '../../shared/webhooks.ts';
import { buildApp } from '../../bff/app.ts';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, testConfig, useTestApp, type Place, logCapture } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { readmeVerifier, WebhookReceiver, type Answer } from '../support/webhook-receiver.ts';

const SECOND = 1000;
const HOUR = 3_600_000;
const CARD_APPROVED = '5555555555554444';

type Delivery = {
  id: string; eventId: string; eventType: string; status: string; nextAttemptAt: string | null; deliverUntil: string; resendOf: string | null;
  lastError: string | null; createdAt: string; completedAt: string | null;
  attempts: { attempt: number; startedAt: string; outcome: string; statusCode: number | null; error: string | null; latencyMs: number | null }[];
};

/** The merchant's server calling the webhook API with a key. */
function webhookApi(app: FastifyInstance, key: string) {
  const headers = { 'api-key': key };
  return {
    create: (url: unknown) => app.inject({ method: 'POST', url: '/checkout/webhooks', headers, payload: { url } }),
    list: () => app.inject({ method: 'GET', url: '/checkout/webhooks', headers }),
    rotate: (id: string, body?: object) =>
      app.inject({ method: 'POST', url: `/checkout/webhooks/${id}/rotate-secret`, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, ...(body ? { payload: JSON.stringify(body) } : {}) }),
    disable: (id: string) => app.inject({ method: 'POST', url: `/checkout/webhooks/${id}/disable`, headers }),
    deliveries: (id: string, query = '') => app.inject({ method: 'GET', url: `/checkout/webhooks/${id}/deliveries${query}`, headers }),
    resend: (id: string) => app.inject({ method: 'POST', url: `/checkout/webhooks/deliveries/${id}/resend`, headers }),
  };
}

const parse = (text: string) => JSON.parse(text) as { id: string; type: string; createdAt: string; data: Record<string, unknown> };
const utc = (timestamp: string) => new Date(`${timestamp}Z`).getTime();

describe.each(drivers)('signed webhooks on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock, overrides: { WEBHOOK_TIMEOUT_SECONDS: '1' } });
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function setUp(answer: (index: number) => Answer = () => 200) {
    const app = test.app;
    const receiver = await new WebhookReceiver(answer).start();
    receivers.push(receiver);
    const keys = await createMerchant(app);
    const api = webhookApi(app, keys.secretKey);
    const created = await api.create(receiver.url());
    expect(created.statusCode).toBe(200);
    const endpoint = created.json().data as { id: string; secret: string };
    return { app, keys, api, receiver, endpoint, client: new CheckoutClient(app, keys) };
  }

  async function paidOrder(client: CheckoutClient): Promise<string> {
    const reference = await client.newOrder();
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    return reference;
  }

  async function deliveriesOf(api: ReturnType<typeof webhookApi>, endpointId: string): Promise<Delivery[]> {
    const response = await api.deliveries(endpointId);
    expect(response.statusCode).toBe(200);
    return response.json().data as Delivery[];
  }

  /** Moves the app clock to the delivery's next attempt and runs what is due. */
  async function runNextAttempt(app: FastifyInstance, delivery: Delivery): Promise<void> {
    clock.advance(utc(delivery.nextAttemptAt!) - clock.now().getTime());
    await app.jobs.runDue();
  }

  it('delivers an event signed, retries failed attempts with backoff on the app clock until one succeeds, and logs every attempt', async () => {
    const { app, api, receiver, endpoint, client } = await setUp((index) => (index === 0 ? 500 : index === 1 ? 503 : 204));
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const reference = await paidOrder(client);

    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    const first = receiver.received[0]!;
    const event = parse(first.body);
    expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'order.successful', data: { orderReference: reference, statusId: 5 } });
    expect(event.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    // The same object verify returns.
    expect(event.data).toEqual((await client.verify(reference)).json().data);
    expect(first.headers['content-type']).toBe('application/json');
    const signature = first.headers[SIGNATURE_HEADER] as string;
    expect(signature).toMatch(new RegExp(`^t=${Math.floor(clock.now().getTime() / 1000)},v1=[0-9a-f]{64}$`));
    expect(verifyWebhookSignature(first.body, signature, endpoint.secret, { now: clock.now() })).toBe(true);
    expect(verifyWebhookSignature(first.body.replace('"statusId":5', '"statusId":4'), signature, endpoint.secret, { now: clock.now() })).toBe(false);
    expect(verifyWebhookSignature(first.body, signature, `${endpoint.secret}x`, { now: clock.now() })).toBe(false);

    let [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery).toMatchObject({ eventId: event.id, eventType: 'order.successful', status: 'pending', lastError: 'The endpoint answered HTTP 500.' });
    expect(delivery!.attempts).toEqual([
      { attempt: 1, startedAt: expect.any(String), outcome: 'failed', statusCode: 500, error: null, latencyMs: expect.any(Number) },
    ]);
    const firstWait = utc(delivery!.nextAttemptAt!) - clock.now().getTime();
    expect(firstWait).toBeGreaterThanOrEqual(30 * SECOND);
    expect(firstWait).toBeLessThanOrEqual(60 * SECOND);

    // Not before its time.
    clock.advance(firstWait - SECOND);
    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(1);

    await runNextAttempt(app, delivery!);
    expect(receiver.received).toHaveLength(2);
    [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery!.attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.statusCode])).toEqual([[1, 'failed', 500], [2, 'failed', 503]]);
    const secondWait = utc(delivery!.nextAttemptAt!) - clock.now().getTime();
    expect(secondWait).toBeGreaterThanOrEqual(60 * SECOND);
    expect(secondWait).toBeLessThanOrEqual(120 * SECOND);

    await runNextAttempt(app, delivery!);
    expect(receiver.received).toHaveLength(3);
    [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', nextAttemptAt: null, lastError: null, completedAt: expect.any(String) });
    expect(delivery!.attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.statusCode])).toEqual([[1, 'failed', 500], [2, 'failed', 503], [3, 'succeeded', 204]]);
    // Every attempt carries the same event, byte for byte, freshly signed.
    expect(new Set(receiver.received.map((request) => request.body)).size).toBe(1);
    const last = receiver.received[2]!;
    expect(verifyWebhookSignature(last.body, last.headers[SIGNATURE_HEADER] as string, endpoint.secret, { now: clock.now() })).toBe(true);

    clock.advance(24 * HOUR);
    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(3);
  });

  it('retries for 3 days with growing waits, then marks the delivery failed; a resend delivers the same event again', async () => {
    let failing = true;
    const { app, api, receiver, endpoint, client } = await setUp(() => (failing ? 500 : 200));
    await paidOrder(client);
    await app.jobs.runDue();
    let [delivery] = await deliveriesOf(api, endpoint.id);
    while (delivery!.status === 'pending') {
      await runNextAttempt(app, delivery!);
      [delivery] = await deliveriesOf(api, endpoint.id);
    }
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null, lastError: 'The endpoint answered HTTP 500.' });
    const starts = delivery!.attempts.map((attempt) => utc(attempt.startedAt));
    const waits = starts.slice(1).map((start, index) => start - starts[index]!);
    expect(receiver.received).toHaveLength(starts.length);
    expect(starts.length).toBeGreaterThan(15);
    expect(starts.length).toBeLessThan(40);
    // The last attempt is at the end of the 3-day window.
    expect(starts.at(-1)! - utc(delivery!.createdAt)).toBe(72 * HOUR);
    expect(utc(delivery!.deliverUntil) - utc(delivery!.createdAt)).toBe(72 * HOUR);
    // Exponential: each of the first waits is at least the one before; none is longer than 6 hours.
    for (let index = 1; index < 8; index += 1) expect(waits[index]!).toBeGreaterThanOrEqual(waits[index - 1]!);
    expect(Math.max(...waits)).toBeLessThanOrEqual(6 * HOUR);
    const pendingJobs = await app.storage.query<{ count: number }>(`SELECT count(*)::int AS count FROM jobs WHERE key = $1`, [`webhook.deliver:${delivery!.id}`]);
    expect(pendingJobs[0]!.count).toBe(0);

    failing = false;
    const resent = await api.resend(delivery!.id);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ resendOf: delivery!.id, eventId: delivery!.eventId, status: 'pending', attempts: [] });
    await app.jobs.runDue();
    expect(receiver.received.at(-1)!.body).toBe(receiver.received[0]!.body);
    const [latest, original] = await deliveriesOf(api, endpoint.id);
    expect(latest).toMatchObject({ id: resent.json().data.id, status: 'succeeded', attempts: [{ attempt: 1, outcome: 'succeeded', statusCode: 200 }] });
    expect(original).toMatchObject({ id: delivery!.id, status: 'failed' });
  });

  it('counts a timeout, a refused connection and a redirect as failed attempts', async () => {
    const { app, api, receiver, endpoint, client } = await setUp((index) => (index === 0 ? 'hold' : 302));
    const closed = await new WebhookReceiver().start();
    const refusedUrl = closed.url('/gone');
    await closed.stop();
    const refused = (await api.create(refusedUrl)).json().data as { id: string };

    await paidOrder(client);
    await app.jobs.runDue();
    let [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery!.attempts[0]).toMatchObject({ outcome: 'failed', statusCode: null, error: 'No answer within 1 second.' });
    expect(delivery!.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(900);
    const [refusedDelivery] = await deliveriesOf(api, refused.id);
    expect(refusedDelivery!.attempts[0]).toMatchObject({ outcome: 'failed', statusCode: null, error: 'The connection failed.' });

    await runNextAttempt(app, delivery!);
    [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery!.attempts[1]).toMatchObject({ outcome: 'failed', statusCode: 302 });
    expect(delivery!.status).toBe('pending');
    expect(receiver.received).toHaveLength(2);
  });

  it('rotating the secret without an overlap signs every later attempt with the new secret only, shown once', async () => {
    const { app, api, receiver, endpoint, client } = await setUp((index) => (index === 0 ? 500 : 200));
    await paidOrder(client);
    await app.jobs.runDue();
    // With an overlap (24 hours unless told) the old secret signs too: test/bff/dashboard-operations.test.ts.
    const rotated = await api.rotate(endpoint.id, { overlapHours: 0 });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data as { secret: string; secretRotatedAt: string | null };
    expect(fresh.secret).toMatch(/^whsec_/);
    expect(fresh.secret).not.toBe(endpoint.secret);
    expect(fresh.secretRotatedAt).not.toBeNull();

    const [delivery] = await deliveriesOf(api, endpoint.id);
    await runNextAttempt(app, delivery!);
    const retried = receiver.received[1]!;
    const header = retried.headers[SIGNATURE_HEADER] as string;
    expect(verifyWebhookSignature(retried.body, header, fresh.secret, { now: clock.now() })).toBe(true);
    expect(verifyWebhookSignature(retried.body, header, endpoint.secret, { now: clock.now() })).toBe(false);

    // Secrets are shown on create and rotate only: never listed, never stored in the clear.
    const listed = await api.list();
    expect(listed.json().data).toEqual([expect.objectContaining({ id: endpoint.id, status: 'enabled', url: receiver.url() })]);
    expect(listed.body).not.toContain('whsec_');
    const rows = await app.storage.query<{ secret_sealed: Uint8Array }>('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
    expect(Buffer.from(rows[0]!.secret_sealed).includes(Buffer.from(fresh.secret.slice(6)))).toBe(false);
  });

  it('disabling an endpoint ends its pending deliveries, makes none for later events, and refuses resend and rotation', async () => {
    const { app, api, receiver, endpoint, client } = await setUp(() => 500);
    await paidOrder(client);
    await app.jobs.runDue();
    const disabled = await api.disable(endpoint.id);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().data).toMatchObject({ id: endpoint.id, status: 'disabled', disabledAt: expect.any(String) });
    const [delivery] = await deliveriesOf(api, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', lastError: 'The endpoint was disabled.', nextAttemptAt: null });

    clock.advance(HOUR);
    await paidOrder(client);
    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(api, endpoint.id)).toHaveLength(1);

    expect((await api.resend(delivery!.id)).json()).toMatchObject({ status: 'failed', statusCode: 'CON409', message: 'This webhook endpoint is disabled.' });
    expect((await api.rotate(endpoint.id)).json()).toMatchObject({ statusCode: 'CON409' });
    expect((await api.disable(endpoint.id)).json()).toMatchObject({ statusCode: '00', data: { status: 'disabled' } });
  });

  it('delivers each event to every enabled endpoint of its merchant and mode, and to no other merchant', async () => {
    const { app, api, receiver, endpoint, client } = await setUp();
    const second = await api.create(receiver.url('/second'));
    const other = await setUp();
    await paidOrder(client);
    await app.jobs.runDue();
    expect(receiver.received.map((request) => request.path).sort()).toEqual(['/second', '/webhooks']);
    expect(other.receiver.received).toHaveLength(0);
    expect(await deliveriesOf(api, endpoint.id)).toHaveLength(1);
    expect(await deliveriesOf(api, second.json().data.id)).toHaveLength(1);
    // Another merchant's endpoint and delivery ids are unknown here.
    expect((await other.api.deliveries(endpoint.id)).json()).toMatchObject({ statusCode: 'NF404' });
    const [delivery] = await deliveriesOf(api, endpoint.id);
    expect((await other.api.resend(delivery!.id)).json()).toMatchObject({ statusCode: 'NF404' });
  });

  it('lets only the secret key manage webhooks', async () => {
    const { app, keys, endpoint } = await setUp();
    const publishable = webhookApi(app, keys.publishableKey);
    for (const response of [
      await publishable.create('https://shop.example/hooks'),
      await publishable.list(),
      await publishable.rotate(endpoint.id),
      await publishable.disable(endpoint.id),
      await publishable.deliveries(endpoint.id),
      await publishable.resend('wd_AAAAAAAAAAAAAAAAAAAAAA'),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ status: 'failed', statusCode: 'AUTH403', message: 'This operation needs the secret key; a publishable key was sent.' });
    }
    const anonymous = await app.inject({ method: 'GET', url: '/checkout/webhooks' });
    expect(anonymous.json()).toMatchObject({ statusCode: 'AUTH401' });
  });

  it('refuses bad input with the error envelope naming the field', async () => {
    const { app, keys, api, endpoint } = await setUp();
    const refusals: [unknown, string][] = [
      [undefined, 'The url field is required.'],
      ['ftp://shop.example/hooks', 'The url field must be an absolute http or https URL.'],
      ['not a url', 'The url field must be an absolute http or https URL.'],
      ['https://user:pass@shop.example/hooks', 'The url field must not carry credentials or a fragment (deliveries are authenticated by their signature).'],
      [`https://shop.example/${'a'.repeat(2100)}`, 'The url field must be at most 2048 characters long.'],
    ];
    for (const [url, message] of refusals) {
      const response = await api.create(url);
      expect(response.statusCode, String(url).slice(0, 40)).toBe(400);
      expect(response.json(), String(url).slice(0, 40)).toMatchObject({ status: 'failed', statusCode: 'VAL400', message });
    }
    expect((await api.deliveries('nope')).json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringContaining('endpointId') });
    expect((await api.deliveries(endpoint.id, '?limit=500')).json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringContaining('limit') });
    expect((await api.rotate('we_AAAAAAAAAAAAAAAAAAAAAA')).json()).toMatchObject({ statusCode: 'NF404', message: 'No webhook endpoint has this id.' });
    expect((await api.resend('wd_AAAAAAAAAAAAAAAAAAAAAA')).json()).toMatchObject({ statusCode: 'NF404', message: 'No webhook delivery has this id.' });

    // Live mode: https, or http to a loopback address only.
    const live = (await app.merchants.rotateKeys(keys.subsidiaryId, 'live'))!;
    const liveApi = webhookApi(app, live.secretKey);
    expect((await liveApi.create('http://shop.example/hooks')).json()).toMatchObject({
      status: 'failed',
      statusCode: 'VAL400',
      message: 'The url field must be an https URL for live mode (plain http is accepted only for test mode, or for a loopback address).',
    });
    expect((await liveApi.create('https://shop.example/hooks')).json()).toMatchObject({ statusCode: '00', data: { mode: 'live' } });
    expect((await liveApi.create('http://127.0.0.1:9000/hooks')).json()).toMatchObject({ statusCode: '00', data: { mode: 'live' } });
    expect((await api.create('http://shop.example/hooks')).json()).toMatchObject({ statusCode: '00', data: { mode: 'test' } });
    // Test and live endpoints are apart.
    expect((await liveApi.list()).json().data).toHaveLength(2);
  });

  it('documents the webhook API in the OpenAPI document', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/checkout/webhooks']!).sort()).toEqual(['get', 'post']);
    for (const path of ['/checkout/webhooks/{endpointId}/rotate-secret', '/checkout/webhooks/{endpointId}/disable', '/checkout/webhooks/deliveries/{deliveryId}/resend']) {
      expect(document.paths[path], path).toHaveProperty('post');
    }
    expect(document.paths['/checkout/webhooks/{endpointId}/deliveries']).toHaveProperty('get');
  });
});

describe.each(drivers)('a bank transfer paid while no browser is open, on %s', (driver) => {
  const test = useTestApp(driver);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => receiver.stop());

  it('produces exactly one signed order.successful delivery that the README snippet verifies', async () => {
    const app = test.app;
    const keys: IssuedKeys = await createMerchant(app);
    const endpoint = (await webhookApi(app, keys.secretKey).create(receiver.url())).json().data as { secret: string };
    const client = new CheckoutClient(app, keys);
    // The customer opens the transfer account in the checkout, then closes the tab.
    const reference = await client.newOrder();
    const account = payOrderResponseSchema.parse((await client.payByTransfer(reference)).json()).data.bankTransferDetails!;
    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(0);
    // The money arrives at the bank; nothing of the customer's is open.
    expect((await client.transfer(account.bankAccount, account.amount)).json()).toMatchObject({ statusCode: '00' });
    await app.jobs.runDue();

    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(parse(webhook!.body)).toMatchObject({ type: 'order.successful', data: { orderReference: reference, statusId: 5 } });
    const verify = await readmeVerifier();
    const header = webhook!.headers[SIGNATURE_HEADER] as string;
    expect(verify(webhook!.body, header, endpoint.secret)).toBe(true);
    expect(verify(webhook!.body.replace(reference, `${reference}X`), header, endpoint.secret)).toBe(false);
    expect(verify(webhook!.body, header, 'whsec_someone_else')).toBe(false);
    expect(verify(webhook!.body, undefined, endpoint.secret)).toBe(false);
    // A signature older than 5 minutes is refused, one within them accepted.
    const now = Math.floor(Date.now() / 1000);
    expect(verify(webhook!.body, signWebhook(endpoint.secret, now - 301, webhook!.body), endpoint.secret)).toBe(false);
    expect(verify(webhook!.body, signWebhook(endpoint.secret, now - 290, webhook!.body), endpoint.secret)).toBe(true);

    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
  });
});

describe.each(drivers)('webhook retries across a restart on %s', (driver) => {
  const place: Place = newPlace(driver);
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver((index) => (index === 0 ? 500 : 200)).start();
  });
  afterAll(async () => {
    await receiver.stop();
    await cleanPlace(place);
  });

  it('retries a failed delivery after the process restarts, with the same secret', async () => {
    let app = await startApp(place, {}, clock);
    let endpoint: { id: string; secret: string };
    let keys: IssuedKeys;
    try {
      keys = await createMerchant(app);
      endpoint = (await webhookApi(app, keys.secretKey).create(receiver.url())).json().data;
      await new CheckoutClient(app, keys).payByCard(await new CheckoutClient(app, keys).newOrder(), CARD_APPROVED);
      await app.jobs.runDue();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await app.close();
    }
    clock.advance(2 * 60 * SECOND);
    app = await startApp(place, {}, clock);
    try {
      // The restarted process catches up at start.
      expect(receiver.received).toHaveLength(2);
      const retried = receiver.received[1]!;
      expect(verifyWebhookSignature(retried.body, retried.headers[SIGNATURE_HEADER] as string, endpoint.secret, { now: clock.now() })).toBe(true);
      const [delivery] = (await webhookApi(app, keys.secretKey).deliveries(endpoint.id)).json().data as Delivery[];
      expect(delivery).toMatchObject({ status: 'succeeded' });
      expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    } finally {
      await app.close();
    }
  });
});

describe('webhook configuration', () => {
  it('refuses a job lease that a webhook request could outlast', () => {
    expect(() => readConfig({ JOBS_LEASE_SECONDS: '10', WEBHOOK_TIMEOUT_SECONDS: '10' })).toThrow(
      'Invalid configuration: JOBS_LEASE_SECONDS (10) must be at least WEBHOOK_TIMEOUT_SECONDS + 5 (15), so a webhook request ends before its job\'s lease.',
    );
    expect(readConfig({ JOBS_LEASE_SECONDS: '15', WEBHOOK_TIMEOUT_SECONDS: '10' }).webhookTimeoutMs).toBe(10_000);
  });
});

describe('webhook logs', () => {
  const lines: string[] = [];
  let place: Place;
  let app: FastifyInstance;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    place = newPlace('pglite');
    receiver = await new WebhookReceiver((index) => (index === 0 ? 500 : 200)).start();
    const { stream } = logCapture(lines);
    app = await buildApp(testConfig(place, { LOG_LEVEL: 'trace' }), { logStream: stream });
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
    await cleanPlace(place);
  });

  it('name each attempt by ids, status and latency, never the secret, the URL or the body', async () => {
    const keys = await createMerchant(app);
    const created = (await webhookApi(app, keys.secretKey).create(receiver.url('/hooks/tok_private_path?token=tok_private_query'))).json().data as { id: string; secret: string };
    const rotated = (await webhookApi(app, keys.secretKey).rotate(created.id)).json().data as { secret: string };
    const client = new CheckoutClient(app, keys);
    await client.payByCard(await client.newOrder(), CARD_APPROVED);
    await app.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    const log = lines.join('');
    expect(log).toContain('"webhook attempt failed; retrying"');
    expect(log).toContain(`"endpointId":"${created.id}"`);
    expect(log).toContain('"statusCode":500');
    for (const secret of [created.secret, rotated.secret, 'tok_private', 'ada@example.test', receiver.received[0]!.body.slice(0, 60)]) {
      expect(log).not.toContain(secret);
    }
  });
});
