import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { buildApp } from '../../bff/app.ts';
import { cleanPlace, drivers, logCapture, newPlace, startApp, testConfig, useTestApp, type Place } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/**
 * The third security review (issue 36, items 4, 6, 7, 8, 9): limits a stranger cannot spend for a merchant's
 * customers, idempotency keys per caller, a rate-limit store that stops answering, and JSON nested without end.
 */
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

function expectLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'RATE429', message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) });
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

const LIMITS = {
  RATE_LIMIT_PER_IP: '1000',
  RATE_LIMIT_PER_KEY: '5',
  RATE_LIMIT_PER_PUBLISHABLE_KEY_IP: '3',
  RATE_LIMIT_PER_LINK: '4',
  RATE_LIMIT_PER_LINK_IP: '2',
  RATE_LIMIT_WINDOW_SECONDS: '60',
};

/** The limits' behaviour, on the in-process counts and, when TEST_REDIS_URL is set, on Redis's. */
const stores: [string, Record<string, string>][] = [['memory', {}], ...(TEST_REDIS_URL ? [['redis', { REDIS_URL: TEST_REDIS_URL }] as [string, Record<string, string>]] : [])];

describe.each(stores)('abuse limits a stranger cannot spend for every customer (%s counts)', (_store, storeOverrides) => {
  let place: Place;
  let app: FastifyInstance;
  // Addresses of their own per app, so runs against one shared Redis never meet.
  const run = Math.floor(Math.random() * 200) + 1;
  let sent = 0;
  const from = () => `10.${run}.${Math.floor((sent += 1) / 250)}.${(sent % 250) + 1}`;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { ...LIMITS, ...storeOverrides });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it("keeps a merchant's checkout open to its customers while strangers flood its publishable key from many addresses, and a ceiling on its secret key", async () => {
    const keys = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    const withKey = (url: string, remoteAddress: string, apiKey = keys.publishableKey) => app.inject({ method: 'GET', url, remoteAddress, headers: { 'api-key': apiKey } });
    const strangers = Array.from({ length: 6 }, from);
    for (const address of strangers) {
      for (let index = 0; index < 3; index += 1) expect((await withKey('/checkout/keys', address)).statusCode).toBe(200);
    }
    // Each stranger is stopped at its own address's share of the key.
    expectLimited(await withKey('/checkout/keys', strangers[0]!));

    // Every customer still gets the keys, the frequencies and a new order.
    const customer = from();
    expect((await withKey('/checkout/keys', customer)).statusCode).toBe(200);
    expect((await withKey('/checkout/frequencies', customer)).statusCode).toBe(200);
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/order/create',
      remoteAddress: customer,
      headers: { 'api-key': keys.publishableKey },
      payload: { data: await client.encrypt(orderPayload()) },
    });
    expect(created.json()).toMatchObject({ statusCode: '01' });

    // The secret key, which only the merchant's server holds, keeps a ceiling from every address (5), counted apart.
    for (let index = 0; index < 5; index += 1) expect((await withKey('/checkout/frequencies', from(), keys.secretKey)).statusCode).toBe(200);
    expectLimited(await withKey('/checkout/frequencies', from(), keys.secretKey));
    expect((await withKey('/checkout/frequencies', from())).statusCode).toBe(200);
  });

  it("lets one address post a payment link's form only its share of times, and keeps the link open to others", async () => {
    const keys = await createMerchant(app);
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      remoteAddress: from(),
      headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Donation', Description: 'Support us', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 100 },
    });
    const reference: string = created.json().data.paymentLink.reference;
    const post = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: `/l/${reference}`,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' }).toString(),
      });
    const stranger = from();
    expect((await post(stranger)).statusCode).toBe(303);
    expect((await post(stranger)).statusCode).toBe(303);
    // Refused posts do not spend the link's shared ceiling.
    for (let index = 0; index < 6; index += 1) expectLimited(await post(stranger));
    expect((await post(from())).statusCode).toBe(303);
    expect((await post(from())).statusCode).toBe(303);
    // The link-wide ceiling (4) still holds against many addresses.
    expectLimited(await post(from()));
  });
});

