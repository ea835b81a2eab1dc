import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, drivers, newPlace, TEST_DATABASE_URL, useTestApp } from '../support/app.ts';
import { bannerKeys, HttpClient, startBackendProcess, type BackendProcess } from '../support/processes.ts';
import { CheckoutClient, card, orderPayload, newReference } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

async function successfulPayments(app: FastifyInstance, reference: string): Promise<number> {
  const [row] = await app.storage.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.reference = $1 AND p.status_id = 5`,
    [reference],
  );
  return row!.count;
}

describe.each(drivers)('an order is paid at most once on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app));
  });

  it('50 concurrent card payments on one order end with exactly one successful payment', async () => {
    const reference = await client.newOrder();
    const bodies = await Promise.all(Array.from({ length: 50 }, () => client.payByCard(reference, '5555555555554444').then((response) => response.json())));
    expect(bodies.filter((body) => body.statusCode === '00')).toHaveLength(1);
    for (const body of bodies.filter((each) => each.statusCode !== '00')) expect(body.statusCode).toBe('CON409');
    expect(await successfulPayments(app, reference)).toBe(1);
    expect((await client.verify(reference)).json().data.statusId).toBe(5);
  });

  it('50 concurrent 3-D Secure payments, all authenticated at once, end with exactly one successful payment: the latest attempt', async () => {
    const reference = await client.newOrder();
    const started = await Promise.all(Array.from({ length: 50 }, () => client.payByCard(reference, '4242424242424242').then((response) => response.json())));
    // Each call either started an attempt (superseding any left waiting) or met one being processed.
    for (const body of started) expect(['02', 'CON409']).toContain(body.statusCode);
    const redirects = started.filter((body) => body.statusCode === '02').map((body) => body.data.paymentDetail.redirectUrl as string);
    expect(redirects.length).toBeGreaterThanOrEqual(1);
    const before = (await client.verify(reference)).json().data.orderPayments as { orderPaymentReference: string; statusId: number; orderPaymentResponseCode: string }[];
    expect(before).toHaveLength(redirects.length);
    expect(before.slice(0, -1).every((payment) => payment.statusId === 4 && payment.orderPaymentResponseCode === '12')).toBe(true);
    expect(before.at(-1)).toMatchObject({ statusId: 2, orderPaymentResponseCode: '02' });
    const latest = before.at(-1)!.orderPaymentReference;

    // Every customer answers correctly at once, superseded attempts included.
    const answers = await Promise.all(
      redirects.map(async (url) => {
        const path = new URL(url).pathname;
        const paymentReference = path.split('/').pop()!;
        const code = app.sandbox.oneTimeCode(paymentReference);
        const response = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `action=approve&code=${code}` });
        return { paymentReference, status: response.statusCode, location: response.headers.location };
      }),
    );
    // The latest attempt's answer goes back to the merchant; a superseded attempt's page says it is finished.
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(
        answer.paymentReference === latest ? `https://merchant.test/return?reference=${reference}&status=successful` : `/checkout/3ds/${answer.paymentReference}`,
      );
    }
    expect(await successfulPayments(app, reference)).toBe(1);
    const after = (await client.verify(reference)).json().data;
    expect(after).toMatchObject({ statusId: 5, paymentReference: latest });
    expect(after.orderPayments.filter((payment: { statusId: number }) => payment.statusId === 5)).toHaveLength(1);
  });
});

describe.runIf(TEST_DATABASE_URL)('two processes sharing one PostgreSQL', () => {
  const place = newPlace('postgres');
  const processes: BackendProcess[] = [];
  afterAll(async () => {
    for (const { child } of processes) child.kill('SIGTERM');
    await cleanPlace(place);
  });

  it('50 concurrent payments spread over both processes end with exactly one successful payment', async () => {
    processes.push(await startBackendProcess(place));
    processes.push(await startBackendProcess(place));
    const [portA, portB] = processes.map((each) => each.port) as [number, number];
    const client = new HttpClient(bannerKeys(processes[0]!.banner));
    const post = (port: number, route: string, plain: unknown) => client.encrypted(port, route, plain);

    const reference = newReference('TWO');
    expect((await post(portA, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    const bodies = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        post(index % 2 === 0 ? portA : portB, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') }),
      ),
    );
    expect(bodies.filter((body) => body.statusCode === '00')).toHaveLength(1);
    expect(bodies.filter((body) => body.statusCode === 'CON409')).toHaveLength(49);

    const verified = (await client.secret(portB, 'POST', '/checkout/order/verify', { reference })) as { data: { statusId: number; orderPayments: { statusId: number }[] } };
    expect(verified.data.statusId).toBe(5);
    expect(verified.data.orderPayments.filter((payment) => payment.statusId === 5)).toHaveLength(1);
  });
});
