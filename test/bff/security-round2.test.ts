import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../bff/app.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, testConfig, useTestApp, type Place, logCapture } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { encryptLegacy } from '../support/encrypt.ts';
import { createMerchant } from '../support/merchant.ts';
import { configOf, fakeWidgetDir } from '../support/widget-page.ts';

/**
 * The second security review (issue 12, low items): hostile text, card data in free text, the link page's order
 * capability, frame tokens, amounts, logs, CORS and caching, abuse limits, slow clients, secret keys in pages.
 */
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const widgetDir = fakeWidgetDir();
const SHOP = 'https://shop.acme.test';

const envelope = (statusCode: string, message: string | RegExp) => ({
  status: 'failed',
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
});

describe.each(drivers)('security round 2 on %s', (driver) => {
  const clock = new ManualClock();
  const context = useTestApp(driver, { overrides: { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir }, clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  const createLink = async (payload: object = {}) => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Donation', Description: 'Support us', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', ...payload },
    });
    return response;
  };
  const postForm = (reference: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/l/${reference}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const ada = { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '+234 801 234 5678' };

  /** Every stored row of these tables as text, to search for what must never be stored. */
  async function storedText(): Promise<string> {
    const tables = ['orders', 'customers', 'order_events', 'payment_links', 'order_payments', 'domain_events'];
    const rows = await Promise.all(tables.map((table) => app.storage.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${table} t`)));
    return rows.flat().map((row) => row.row).join('\n');
  }

  beforeAll(async () => {
    app = context.app;
    keys = await app.merchants.create({ name: 'Acme Stores', country: 'NG', supportEmail: 's@acme.test', allowedOrigins: [`${SHOP}/`] });
    client = new CheckoutClient(app, keys);
  });

  describe('text no storage can keep (5)', () => {
    it('answers a lone UTF-16 surrogate anywhere in an encrypted payload with the envelope naming the field', async () => {
      const lone = 'abc\ud800';
      const cases: [string, object, string][] = [
        ['/checkout/order/create', { ...orderPayload(), paymentMeta: { note: lone } }, 'paymentMeta.note'],
        ['/checkout/order/create', { ...orderPayload(), paymentMeta: { [lone]: 'x' } }, 'paymentMeta'],
        ['/checkout/order/create', orderPayload(newReference(), { order: { items: [{ name: lone, amount: 5000 }] } }), 'order.items[0].name'],
        ['/checkout/order/create', orderPayload(newReference(), { customer: { firstname: lone } }), 'customer.firstname'],
      ];
      for (const [url, plain, field] of cases) {
        const response = await client.post(url, plain);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(envelope('VAL400', `The ${field} field must be valid text: it holds a NUL character or an unpaired UTF-16 surrogate.`));
      }
      const reference = await client.newOrder();
      const event = await client.track({ eventname: 'opened', orderreference: reference, detail: '\udc00x' });
      expect(event.statusCode).toBe(400);
      expect(event.json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringContaining('The detail field must be valid text') });
      const name = await client.track({ eventname: 'opened\ud83d', orderreference: reference });
      expect(name.json()).toMatchObject({ statusCode: 'VAL400' });
    });

    it('answers a lone surrogate in a plain JSON body, and a NUL in an address, with the envelope', async () => {
      const link = await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
        payload: '{"Name":"Tickets \\ud800","Description":"d","PaymentType":"SC","Currency":"NGN","AuthOption":"AUTH"}',
      });
      expect(link.statusCode).toBe(400);
      expect(link.json()).toEqual(envelope('VAL400', 'The Name field must be valid text: it holds a NUL character or an unpaired UTF-16 surrogate.'));
      const verify = await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': keys.secretKey }, payload: { reference: 'A\ud800' } });
      expect(verify.statusCode).toBe(400);
      const frame = await app.inject({ method: 'GET', url: '/checkout/frame/%00' });
      expect(frame.statusCode).toBe(400);
      expect(frame.json()).toMatchObject({ statusCode: 'VAL400' });
    });

    it('answers a NUL in a page address with the not-found page, never a 5xx', async () => {
      const reference = (await createLink()).json().data.paymentLink.reference as string;
      const pages: [string, number, string][] = [
        ['/l/%00', 404, 'Payment link not found'],
        [`/l/${reference}%00`, 404, 'Payment link not found'],
        [`/l/${reference}?order=%00`, 404, 'Order not found'],
        [`/l/${reference}?order=LNK-%00`, 404, 'Order not found'],
        [`/l/${reference}?reference=%00&status=successful`, 404, 'Order not found'],
        ['/checkout/3ds/%00', 404, 'Payment not found'],
      ];
      for (const [url, status, text] of pages) {
        const page = await app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(status);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain(text);
      }
      const form = await postForm('%00', ada);
      expect(form.statusCode).toBeLessThan(500);
      const result = await app.inject({ method: 'GET', url: '/checkout/result?reference=%00&status=successful' });
      expect(result.statusCode).toBe(200);
    });
  });

  describe('card data in free text (6)', () => {
    const pans = ['4242424242424242', '4242 4242 4242 4242', '5123-4500-0078-4608', '5123450000784608', '378282246310005', '601100099990139'];
    const leaked = (text: string) =>
      ['4242424242424242', '4242 4242 4242 4242', '5123-4500-0078-4608', '5123450000784608', '378282246310005', '601100099990139', 'cvv 123', 'CVC: 1234', 'security code 987'].filter((secret) =>
        text.includes(secret),
      );

    it('masks card numbers, whatever their check digit, and security codes in every stored text of an order', async () => {
      const reference = newReference();
      const created = await client.createOrder({
        customer: { firstname: `Ada ${pans[0]}`, lastname: `Obi ${pans[2]}`, email: 'scrub@example.test', mobile: '+2348012345678' },
        order: {
          amount: 5000,
          reference,
          currency: 'NGN',
          description: `Tickets, card ${pans[1]}, cvv 123`,
          items: [
            { name: `Ticket ${pans[3]}`, amount: 2500 },
            { name: `Seat CVC: 1234 ${pans[4]}`, amount: 2500 },
          ],
        },
        payment: { RedirectUrl: 'https://merchant.test/return' },
        paymentMeta: { note: `security code 987 ${pans[5]}`, [pans[0]!]: 'key holds a card number', nested: { list: [pans[3], 4242424242424242] } },
      });
      expect(created.statusCode).toBe(200);
      const tracked = await client.track({ eventname: `opened ${pans[3]}`, orderreference: reference, [`step ${pans[0]}`]: 'cvv 123', amount: 5123450000784608 });
      expect(tracked.statusCode).toBe(200);

      const verify = await client.verify(reference);
      expect(verify.statusCode).toBe(200);
      expect(verify.body).toContain('Ada ****************');
      expect(leaked(verify.body)).toEqual([]);
      expect(leaked(created.body)).toEqual([]);
      const stored = await storedText();
      expect(stored).toContain('Tickets, card **** **** **** ****, cvv ***');
      expect(stored).toContain('Ticket ****************');
      expect(stored).toContain('security code ***');
      expect(leaked(stored)).toEqual([]);
    });

    it('masks them in payment-link fields, keeping short numbers', async () => {
      const response = await createLink({ Name: `Gift ${pans[3]} for 2 people`, Description: `Pay with 4242-4242-4242-4242 and cvv 123 for order 12345678901` });
      expect(response.statusCode).toBe(200);
      const link = response.json().data.paymentLink;
      expect(link.name).toBe('Gift **************** for 2 people');
      expect(link.description).toBe('Pay with ****-****-****-**** and cvv *** for order 12345678901');
      expect(leaked(await storedText())).toEqual([]);
    });
  });

  describe("the link page and an order's capability (7)", () => {
    it("never shows an order made on the link under the merchant's own reference", async () => {
      const link = (await createLink({ Amount: 100 })).json().data.paymentLink;
      const reference = `ORDER-${Date.now()}`;
      const made = await client.createOrder(
        orderPayload(reference, { order: { amount: 100 }, customer: { firstname: 'Victoria', lastname: 'Victim', email: 'victim@example.test' }, payment: { paymentlinkid: link.id } }),
      );
      expect(made.statusCode).toBe(200);
      for (const url of [`/l/${link.reference}?order=${reference}`, `/l/${link.reference}?reference=${reference}&status=successful`]) {
        const page = await app.inject({ method: 'GET', url });
        expect(page.statusCode).toBeLessThan(500);
        expect(page.statusCode).not.toBe(303);
        expect(page.body).not.toContain('victim@example.test');
        expect(page.body).not.toContain('Victoria');
      }
      // The order the page itself made, by its unguessable reference, is still the customer's page.
      const own = String((await postForm(link.reference, ada)).headers.location);
      const page = await app.inject({ method: 'GET', url: own });
      expect(page.statusCode).toBe(200);
      expect(configOf(page.body)).toMatchObject({ 'customer-email': 'ada@example.test' });
    });
  });

  describe('frame tokens (8)', () => {
    const openSession = (apiKey: string) => app.inject({ method: 'POST', url: '/checkout/embed/sessions', headers: { 'api-key': apiKey, origin: SHOP } });
    const tokenOf = async () => new URL((await openSession(keys.publishableKey)).json().data.frameUrl).pathname.split('/').pop()!;
    const frame = (token: string) => app.inject({ method: 'GET', url: `/checkout/frame/${token}` });
    const withSession = (token: string) => app.inject({ method: 'GET', url: '/checkout/frequencies', headers: { 'api-key': keys.publishableKey, 'checkout-session': token } });

    it('is a signed JWT with issuer, audience and expiry, refused once expired', async () => {
      const token = await tokenOf();
      const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
      expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(payload).toMatchObject({ iss: 'checkout', aud: 'checkout-frame', origin: SHOP, mode: 'test', exp: expect.any(Number), iat: expect.any(Number) });
      expect((await frame(token)).statusCode).toBe(200);
      expect((await withSession(token)).statusCode).toBe(200);
      clock.advance(5 * 3_600_000);
      try {
        expect((await frame(token)).statusCode).toBe(403);
      } finally {
        clock.advance(-5 * 3_600_000);
      }
    });

    it('refuses anything that is not exactly the signed token', async () => {
      const token = await tokenOf();
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // The last character of a 32-byte signature carries spare bits: its sibling decodes to the same bytes.
      const sibling = alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1]!;
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const otherAudience = await app.signedTokens.sign('customer-session', JSON.parse(Buffer.from(payload, 'base64url').toString()), {
        now: clock.now(),
        expiresAt: new Date(clock.now().getTime() + 60_000),
      });
      const forged = [`${token}.x`, `${token}.`, `${token}x`, `${header}.${payload}.${signature.slice(0, -1)}${sibling}`, unsigned, `${header}.${payload}`, otherAudience, ` ${token}`];
      for (const candidate of forged) {
        expect((await frame(encodeURIComponent(candidate))).statusCode, candidate).toBe(403);
        const call = await withSession(candidate);
        expect(call.statusCode, candidate).toBe(403);
        expect(call.json()).toMatchObject({ statusCode: 'AUTH403' });
      }
    });
  });

  describe('amounts (9)', () => {
    it('refuses more decimals than the currency has, whatever the size', async () => {
      for (const amount of [10000000.001, 10.001, 0.001, 99999999.999]) {
        const order = await client.createOrder(orderPayload(newReference(), { order: { amount } }));
        expect(order.statusCode, String(amount)).toBe(400);
        expect(order.json()).toEqual(envelope('VAL400', 'The order.amount field has more decimal places than NGN allows.'));
      }
      const link = await createLink({ Amount: '10000000.001' });
      expect(link.json()).toEqual(envelope('VAL400', 'The Amount field has more decimal places than NGN allows.'));
      const fee = await client.fee({ amount: 10000000.001, currency: 'NGN', paymentoption: 'C' });
      expect(fee.json()).toEqual(envelope('VAL400', 'The amount field has more decimal places than NGN allows.'));
      const yen = await client.createOrder(orderPayload(newReference(), { order: { amount: 100.5, currency: 'JPY' } }));
      expect(yen.json()).toEqual(envelope('VAL400', 'The order.amount field has more decimal places than JPY allows.'));
      const exact = await client.createOrder(orderPayload(newReference(), { order: { amount: 10000000.01 } }));
      expect(exact.statusCode).toBe(200);
    });

    it('refuses an amount above the documented maximum of its currency', async () => {
      const naira = await client.createOrder(orderPayload(newReference(), { order: { amount: 100_000_000.01 } }));
      expect(naira.json()).toEqual(envelope('VAL400', 'The order.amount field must be at most 100000000 NGN.'));
      const dollars = await client.createOrder(orderPayload(newReference(), { order: { amount: 1_000_001, currency: 'USD' } }));
      expect(dollars.json()).toEqual(envelope('VAL400', 'The order.amount field must be at most 1000000 USD.'));
      const link = await createLink({ Amount: 200_000_000 });
      expect(link.json()).toEqual(envelope('VAL400', 'The Amount field must be at most 100000000 NGN.'));
      const largest = await client.createOrder(orderPayload(newReference(), { order: { amount: 100_000_000 } }));
      expect(largest.statusCode).toBe(200);
    });
  });

  describe('CORS and caching (11)', () => {
    const evil = { origin: 'https://evil.test' };

    it('names no other origin on pages for people, preflight included', async () => {
      const link = (await createLink()).json().data.paymentLink;
      const payment = (await client.payByCard(await client.newOrder(), '4242424242424242')).json().data.paymentDetail;
      const pages = [`/l/${link.reference}`, new URL(payment.redirectUrl).pathname, '/checkout/result?reference=A&status=successful', '/demo/'];
      for (const url of pages) {
        const page = await app.inject({ method: 'GET', url, headers: evil });
        expect(page.headers['access-control-allow-origin'], url).toBeUndefined();
        const preflight = await app.inject({ method: 'OPTIONS', url, headers: { ...evil, 'access-control-request-method': 'POST' } });
        expect(preflight.headers['access-control-allow-origin'], url).toBeUndefined();
      }
    });

    it("still answers the widget's API calls from any page, and keeps their answers out of caches", async () => {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/checkout/order/create',
        headers: { ...evil, 'access-control-request-method': 'POST', 'access-control-request-headers': 'api-key,content-type' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBe('https://evil.test');
      const reference = newReference();
      const created = await app.inject({
        method: 'POST',
        url: '/checkout/order/create',
        headers: { ...evil, 'api-key': keys.publishableKey },
        payload: { data: await client.encrypt(orderPayload(reference)) },
      });
      expect(created.statusCode).toBe(200);
      expect(created.headers['access-control-allow-origin']).toBe('https://evil.test');
      expect(created.headers['cache-control']).toBe('no-store');
      for (const answer of [await client.status(reference), await client.verify(reference), await client.payByCard(reference, '5555555555554444')]) {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-store');
      }
    });
  });

  describe('secret keys in pages (14)', () => {
    it('refuses to open an embedded checkout with a secret key, telling the merchant to use the publishable key', async () => {
      const session = await app.inject({ method: 'POST', url: '/checkout/embed/sessions', headers: { 'api-key': keys.secretKey, origin: SHOP } });
      expect(session.statusCode).toBe(403);
      expect(session.json()).toEqual(envelope('AUTH403', /^A secret key was sent from a web page\. Use your publishable key \(pk_…\) in the embed/));
      expect(session.body).not.toContain(keys.secretKey);
    });
  });
});

describe('3-D Secure references in logs (10)', () => {
  let place: Place;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    place = newPlace('pglite');
    const { stream } = logCapture(lines);
    app = await buildApp(testConfig(place, { LOG_LEVEL: 'info', PUBLIC_BASE_URL: 'http://127.0.0.1:9999' }), { logStream: stream });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it('masks the payment reference of the 3-D Secure page like link and frame references', async () => {
    const client = new CheckoutClient(app, await createMerchant(app));
    const payment = (await client.payByCard(await client.newOrder(), '4242424242424242')).json().data.paymentDetail;
    const before = lines.length;
    await client.authenticate(payment.redirectUrl, 'wrong-code');
    const log = lines.slice(before).join('');
    expect(log).toContain('/checkout/3ds/***');
    expect(payment.paymentReference).toMatch(/\w{8,}/);
    expect(log).not.toContain(payment.paymentReference);
  });
});

function expectLimited(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }): void {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(envelope('RATE429', /^Too many requests\. Try again in \d+ seconds\.$/));
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('abuse limits (12)', () => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  // Every request that is not about its address comes from an address of its own, so no count reaches another test.
  let sent = 0;
  const from = () => `198.51.100.${(sent += 1)}`;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, {
      RATE_LIMIT_PER_IP: '6',
      RATE_LIMIT_FAILURES_PER_IP: '3',
      RATE_LIMIT_PER_KEY: '5',
      RATE_LIMIT_PER_LINK: '2',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    keys = await createMerchant(app);
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it('limits the requests of one address, not the health probes', async () => {
    const address = from();
    const answers = [];
    for (let index = 0; index < 7; index += 1) {
      answers.push(await app.inject({ method: 'GET', url: '/checkout/result?reference=A&status=failed', remoteAddress: address }));
    }
    expect(answers.slice(0, 6).map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expectLimited(answers[6]!);
    expect((await app.inject({ method: 'GET', url: '/health', remoteAddress: address })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/checkout/result?reference=A&status=failed', remoteAddress: from() })).statusCode).toBe(200);
  });

  it('stops an address that keeps guessing keys or references, even with a good key afterwards', async () => {
    const address = from();
    for (const key of ['sk_test_wrong1', 'sk_test_wrong2', 'sk_test_wrong3']) {
      const wrong = await app.inject({ method: 'POST', url: '/checkout/order/verify', remoteAddress: address, headers: { 'api-key': key }, payload: { reference: 'X' } });
      expect(wrong.statusCode).toBe(401);
    }
    const unknown = await app.inject({ method: 'POST', url: '/checkout/order/verify', remoteAddress: address, headers: { 'api-key': keys.secretKey }, payload: { reference: 'NOPE' } });
    expect(unknown.statusCode).toBe(404);
    expectLimited(await app.inject({ method: 'POST', url: '/checkout/order/verify', remoteAddress: address, headers: { 'api-key': keys.secretKey }, payload: { reference: 'NOPE' } }));
  });

  // A publishable key counts per address (security-round3-limits.test.ts).
  it('limits one secret key across addresses, leaving other merchants alone', async () => {
    const busy = await createMerchant(app);
    for (let index = 0; index < 5; index += 1) {
      expect((await app.inject({ method: 'GET', url: '/checkout/frequencies', remoteAddress: from(), headers: { 'api-key': busy.secretKey } })).statusCode).toBe(200);
    }
    expectLimited(await app.inject({ method: 'GET', url: '/checkout/frequencies', remoteAddress: from(), headers: { 'api-key': busy.secretKey } }));
    const other = await createMerchant(app);
    expect((await app.inject({ method: 'GET', url: '/checkout/frequencies', remoteAddress: from(), headers: { 'api-key': other.secretKey } })).statusCode).toBe(200);
  });

  it("limits the posts of one payment-link page's form, whoever sends them", async () => {
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        remoteAddress: from(),
        headers: { 'api-key': keys.secretKey },
        payload: { Name: 'Donation', Description: 'Support us', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 100 },
      });
    const [link, other] = [(await create()).json().data.paymentLink, (await create()).json().data.paymentLink];
    const post = (reference: string) =>
      app.inject({
        method: 'POST',
        url: `/l/${reference}`,
        remoteAddress: from(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' }).toString(),
      });
    expect((await post(link.reference)).statusCode).toBe(303);
    expect((await post(link.reference)).statusCode).toBe(303);
    expectLimited(await post(link.reference));
    expect((await post(other.reference)).statusCode).toBe(303);
    expect((await app.inject({ method: 'GET', url: `/l/${link.reference}`, remoteAddress: from() })).statusCode).toBeLessThan(400);
  });
});

describe('the legacy RSA decryption queue (12)', () => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let sent = 0;
  const from = () => `203.0.113.${(sent += 1)}`;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { LEGACY_RSA_QUEUE_PER_THREAD: '1' });
    keys = await createMerchant(app);
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it('refuses a flood of legacy RSA blobs early instead of queueing it in front of everyone', async () => {
    const flood = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.inject({
          method: 'POST',
          url: '/checkout/order/status',
          remoteAddress: from(),
          headers: { 'api-key': keys.publishableKey },
          payload: { data: randomBytes(512).toString('base64') },
        }),
      ),
    );
    const refused = flood.filter((answer) => answer.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectLimited(refused[0]!);
    for (const answer of flood.filter((each) => each.statusCode !== 429)) expect(answer.json()).toEqual(envelope('VAL400', 'The data field could not be read.'));
    const real = await app.inject({
      method: 'POST',
      url: '/checkout/order/status',
      remoteAddress: from(),
      headers: { 'api-key': keys.publishableKey },
      payload: { data: encryptLegacy(keys.encryptionKey, { reference: 'NOPE-1' }) },
    });
    expect(real.json()).toMatchObject({ statusCode: 'NF404' });
  });
});

if (TEST_REDIS_URL) {
  describe('abuse limits shared through Redis (12)', () => {
    const places: Place[] = [];
    const apps: FastifyInstance[] = [];

    beforeAll(async () => {
      for (let index = 0; index < 2; index += 1) {
        const place = newPlace('pglite');
        places.push(place);
        apps.push(await startApp(place, { REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_PER_LINK: '2' }));
      }
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const place of places) await cleanPlace(place);
    });

    it('counts the requests every process receives against one limit', async () => {
      const [first, second] = apps as [FastifyInstance, FastifyInstance];
      const reference = randomBytes(16).toString('base64url');
      const post = (app: FastifyInstance) =>
        app.inject({ method: 'POST', url: `/l/${reference}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'firstname=Ada' });
      expect((await post(first)).statusCode).toBe(303);
      expect((await post(second)).statusCode).toBe(303);
      const third = await post(first);
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ statusCode: 'RATE429' });
    });
  });
} else if (!process.env.CHECKOUT_QUIET_REDIS_SKIP) {
  process.env.CHECKOUT_QUIET_REDIS_SKIP = '1';
  process.stderr.write('Redis rate-limit store tests are skipped: TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379).\n');
}

describe('slow clients (13)', () => {
  let place: Place;
  let app: FastifyInstance;
  let port: number;
  let secretKey: string;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2', KEEP_ALIVE_TIMEOUT_SECONDS: '1' });
    secretKey = (await createMerchant(app)).secretKey;
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  /** Sends `text` and never more; resolves with what the server wrote and how long until it closed the socket. */
  function hold(text: string): Promise<{ answer: string; seconds: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve({ answer, seconds: (Date.now() - started) / 1000 }));
      setTimeout(() => {
        socket.destroy();
        reject(new Error('the server held the slow client for 10 seconds'));
      }, 10_000).unref();
    });
  }

  it('cuts off a client that never finishes its headers within seconds, with the envelope', async () => {
    const { answer, seconds } = await hold('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n');
    expect(seconds).toBeLessThan(4);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"statusCode":"VAL400"');
  });

  it('cuts off a client that declares a longer body than it sends', async () => {
    const { answer, seconds } = await hold(
      `POST /checkout/order/verify HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: ${secretKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ref`,
    );
    expect(seconds).toBeLessThan(5);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an idle kept-alive connection', async () => {
    const { answer, seconds } = await hold('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(seconds).toBeLessThan(4);
  });
});