describe('abuse limits when the Redis store does not answer', () => {
  let place: Place;
  let app: FastifyInstance;
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // A Redis that accepts connections and never replies: every command waits for its timeout.
    silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    place = newPlace('pglite');
    app = await startApp(place, { ...LIMITS, RATE_LIMIT_PER_IP: '4', RATE_LIMIT_PER_PUBLISHABLE_KEY_IP: '1000', REDIS_URL: `redis://127.0.0.1:${port}` });
  }, 120_000);
  afterAll(async () => {
    await app.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await cleanPlace(place);
  });

  it('waits for one timeout, then answers at once from the counts of this process, which still limit', async () => {
    const keys = await createMerchant(app);
    const request = () => app.inject({ method: 'GET', url: '/checkout/frequencies', remoteAddress: '192.0.2.10', headers: { 'api-key': keys.publishableKey } });
    expect((await request()).statusCode).toBe(200);
    const started = performance.now();
    expect((await request()).statusCode).toBe(200);
    expect((await request()).statusCode).toBe(200);
    expect((await request()).statusCode).toBe(200);
    // Before the breaker each of these waited 500 ms per counter, one counter after the other (1.5 s each).
    expect(performance.now() - started).toBeLessThan(1000);
    expectLimited(await request());
  });
});

if (TEST_REDIS_URL) {
  describe('abuse limits when Redis answers again', () => {
    const places: Place[] = [];
    let flaky: FastifyInstance;
    let direct: FastifyInstance;
    let proxy: Server;
    let forward = false;
    const held: Socket[] = [];
    const log = logCapture();

    beforeAll(async () => {
      // Silent at first (accepts, never replies); then, as a restarted Redis would, it drops those connections and
      // passes new ones through to the real Redis.
      const upstream = new URL(TEST_REDIS_URL);
      proxy = createServer((socket) => {
        socket.on('error', () => {});
        if (!forward) {
          held.push(socket);
          return;
        }
        const redis = connect(Number(upstream.port || 6379), upstream.hostname);
        redis.on('error', () => socket.destroy());
        socket.on('close', () => redis.destroy());
        socket.pipe(redis).pipe(socket);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const port = (proxy.address() as { port: number }).port;
      const limits = { ...LIMITS, RATE_LIMIT_PER_IP: '4' };
      places.push(newPlace('pglite'), newPlace('pglite'));
      flaky = await buildApp(testConfig(places[0]!, { ...limits, LOG_LEVEL: 'info', REDIS_URL: `redis://127.0.0.1:${port}` }), { logStream: log.stream });
      direct = await startApp(places[1]!, { ...limits, REDIS_URL: TEST_REDIS_URL });
    }, 120_000);
    afterAll(async () => {
      await flaky.close();
      await direct.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
      for (const place of places) await cleanPlace(place);
    });

    it('shares the counts through Redis again once it answers', async () => {
      const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
      const request = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/checkout/result?reference=A&status=failed', remoteAddress: address });
      // The first request waits for Redis's timeout and opens the breaker.
      expect((await request(flaky)).statusCode).toBe(200);
      forward = true;
      for (const socket of held.splice(0)) socket.destroy();
      // The client reconnects on its own schedule, and Redis is asked again at most once a second, by a request
      // (counted in this process meanwhile, here from another address); the process says when it answers.
      const answersAgain = () => log.lines.some((line) => line.includes('rate-limit store answers again'));
      for (let waited = 0; !answersAgain() && waited < 15_000; waited += 250) {
        await flaky.inject({ method: 'GET', url: '/checkout/result?reference=A&status=failed', remoteAddress: '198.18.255.1' });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(answersAgain()).toBe(true);
      // From now on both processes count in Redis: 4 requests from the address in all, then 429 on either.
      expect((await request(flaky)).statusCode).toBe(200);
      expect((await request(direct)).statusCode).toBe(200);
      expect((await request(direct)).statusCode).toBe(200);
      expect((await request(flaky)).statusCode).toBe(200);
      expectLimited(await request(direct));
    });
  });
}

describe.each(drivers)('Idempotency-Key per caller on %s', (driver) => {
  const test = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    client = new CheckoutClient(app, keys);
  });

  const createOrder = async (apiKey: string, payload: object, idempotencyKey: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/checkout/order/create',
      headers: { ...headers, 'api-key': apiKey, 'idempotency-key': idempotencyKey },
      payload: { data: await client.encrypt(payload) },
    });

  it("never replays the answer the merchant's server got (its client token) to a browser repeating its key and payload", async () => {
    const payload = orderPayload(newReference('ORDER'));
    const key = `server-${newReference()}`;
    const server = await createOrder(keys.secretKey, payload, key);
    const clientToken: string = server.json().data.clientToken.token;
    expect(clientToken).toEqual(expect.any(String));

    const browser = await createOrder(keys.publishableKey, payload, key);
    expect(browser.headers['idempotent-replayed']).toBeUndefined();
    expect(browser.body).not.toContain(clientToken);
    // The server's own retry still gets its first answer.
    const retry = await createOrder(keys.secretKey, payload, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(server.body);
  });

  it("replays a customer's answer (their saved cards) only to a caller holding the same customer session", async () => {
    const session = await client.customerSession(`cust-${newReference()}`);
    const payload = orderPayload();
    const key = `browser-${newReference()}`;
    const first = await createOrder(keys.publishableKey, payload, key, { 'checkout-customer-session': session });
    expect(first.json()).toMatchObject({ statusCode: '01' });

    const stranger = await createOrder(keys.publishableKey, payload, key);
    expect(stranger.headers['idempotent-replayed']).toBeUndefined();
    const otherCustomer = await createOrder(keys.publishableKey, payload, key, { 'checkout-customer-session': await client.customerSession(`cust-${newReference()}`) });
    expect(otherCustomer.headers['idempotent-replayed']).toBeUndefined();
    const sameCustomer = await createOrder(keys.publishableKey, payload, key, { 'checkout-customer-session': session });
    expect(sameCustomer.headers['idempotent-replayed']).toBe('true');
    expect(sameCustomer.body).toBe(first.body);
  });

  it("lets no browser take the key the merchant's server will refund under", async () => {
    const reference = await client.newOrder({ order: { amount: 5000 } });
    expect((await client.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: '00' });
    const key = `refund-${reference}`;
    const squat = await createOrder(keys.publishableKey, orderPayload(), key);
    expect(squat.statusCode).toBe(200);

    const refund = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey, 'idempotency-key': key }, payload: { reference } });
    expect(refund.json()).toMatchObject({ statusCode: '00' });
  });
});

