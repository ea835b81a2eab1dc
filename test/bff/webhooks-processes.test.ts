import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../shared/webhooks.ts';
import { cleanPlace, newPlace, TEST_DATABASE_URL } from '../support/app.ts';
import { card, newReference, orderPayload } from '../support/checkout.ts';
import { bannerKeys, HttpClient, startBackendProcess, type BackendProcess } from '../support/processes.ts';
import { WebhookReceiver, type Answer, type ReceivedWebhook } from '../support/webhook-receiver.ts';

/** Short enough to watch a lease run out; the lease still outlasts a delivery's request by the margin config demands. */
const LEASE_SECONDS = 10;
const WEBHOOK_TIMEOUT_SECONDS = 5;

type Delivery = { id: string; eventId: string; status: string; attempts: { attempt: number; outcome: string; statusCode: number | null }[] };

describe.runIf(TEST_DATABASE_URL)('webhooks delivered by two backend processes on one PostgreSQL', () => {
  const place = newPlace('postgres');
  const processes: BackendProcess[] = [];
  let receiver: WebhookReceiver;
  let answer: (index: number, request: ReceivedWebhook) => Answer = () => 200;
  let client: HttpClient;
  let endpoint: { id: string; secret: string };
  let database: pg.Client;

  beforeAll(async () => {
    receiver = await new WebhookReceiver((index, request) => answer(index, request)).start();
    const env = { JOBS_POLL_MS: '100', JOBS_LEASE_SECONDS: String(LEASE_SECONDS), WEBHOOK_TIMEOUT_SECONDS: String(WEBHOOK_TIMEOUT_SECONDS) };
    processes.push(await startBackendProcess(place, env));
    processes.push(await startBackendProcess(place, env));
    client = new HttpClient(bannerKeys(processes[0]!.banner));
    const created = await client.secret(processes[0]!.port, 'POST', '/checkout/webhooks', { url: receiver.url() });
    expect(created.statusCode).toBe('00');
    endpoint = created.data as { id: string; secret: string };
    database = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${place.schema}` });
    await database.connect();
  });
  afterAll(async () => {
    for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await database?.end();
    await receiver.stop();
    await cleanPlace(place);
  });

  /** Pays a new order through process `index` (card approved at once): one order.successful event. */
  async function payOrder(index: number): Promise<string> {
    const port = processes[index]!.port;
    const reference = newReference('HOOK');
    expect((await client.encrypted(port, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    expect((await client.encrypted(port, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') })).statusCode).toBe('00');
    return reference;
  }

  const eventOf = (request: ReceivedWebhook) => JSON.parse(request.body) as { id: string; data: { orderReference: string } };
  const deliveries = async (port: number) =>
    ((await client.secret(port, 'GET', `/checkout/webhooks/${endpoint.id}/deliveries?limit=100`)).data as Delivery[]);

  it('delivers each event exactly once while both processes poll the same queue', async () => {
    const references = await Promise.all(Array.from({ length: 20 }, (_, index) => payOrder(index % 2)));
    await receiver.waitFor(20);
    let log = await deliveries(processes[1]!.port);
    for (let tries = 0; log.some((delivery) => delivery.status === 'pending') && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await deliveries(processes[1]!.port);
    }
    // A few more polling rounds of both processes: nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(20);
    const events = receiver.received.map(eventOf);
    expect(new Set(events.map((event) => event.id)).size).toBe(20);
    expect(events.map((event) => event.data.orderReference).sort()).toEqual([...references].sort());
    for (const request of receiver.received) expect(verifyWebhookSignature(request.body, request.headers[SIGNATURE_HEADER] as string, endpoint.secret)).toBe(true);
    expect(log).toHaveLength(20);
    for (const delivery of log) expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ attempt: 1, outcome: 'succeeded', statusCode: 200 }] });
  });

  it('retries a delivery whose process was killed in the middle of it from the other process once the lease ends, losing nothing', async () => {
    const before = receiver.received.length;
    let killedAt = 0;
    let killed: BackendProcess | undefined;
    // The first request of the new event is held open; while it is, the process sending it is killed.
    answer = (index) => (index === before ? 'hold' : 200);
    const reference = await payOrder(0);
    await receiver.waitFor(before + 1);
    const [claim] = (await database.query<{ locked_by: string }>(`SELECT locked_by FROM jobs WHERE kind = 'webhook.deliver' AND locked_by IS NOT NULL`)).rows;
    const pid = Number(claim!.locked_by.split(':')[1]);
    killed = processes.find((each) => each.child.pid === pid);
    expect(killed, `the claim's holder ${claim!.locked_by} is one of the two processes`).toBeDefined();
    const exited = new Promise((resolve) => killed!.child.once('exit', resolve));
    killed!.child.kill('SIGKILL');
    killedAt = Date.now();
    await exited;

    await receiver.waitFor(before + 2, (LEASE_SECONDS + 20) * 1000);
    const [held, retried] = receiver.received.slice(before);
    // The other process waited for the lease to end (counted from the claim, just before the first request).
    expect(retried!.at - held!.at).toBeGreaterThanOrEqual((LEASE_SECONDS - 2) * 1000);
    expect(retried!.at).toBeGreaterThan(killedAt);
    expect(eventOf(retried!)).toEqual(eventOf(held!));
    expect(eventOf(retried!).data.orderReference).toBe(reference);
    expect(retried!.body).toBe(held!.body);
    expect(verifyWebhookSignature(retried!.body, retried!.headers[SIGNATURE_HEADER] as string, endpoint.secret)).toBe(true);

    const survivor = processes.find((each) => each !== killed)!;
    // The receiver has the request before the survivor has recorded its answer.
    let [delivery] = await deliveries(survivor.port);
    for (let tries = 0; delivery!.status === 'pending' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [delivery] = await deliveries(survivor.port);
    }
    expect(delivery).toMatchObject({ eventId: eventOf(held!).id, status: 'succeeded' });
    expect(delivery!.attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.statusCode])).toEqual([
      [1, 'interrupted', null],
      [2, 'succeeded', 200],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(before + 2);
  }, 120_000);
});
