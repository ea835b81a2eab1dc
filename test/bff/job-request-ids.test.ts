import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../bff/app.ts';
import { cleanPlace, drivers, logCapture, ManualClock, newPlace, testConfig, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

type LogLine = { reqId?: string; msg: string; job?: { kind: string }; webhook?: { deliveryId: string } };

/** A request's id follows the work it starts: the jobs it enqueues and the webhook deliveries they make. */
describe.each(drivers)('request ids in the logs of jobs and webhook deliveries (%s)', (driver) => {
  let place: Place;
  let app: FastifyInstance;
  let receiver: WebhookReceiver;
  const lines: string[] = [];
  const clock = new ManualClock();
  const logged = () => lines.map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    place = newPlace(driver);
    receiver = await new WebhookReceiver().start();
    const { stream } = logCapture(lines);
    app = await buildApp(testConfig(place, { LOG_LEVEL: 'debug' }), { logStream: stream, clock });
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
    await cleanPlace(place);
  });

  it('puts the paying request’s reqId on the lines of the webhook delivery and of the expiry job it caused', async () => {
    const keys = await createMerchant(app);
    const hook = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': keys.secretKey }, payload: { url: receiver.url() } });
    expect(hook.json()).toMatchObject({ statusCode: '00' });
    const client = new CheckoutClient(app, keys);

    const paid = await client.payByCard(await client.newOrder(), '5555555555554444');
    expect(paid.json()).toMatchObject({ statusCode: '00' });
    const payRequest = paid.headers['x-request-id'] as string;
    const transfer = await client.payByTransfer(await client.newOrder());
    expect(transfer.json()).toMatchObject({ statusCode: '02' });
    const transferRequest = transfer.headers['x-request-id'] as string;

    // The delivery runs now; the transfer account's expiry once its time has passed.
    await app.jobs.runDue();
    await receiver.waitFor(1);
    clock.advance(31 * 60_000);
    await app.jobs.runDue();

    const delivered = logged().filter((line) => line.msg === 'webhook delivered');
    expect(delivered.length).toBeGreaterThanOrEqual(1);
    expect(delivered[0]!.reqId).toBe(payRequest);
    const jobsDone = logged().filter((line) => line.msg === 'job done');
    expect(jobsDone.find((line) => line.job?.kind === 'webhook.deliver')?.reqId).toBe(payRequest);
    expect(jobsDone.find((line) => line.job?.kind === 'payment.expire-transfer')?.reqId).toBe(transferRequest);
    // A request's own lines carry its id once (Fastify's), never a second copy.
    for (const line of lines) expect(line.match(/"reqId"/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