describe.each(drivers)('JSON nested without end on %s', (driver) => {
  const test = useTestApp(driver);
  let keys: IssuedKeys;

  beforeAll(async () => {
    keys = await createMerchant(test.app);
  });

  const deepArray = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const post = (url: string, body: string, apiKey = keys.secretKey) =>
    test.app.inject({ method: 'POST', url, headers: { 'api-key': apiKey, 'content-type': 'application/json' }, payload: body });
  const tooDeep = {
    status: 'failed',
    statusCode: 'VAL400',
    message: 'The JSON body is nested too deeply: objects and arrays may nest at most 32 levels.',
  };

  it('refuses a body nested 5,000 deep with VAL400 on every JSON route, before it is read', async () => {
    for (const body of [deepArray(5000), deepObject(5000)]) {
      for (const url of ['/checkout/sandbox/encrypt', '/checkout/links/create', '/checkout/order/refund']) {
        const response = await post(url, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(tooDeep);
      }
    }
    // Brackets inside strings are text, not nesting.
    const encrypted = await post('/checkout/sandbox/encrypt', JSON.stringify({ note: '['.repeat(5000) }));
    expect(encrypted.statusCode).toBe(200);
  });

  it('takes a body nested exactly to the bound, and refuses one level more', async () => {
    // deepObject(31) is 31 objects around a number, inside the outer one the route reads: 32 levels.
    expect((await post('/checkout/sandbox/encrypt', `{"a":${deepObject(31)}}`)).statusCode).toBe(200);
    expect((await post('/checkout/sandbox/encrypt', `{"a":${deepObject(32)}}`)).json()).toEqual(tooDeep);
  });
});
