import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanPlace, newPlace, TEST_DATABASE_URL } from '../support/app.ts';
import { card, newReference, orderPayload } from '../support/checkout.ts';
import { bannerKeys, freePort, HttpClient, startBackendProcess, type BackendProcess } from '../support/processes.ts';

/** One sample of a scrape: `name{labels} value`, labels as written by prom-client (sorted as registered). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe.runIf(TEST_DATABASE_URL)('/metrics of two server processes (Prometheus, on METRICS_PORT)', () => {
  const place = newPlace('postgres');
  let server: BackendProcess;
  let client: HttpClient;
  let metricsUrl: string;
  const scrape = async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    server = await startBackendProcess(place, { WORKERS: '2', METRICS_PORT: '0', JOBS_POLL_MS: '100' }, { compiled: true });
    client = new HttpClient(bannerKeys(server.banner));
    metricsUrl = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics) \(every process, aggregated\)/.exec(server.banner)![1]!;
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
    await cleanPlace(place);
  });

  it('serves the metrics on their own loopback port only, never on the API port', async () => {
    const onApi = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.json()).toMatchObject({ statusCode: 'NF404' });
    const elsewhere = await fetch(metricsUrl.replace('/metrics', '/other'));
    expect(elsewhere.status).toBe(404);
  });

  it('counts requests by route pattern and code across both processes, with latency histograms, and payment outcomes once', async () => {
    const paid = [newReference('MET'), newReference('MET')];
    const declined = newReference('MET');
    for (const reference of [...paid, declined]) {
      expect((await client.encrypted(server.port, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    }
    const payments = await Promise.all([
      ...paid.map((reference) => client.encrypted(server.port, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') })),
      client.encrypted(server.port, '/checkout/order/pay', { reference: declined, paymentoption: 'C', card: card('4000000000009995') }),
    ]);
    expect(payments.map((answer) => answer.statusCode).sort()).toEqual(['00', '00', '51']);
    const link = randomBytes(12).toString('base64url');
    await fetch(`http://127.0.0.1:${server.port}/l/${link}`);

    const text = await scrape();
    const pay = { method: 'POST', route: '/checkout/order/pay', status_code: '200' };
    // Three pay requests in all, whichever process answered each: the counts are summed over the processes.
    expect(sample(text, 'checkout_http_requests_total', pay)).toBe(3);
    expect(sample(text, 'checkout_http_request_duration_seconds_count', pay)).toBe(3);
    expect(sample(text, 'checkout_http_request_duration_seconds_bucket', { ...pay, le: '+Inf' })).toBe(3);
    expect(sample(text, 'checkout_http_requests_total', { method: 'POST', route: '/checkout/order/create', status_code: '200' })).toBe(3);
    // Routes by pattern: a link's reference (a capability) never becomes a label.
    expect(sample(text, 'checkout_http_requests_total', { method: 'GET', route: '/l/:reference' })).toBe(1);
    expect(text).not.toContain(link);
    // Read from the database: each process reports the same figure, and the aggregate does not double it.
    expect(sample(text, 'checkout_payment_attempts', { status: 'Successful', option: 'C', mode: 'test' })).toBe(2);
    expect(sample(text, 'checkout_payment_attempts', { status: 'Failed', option: 'C', mode: 'test' })).toBe(1);
    expect(sample(text, 'checkout_database_scrape_ok')).toBe(1);
    for (const state of ['due', 'scheduled', 'running', 'dead']) expect(sample(text, 'checkout_jobs', { state })).toBeGreaterThanOrEqual(0);
    // Process figures from both processes.
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('reports webhook deliveries that fail and the queue of jobs behind them', async () => {
    const closed = await freePort();
    const endpoint = await client.secret(server.port, 'POST', '/checkout/webhooks', { url: `http://127.0.0.1:${closed}/hooks` });
    expect(endpoint.statusCode).toBe('00');
    const reference = newReference('MET');
    expect((await client.encrypted(server.port, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    expect((await client.encrypted(server.port, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') })).statusCode).toBe('00');
    let text = await scrape();
    for (let tries = 0; !(sample(text, 'checkout_webhook_failed_attempts')! >= 1) && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await scrape();
    }
    expect(sample(text, 'checkout_webhook_failed_attempts')).toBe(1);
    // The delivery waits for its retry: pending, and its job scheduled for later.
    expect(sample(text, 'checkout_webhook_deliveries', { status: 'pending' })).toBe(1);
    expect(sample(text, 'checkout_webhook_deliveries', { status: 'succeeded' })).toBe(0);
    expect(sample(text, 'checkout_jobs', { state: 'scheduled' })).toBeGreaterThanOrEqual(1);
  });
});
