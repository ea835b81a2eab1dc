import { isIP } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Resolve } from '../../bff/security/guarded-agents.ts';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, useTestApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Webhooks are not a way into the server's machine or network (issue 36, item 1): a non-public destination is
 * refused when an endpoint is added, in every spelling, and again when a delivery connects, on the addresses its
 * name resolves to. No test here sends a packet off the machine: names resolve through the test's own table, and
 * the only receivers listen on 127.0.0.1.
 */

const CARD_APPROVED = '5555555555554444';
const HINT = '; the server allows private destinations only when its operator sets WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1';
const REFUSED_AT_DELIVERY = 'The destination is not a public internet address, or its name did not resolve; nothing was sent.';

/** Every spelling of a non-public destination, with what the refusal calls it (host as WHATWG URL writes it). */
const NON_PUBLIC: readonly [url: string, host: string, described: string][] = [
  ['http://127.0.0.1/hooks', '127.0.0.1', 'a loopback address'],
  ['http://127.1/hooks', '127.0.0.1', 'a loopback address'],
  ['http://2130706433/hooks', '127.0.0.1', 'a loopback address'],
  ['http://0x7f000001/hooks', '127.0.0.1', 'a loopback address'],
  ['http://0x7f.1/hooks', '127.0.0.1', 'a loopback address'],
  ['http://017700000001/hooks', '127.0.0.1', 'a loopback address'],
  ['http://127.000.000.001./hooks', '127.0.0.1', 'a loopback address'],
  ['http://127.255.255.254:8080/hooks', '127.255.255.254', 'a loopback address'],
  ['http://[::1]/hooks', '[::1]', 'a loopback address'],
  ['http://[0:0:0:0:0:0:0:1]/hooks', '[::1]', 'a loopback address'],
  ['http://[::ffff:127.0.0.1]/hooks', '[::ffff:7f00:1]', 'a loopback address'],
  ['http://localhost/hooks', 'localhost', 'a loopback address'],
  ['http://LOCALHOST./hooks', 'localhost.', 'a loopback address'],
  ['http://shop.localhost/hooks', 'shop.localhost', 'a loopback address'],
  // The local PostgreSQL and Redis.
  ['http://127.0.0.1:5432/', '127.0.0.1', 'a loopback address'],
  ['http://localhost:6379/', 'localhost', 'a loopback address'],
  ['http://0.0.0.0:5432/', '0.0.0.0', 'the unspecified address'],
  ['http://0/hooks', '0.0.0.0', 'the unspecified address'],
  ['http://[::]/hooks', '[::]', 'the unspecified address'],
  // Cloud metadata, in every spelling.
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'a cloud metadata service'],
  ['http://2852039166/latest/meta-data/', '169.254.169.254', 'a cloud metadata service'],
  ['http://0xa9fea9fe/latest/meta-data/', '169.254.169.254', 'a cloud metadata service'],
  ['http://0251.0376.0251.0376/latest/meta-data/', '169.254.169.254', 'a cloud metadata service'],
  ['http://[::ffff:169.254.169.254]/latest/meta-data/', '[::ffff:a9fe:a9fe]', 'a cloud metadata service'],
  ['http://[64:ff9b::169.254.169.254]/latest/meta-data/', '[64:ff9b::a9fe:a9fe]', 'a cloud metadata service'],
  ['http://[fd00:ec2::254]/latest/meta-data/', '[fd00:ec2::254]', 'a cloud metadata service'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal', 'a cloud metadata service'],
  ['http://METADATA.google.internal./computeMetadata/v1/', 'metadata.google.internal.', 'a cloud metadata service'],
  ['http://169.254.170.2/v2/credentials', '169.254.170.2', 'a cloud metadata service'],
  ['http://169.254.1.1/hooks', '169.254.1.1', 'a link-local address'],
  ['http://[fe80::1]/hooks', '[fe80::1]', 'a link-local address'],
  ['http://10.0.0.1/hooks', '10.0.0.1', 'a private network address'],
  ['http://10.255.255.255/hooks', '10.255.255.255', 'a private network address'],
  ['http://172.16.0.1/hooks', '172.16.0.1', 'a private network address'],
  ['http://172.31.255.254/hooks', '172.31.255.254', 'a private network address'],
  ['http://192.168.1.1/hooks', '192.168.1.1', 'a private network address'],
  ['http://[fc00::1]/hooks', '[fc00::1]', 'a private network address'],
  ['http://[fd12:3456::1]/hooks', '[fd12:3456::1]', 'a private network address'],
  ['http://100.64.0.1/hooks', '100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
  ['http://100.127.255.254/hooks', '100.127.255.254', 'a carrier-grade NAT address (100.64.0.0/10)'],
  ['http://224.0.0.1/hooks', '224.0.0.1', 'a multicast address'],
  ['http://[ff02::1]/hooks', '[ff02::1]', 'a multicast address'],
  ['http://255.255.255.255/hooks', '255.255.255.255', 'the broadcast address'],
  ['http://240.0.0.1/hooks', '240.0.0.1', 'a reserved address'],
  ['http://198.18.0.1/hooks', '198.18.0.1', 'a reserved address'],
  ['http://[::127.0.0.1]/hooks', '[::7f00:1]', 'a reserved address'],
  ['http://192.0.2.1/hooks', '192.0.2.1', 'a documentation address'],
  ['http://198.51.100.1/hooks', '198.51.100.1', 'a documentation address'],
  ['http://203.0.113.1/hooks', '203.0.113.1', 'a documentation address'],
  ['http://[2001:db8::1]/hooks', '[2001:db8::1]', 'a documentation address'],
  ['http://redis:6379/', 'redis', 'a name of a local or internal network'],
  ['http://db.internal/hooks', 'db.internal', 'a name of a local or internal network'],
  ['http://printer.local/hooks', 'printer.local', 'a name of a local or internal network'],
];

/** Reasons the operator's setting can lift; the others hold whatever it says. */
const PRIVATE = new Set(['a loopback address', 'a private network address', 'a link-local address', 'a carrier-grade NAT address (100.64.0.0/10)', 'a name of a local or internal network']);

/** Public destinations (registration only: nothing is delivered to them here). */
const PUBLIC = ['https://hooks.shop.example/checkout', 'http://8.8.8.8/hooks', 'https://[2001:4860:4860::8888]/hooks', 'http://100.63.255.255/hooks', 'http://100.128.0.1/hooks', 'http://172.32.0.1/hooks', 'http://[::ffff:8.8.8.8]/hooks'];

/** The test's DNS: names it knows, every other one not found. No query leaves the machine. */
function resolverOf(names: Record<string, string[]>): Resolve {
  return async (hostname) => {
    const addresses = names[hostname.toLowerCase()];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
}

const refusal = (host: string, described: string) =>
  `The url field must be a public internet address: ${host} is ${described}${PRIVATE.has(described) ? HINT : ''}.`;

function webhookApi(app: FastifyInstance, key: string) {
  const headers = { 'api-key': key };
  return {
    create: (url: string) => app.inject({ method: 'POST', url: '/checkout/webhooks', headers, payload: { url } }),
    list: () => app.inject({ method: 'GET', url: '/checkout/webhooks', headers }),
    deliveries: async (id: string) =>
      (await app.inject({ method: 'GET', url: `/checkout/webhooks/${id}/deliveries`, headers })).json().data as {
        status: string;
        lastError: string | null;
        attempts: { outcome: string; statusCode: number | null; error: string | null; latencyMs: number | null }[];
      }[],
  };
}

async function payAnOrder(app: FastifyInstance, keys: Awaited<ReturnType<typeof createMerchant>>): Promise<void> {
  const client = new CheckoutClient(app, keys);
  expect((await client.payByCard(await client.newOrder(), CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
  await app.jobs.runDue();
}

describe.each(drivers)('webhook destinations, private ones not allowed (the default), on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const names: Record<string, string[]> = {};
  const test = useTestApp(driver, { clock, resolveHost: resolverOf(names), overrides: { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '0' } });
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  it('refuses every spelling of a loopback, private, link-local, metadata or reserved address in test mode, and accepts public ones', async () => {
    const keys = await createMerchant(test.app);
    const api = webhookApi(test.app, keys.secretKey);
    for (const [url, host, described] of NON_PUBLIC) {
      const response = await api.create(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ status: 'failed', statusCode: 'VAL400', message: refusal(host, described) });
    }
    expect((await api.list()).json().data).toEqual([]);
    for (const url of PUBLIC) expect((await api.create(url)).json(), url).toMatchObject({ statusCode: '00', data: { url, mode: 'test' } });
  });

  it('refuses the same addresses in live mode, over https, and plain http to loopback', async () => {
    const keys = await createMerchant(test.app);
    const live = (await test.app.merchants.rotateKeys(keys.subsidiaryId, 'live'))!;
    const api = webhookApi(test.app, live.secretKey);
    for (const [url, host, described] of NON_PUBLIC) {
      const secure = url.replace(/^http:/, 'https:');
      expect((await api.create(secure)).json(), secure).toEqual({ status: 'failed', statusCode: 'VAL400', message: refusal(host, described) });
    }
    expect((await api.create('http://127.0.0.1:9000/hooks')).json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: refusal('127.0.0.1', 'a loopback address') });
    expect((await api.list()).json().data).toEqual([]);
    expect((await api.create('https://hooks.shop.example/checkout')).json()).toMatchObject({ statusCode: '00', data: { mode: 'live' } });
  });

  it('refuses at delivery a public-looking name that resolves to loopback (DNS rebinding), and sends nothing there', async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const port = new URL(receiver.url()).port;
    const keys = await createMerchant(test.app);
    const api = webhookApi(test.app, keys.secretKey);
    // The receiver's own address is refused when added...
    expect((await api.create(receiver.url())).json()).toMatchObject({ statusCode: 'VAL400' });
    // ...so an attacker names it through DNS: public when added (nothing is resolved then), loopback when delivered.
    names['rebind.shop.example'] = ['127.0.0.1'];
    names['rebind6.shop.example'] = ['::1'];
    const rebound = (await api.create(`http://rebind.shop.example:${port}/hooks`)).json();
    expect(rebound).toMatchObject({ statusCode: '00' });
    const rebound6 = (await api.create(`http://rebind6.shop.example:${port}/hooks`)).json();
    expect(rebound6).toMatchObject({ statusCode: '00' });
    // A name that does not resolve reads the same: the delivery log does not tell which internal names exist.
    const unresolved = (await api.create(`http://gone.shop.example:${port}/hooks`)).json();

    await payAnOrder(test.app, keys);
    expect(receiver.received).toEqual([]);
    for (const endpoint of [rebound, rebound6, unresolved]) {
      const [delivery] = await api.deliveries(endpoint.data.id);
      expect(delivery).toMatchObject({ status: 'pending', lastError: REFUSED_AT_DELIVERY });
      expect(delivery!.attempts).toEqual([expect.objectContaining({ outcome: 'failed', statusCode: null, error: REFUSED_AT_DELIVERY, latencyMs: null })]);
    }
  });
});

describe.each(drivers)('webhook destinations with WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1, on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock, resolveHost: resolverOf({ localhost: ['127.0.0.1'] }), overrides: { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1' } });
  let receiver: WebhookReceiver;
  afterAll(async () => {
    await receiver?.stop();
  });

  it('accepts and delivers to loopback, still refuses metadata and addresses no receiver listens on, and names a failed connection by its class only', async () => {
    receiver = await new WebhookReceiver().start();
    const keys = await createMerchant(test.app);
    const api = webhookApi(test.app, keys.secretKey);
    for (const [url, host, described] of NON_PUBLIC) {
      const response = (await api.create(url)).json();
      if (!PRIVATE.has(described)) {
        expect(response, url).toEqual({ status: 'failed', statusCode: 'VAL400', message: refusal(host, described).replace(HINT, '') });
        continue;
      }
      expect(response, url).toMatchObject({ statusCode: '00', data: { url } });
      // Disabled at once: a merchant has at most 16 enabled endpoints, and only the receiver's get events below.
      const disabled = await test.app.inject({ method: 'POST', url: `/checkout/webhooks/${response.data.id}/disable`, headers: { 'api-key': keys.secretKey } });
      expect(disabled.statusCode).toBe(200);
    }
    const byAddress = (await api.create(receiver.url())).json();
    const byName = (await api.create(receiver.url().replace('127.0.0.1', 'localhost'))).json();
    const closed = await new WebhookReceiver().start();
    const closedUrl = closed.url();
    await closed.stop();
    const refusing = (await api.create(closedUrl)).json();
    for (const created of [byAddress, byName, refusing]) expect(created).toMatchObject({ statusCode: '00' });

    await payAnOrder(test.app, keys);
    expect(receiver.received).toHaveLength(2);
    expect((await api.deliveries(byAddress.data.id))[0]).toMatchObject({ status: 'succeeded', attempts: [{ outcome: 'succeeded', statusCode: 200 }] });
    expect((await api.deliveries(byName.data.id))[0]).toMatchObject({ status: 'succeeded', attempts: [{ outcome: 'succeeded', statusCode: 200 }] });
    const [failed] = await api.deliveries(refusing.data.id);
    expect(failed).toMatchObject({ status: 'pending', lastError: 'The connection failed.', attempts: [{ outcome: 'failed', statusCode: null, error: 'The connection failed.' }] });
  });
});

describe.each(drivers)('turning WEBHOOK_ALLOW_PRIVATE_DESTINATIONS off, on %s', (driver) => {
  let place: Place;
  let receiver: WebhookReceiver;
  afterAll(async () => {
    await receiver?.stop();
    if (place) await cleanPlace(place);
  });

  it('stops deliveries to a loopback endpoint added while it was on: nothing reaches it', async () => {
    place = newPlace(driver);
    receiver = await new WebhookReceiver().start();
    const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
    const before = await startApp(place, { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1' }, clock);
    const keys = await createMerchant(before);
    const endpoint = (await webhookApi(before, keys.secretKey).create(receiver.url())).json();
    expect(endpoint).toMatchObject({ statusCode: '00' });
    await before.close();

    const after = await startApp(place, { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '0' }, clock);
    try {
      await payAnOrder(after, keys);
      expect(receiver.received).toEqual([]);
      const [delivery] = await webhookApi(after, keys.secretKey).deliveries(endpoint.data.id);
      expect(delivery!.attempts).toEqual([expect.objectContaining({ outcome: 'failed', statusCode: null, error: REFUSED_AT_DELIVERY, latencyMs: null })]);
    } finally {
      await after.close();
    }
  });
});
