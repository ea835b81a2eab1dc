import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../shared/webhooks.ts';
import { cleanPlace, drivers, newPlace, startApp, testConfig, TEST_DATABASE_URL, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const run = promisify(execFile);
/** Each command opens the database afresh (on PGlite several seconds on a busy machine). */
const CLI_TIMEOUT_MS = 240_000;

/** `npm run merchant -- webhook ...`, as the README shows it, against the database a server then uses. */
describe.each(drivers)('npm run merchant -- webhook on %s', (driver) => {
  let place: Place;
  let env: NodeJS.ProcessEnv;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    place = newPlace(driver);
    const config = testConfig(place);
    // The receiver listens on 127.0.0.1: the CLI adds an endpoint there only with the operator's setting.
    env = { ...process.env, CHECKOUT_DATA_DIR: place.dataDir, CHECKOUT_MASTER_KEY: config.masterKey!.toString('base64'), NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1' };
    delete env.DATABASE_URL;
    delete env.DATABASE_SCHEMA;
    if (driver === 'postgres') Object.assign(env, { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: place.schema });
    receiver = await new WebhookReceiver((index) => (index === 0 ? 500 : 200)).start();
  });
  afterAll(async () => {
    await receiver.stop();
    await cleanPlace(place);
  });

  const merchant = (...args: string[]) => run('npm', ['run', 'merchant', '--', ...args], { env, cwd: process.cwd() });
  const json = async (...args: string[]) => JSON.parse((await merchant(...args)).stdout);
  const refusal = async (...args: string[]) => {
    const failure = await merchant(...args).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in failure ? failure.stdout : 'the command succeeded').toBe('');
    return { code: (failure as { code: number }).code, message: (failure as { stderr: string }).stderr.trim() };
  };

  /** Runs a server on the same database while `work` runs, then stops it (the embedded database has one user). */
  async function withServer(work: (app: Awaited<ReturnType<typeof startApp>>) => Promise<void>): Promise<void> {
    const app = await startApp(place);
    try {
      await work(app);
    } finally {
      await app.close();
    }
  }

  it('adds, lists, rotates, shows deliveries, resends and disables endpoints, with the secrets shown once', async () => {
    const created = await json('create', '--name', 'Hooked Stores', '--country', 'NG', '--email', 'hooks@store.test');
    const id = String(created.subsidiaryId);

    const added = await json('webhook', 'add', '--id', id, '--url', receiver.url());
    expect(added).toMatchObject({ id: expect.stringMatching(/^we_/), url: receiver.url(), mode: 'test', status: 'enabled', secret: expect.stringMatching(/^whsec_/) });
    const { stdout: listed } = await merchant('webhook', 'list', '--id', id);
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ id: added.id, status: 'enabled' })]);
    expect(listed).not.toContain('whsec_');

    let reference = '';
    await withServer(async (app) => {
      const client = new CheckoutClient(app, created);
      reference = await client.newOrder();
      expect((await client.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: '00' });
      await app.jobs.runDue();
    });
    expect(receiver.received).toHaveLength(1);

    const [delivery] = await json('webhook', 'deliveries', '--id', id, '--endpoint', added.id);
    expect(delivery).toMatchObject({ eventType: 'order.successful', status: 'pending', attempts: [{ attempt: 1, outcome: 'failed', statusCode: 500 }] });

    const rotated = await json('webhook', 'rotate', '--id', id, '--endpoint', added.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    const resent = await json('webhook', 'resend', '--id', id, '--delivery', delivery.id);
    expect(resent).toMatchObject({ resendOf: delivery.id, status: 'pending', eventId: delivery.eventId });

    // A server started now delivers the resend (due at once; the original's retry too if its 30-60 s are up),
    // signed with the rotated secret.
    await withServer(async () => {});
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    for (const webhook of receiver.received.slice(1)) {
      expect(JSON.parse(webhook.body)).toMatchObject({ id: delivery.eventId, data: { orderReference: reference } });
      expect(verifyWebhookSignature(webhook.body, webhook.headers[SIGNATURE_HEADER] as string, rotated.secret)).toBe(true);
    }

    const disabled = await json('webhook', 'disable', '--id', id, '--endpoint', added.id);
    expect(disabled).toMatchObject({ id: added.id, status: 'disabled' });
    const deliveries = await json('webhook', 'deliveries', '--id', id, '--endpoint', added.id, '--limit', '5');
    expect(deliveries.map((each: { id: string }) => each.id)).toEqual([resent.id, delivery.id]);
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempts: [{ attempt: 1, outcome: 'succeeded', statusCode: 200 }] });
    // Disabling ended the original unless its retry had already gone through.
    expect(deliveries[1].status).not.toBe('pending');
  }, CLI_TIMEOUT_MS);

  it('refuses bad arguments with a one-line reason on stderr, exit code 2 and nothing on stdout', async () => {
    const created = await json('create', '--name', 'Careful Stores', '--country', 'NG', '--email', 'careful@store.test');
    const id = String(created.subsidiaryId);
    const cases: [string[], string][] = [
      [['webhook', 'add', '--id', id, '--url', 'ftp://shop.example/hooks'], '--url must be an absolute http or https URL'],
      [['webhook', 'add', '--id', id], '--url is required'],
      [['webhook', 'add', '--id', id, '--mode', 'live', '--url', 'http://shop.example/hooks'], '--url must be an https URL for live mode (plain http is accepted only for test mode, or for a loopback address)'],
      [['webhook', 'add', '--id', '999', '--url', 'https://shop.example/hooks'], 'No merchant has id 999.'],
      [['webhook', 'rotate', '--id', id], '--endpoint is required'],
      [['webhook', 'rotate', '--id', id, '--endpoint', 'nope'], '--endpoint must be a webhook endpoint id (we_...)'],
      [['webhook', 'disable', '--id', id, '--endpoint', 'we_AAAAAAAAAAAAAAAAAAAAAA'], 'No webhook endpoint has this id.'],
      [['webhook', 'resend', '--id', id, '--delivery', 'wd_AAAAAAAAAAAAAAAAAAAAAA'], 'No webhook delivery has this id.'],
      [['webhook', 'deliveries', '--id', id, '--endpoint', 'we_AAAAAAAAAAAAAAAAAAAAAA', '--limit', '0'], '--limit must be a whole number from 1 to 100'],
      [['webhook', 'send', '--id', id], 'Unknown webhook command "send": use add, list, rotate, disable, deliveries or resend.'],
    ];
    for (const [args, message] of cases) {
      const { code, message: stderr } = await refusal(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toBe(message);
    }
  }, CLI_TIMEOUT_MS);
});
