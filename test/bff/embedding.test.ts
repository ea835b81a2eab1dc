import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, ManualClock, newPlace, startApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createHash } from 'node:crypto';
import { configOf, fakeWidgetDir, PAGE_SCRIPT } from '../support/widget-page.ts';
import { inlineScriptHashes } from '../../bff/security/csp.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const widgetDir = fakeWidgetDir();

function csp(response: { headers: Record<string, unknown> }): Record<string, string> {
  return Object.fromEntries(
    String(response.headers['content-security-policy'])
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
}

describe('embedding, security headers and hosted pages', () => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  const clock = new ManualClock();

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir }, clock);
    keys = await app.merchants.create({ name: 'Acme Stores', country: 'NG', supportEmail: 's@acme.test', allowedOrigins: ['https://shop.acme.test/'] });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  const openSession = (origin: string | undefined, apiKey = keys.publishableKey) =>
    app.inject({ method: 'POST', url: '/checkout/embed/sessions', headers: { 'api-key': apiKey, ...(origin ? { origin } : {}) } });

  it('sends strict security headers on pages and API answers alike', async () => {
    for (const url of ['/health', '/checkout/result?reference=A&status=successful', '/docs/json']) {
      const response = await app.inject({ method: 'GET', url });
      const policy = csp(response);
      expect(policy['script-src']).toBe("'self'");
      expect(policy['style-src']).toBe("'self'");
      expect(policy['frame-ancestors']).toBe("'none'");
      expect(String(response.headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it("allows the API docs page Swagger UI's one inline style by its hash, and nothing else inline", async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const policy = csp(await app.inject({ method: 'GET', url }));
      expect(policy['style-src'], url).toMatch(/^'self' 'sha256-[A-Za-z0-9+/]{43}='$/);
      expect(policy['script-src'], url).toBe("'self'");
    }
    expect(csp(await app.inject({ method: 'GET', url: '/docs/yaml' }))['style-src']).toBe("'self'");
  });

  it("allows the checkout page's own inline script by its hash, never one its settings or order could carry", async () => {
    const pageScript = `'sha256-${createHash('sha256').update(PAGE_SCRIPT).digest('base64')}'`;
    const frameUrl = (await openSession('https://shop.acme.test')).json().data.frameUrl;
    const frame = await app.inject({ method: 'GET', url: new URL(frameUrl).pathname });
    expect(csp(frame)['script-src']).toBe(`'self' ${pageScript}`);

    // A payment-link order's page, whose description is the merchant's text and whose order is in the page.
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Books', Description: '<script>alert(1)</script>', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 100 },
    });
    const link = created.json().data.paymentLink;
    const form = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    const order = /name="order" value="([^"]+)"/.exec(form.body)![1]!;
    const posted = await app.inject({
      method: 'POST',
      url: `/l/${link.reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '', amount: '', order }).toString(),
    });
    const page = await app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(configOf(page.body)).toMatchObject({ description: '<script>alert(1)</script>', order: { order: { statusId: 1 } } });
    expect(csp(page)['script-src']).toBe(`'self' ${pageScript}`);
    expect(String(page.headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval/);

    // What counts as a script the page runs: no type, JavaScript or a module, never a data block or a file.
    expect(
      inlineScriptHashes('<script>a()</script><script type="module">a()</script><script type=text/javascript>b()</script><script type="application/json">{}</script><script src="/c.js"></script>'),
    ).toEqual(['a()', 'b()'].map((body) => `sha256-${createHash('sha256').update(body).digest('base64')}`));
  });

  it('opens a frame session for an allowed origin, framable by that origin only', async () => {
    const session = await openSession('https://shop.acme.test');
    expect(session.statusCode).toBe(200);
    const data = session.json().data;
    expect(data).toMatchObject({ frameOrigin: 'http://127.0.0.1:9999', parentOrigin: 'https://shop.acme.test' });
    expect(data.frameUrl).toMatch(/^http:\/\/127\.0\.0\.1:9999\/checkout\/frame\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(data.frameUrl).not.toContain(keys.publishableKey);

    const frame = await app.inject({ method: 'GET', url: new URL(data.frameUrl).pathname });
    expect(frame.statusCode).toBe(200);
    expect(csp(frame)['frame-ancestors']).toBe('https://shop.acme.test');
    const published = (await app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': keys.publishableKey } })).json().data.keys;
    const { 'encryption-keys': carried, ...config } = configOf(frame.body) as Record<string, unknown>;
    expect(config).toEqual({ 'parent-origin': 'https://shop.acme.test', embedded: true });
    expect(JSON.parse(String(carried))).toEqual(published);
    expect(frame.body).not.toContain(keys.publishableKey);
  });

  it("answers a wrong or missing key with AUTH401 that the merchant's page can read (CORS headers on the error)", async () => {
    for (const apiKey of ['pk_test_wrong', '']) {
      const response = await openSession('https://shop.acme.test', apiKey);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'AUTH401' });
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.acme.test');
      expect(response.headers['access-control-expose-headers']).toContain('x-request-id');
    }
  });

  it('refuses a frame session to an origin the merchant did not allow', async () => {
    const session = await openSession('https://evil.test');
    expect(session.statusCode).toBe(403);
    expect(session.json()).toEqual({ status: 'failed', statusCode: 'AUTH403', message: "The origin https://evil.test is not allowed to embed this merchant's checkout." });
    expect((await openSession(undefined)).json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The Origin header is required.' });
  });

  it('allows localhost for test keys, not for live keys', async () => {
    expect((await openSession('http://localhost:5173')).statusCode).toBe(200);
    const live = await app.merchants.rotateKeys(keys.subsidiaryId, 'live');
    expect((await openSession('http://localhost:5173', live!.publishableKey)).statusCode).toBe(403);
    expect((await openSession('https://shop.acme.test', live!.publishableKey)).statusCode).toBe(200);
  });

  it('accepts for test keys exactly the local origins a frame-ancestors policy can name, and says why [::1] is refused', async () => {
    for (const origin of ['http://localhost:5173', 'https://localhost:8443', 'http://127.0.0.1:5173', 'https://127.0.0.1:8443', 'http://localhost']) {
      expect((await openSession(origin)).statusCode, origin).toBe(200);
    }
    const ipv6 = await openSession('http://[::1]:5173');
    expect(ipv6.statusCode).toBe(403);
    expect(ipv6.json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('Open the page at http://localhost:5173 instead.') });

    const client = new CheckoutClient(app, keys);
    const pay = (await client.payByCard(await client.newOrder(), '4242424242424242')).json();
    const bankPage = await app.inject({ method: 'GET', url: new URL(pay.data.paymentDetail.redirectUrl).pathname });
    expect(csp(bankPage)['frame-ancestors']!.split(' ')).toEqual(
      expect.arrayContaining(['http://localhost:*', 'https://localhost:*', 'http://127.0.0.1:*', 'https://127.0.0.1:*']),
    );
    expect(csp(bankPage)['frame-ancestors']).not.toContain('[');
  });

  it('refuses tampered, expired or no-longer-allowed frame sessions', async () => {
    const own = await app.merchants.create({ name: 'Short Lived', country: 'NG', supportEmail: 's@s.test', allowedOrigins: ['https://a.test'] });
    const url = (await openSession('https://a.test', own.publishableKey)).json().data.frameUrl as string;
    const pathname = new URL(url).pathname;
    const tampered = pathname.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect((await app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

    await app.merchants.setAllowedOrigins(own.subsidiaryId, []);
    expect((await app.inject({ method: 'GET', url: pathname })).statusCode).toBe(403);
    await app.merchants.setAllowedOrigins(own.subsidiaryId, ['https://a.test']);
    expect((await app.inject({ method: 'GET', url: pathname })).statusCode).toBe(200);

    clock.advance(5 * 3_600_000);
    expect((await app.inject({ method: 'GET', url: pathname })).statusCode).toBe(403);
  });

  describe("the frame's calls carry its session, and the key must be the session's merchant's and mode's", () => {
    const frameCall = (apiKey: string, session: string) =>
      app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': apiKey, 'checkout-session': session } });
    const sessionFor = async (origin: string, apiKey: string) => new URL((await openSession(origin, apiKey)).json().data.frameUrl).pathname.split('/').pop()!;

    it("refuses another merchant's key posted to a frame opened with this merchant's key", async () => {
      const other = await app.merchants.create({ name: 'Other Shop', country: 'NG', supportEmail: 's@other.test', allowedOrigins: ['https://other.test'] });
      const session = await sessionFor('https://shop.acme.test', keys.publishableKey);
      expect((await frameCall(keys.publishableKey, session)).statusCode).toBe(200);
      const refused = await frameCall(other.publishableKey, session);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('another merchant') });
    });

    it('refuses a live key posted to a frame opened with a test key', async () => {
      const own = await app.merchants.create({ name: 'Two Modes', country: 'NG', supportEmail: 's@two.test', allowedOrigins: ['https://two.test'] });
      const live = await app.merchants.rotateKeys(own.subsidiaryId, 'live');
      const session = await sessionFor('https://two.test', own.publishableKey);
      const refused = await frameCall(live!.publishableKey, session);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ statusCode: 'AUTH403', message: 'The api-key is a live key but this checkout session was opened with a test key.' });
    });

    it('refuses a tampered or expired session, and one whose origin the merchant no longer allows', async () => {
      const own = await app.merchants.create({ name: 'Moving Shop', country: 'NG', supportEmail: 's@move.test', allowedOrigins: ['https://move.test'] });
      const session = await sessionFor('https://move.test', own.publishableKey);
      const tampered = session.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
      expect((await frameCall(own.publishableKey, tampered)).json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('not valid or has expired') });

      await app.merchants.setAllowedOrigins(own.subsidiaryId, []);
      expect((await frameCall(own.publishableKey, session)).json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('no longer allowed') });
      await app.merchants.setAllowedOrigins(own.subsidiaryId, ['https://move.test']);
      expect((await frameCall(own.publishableKey, session)).statusCode).toBe(200);

      clock.advance(5 * 3_600_000);
      expect((await frameCall(own.publishableKey, session)).json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('not valid or has expired') });
    });
  });

  it("lets the merchant's frame show the 3-D Secure page, whose form may return to the order's address", async () => {
    const client = new CheckoutClient(app, keys);
    // A browser's return address is kept on the merchant's allowed origin (issue 36, item 11).
    const reference = await client.newOrder({ payment: { RedirectUrl: 'https://shop.acme.test/return' } });
    const pay = (await client.payByCard(reference, '4242424242424242')).json();
    const page = await app.inject({ method: 'GET', url: new URL(pay.data.paymentDetail.redirectUrl).pathname });
    const policy = csp(page);
    expect(policy['frame-ancestors']).toContain('https://shop.acme.test');
    expect(policy['frame-ancestors']).toContain("'self'");
    expect(policy['form-action']).toBe("'self' https://shop.acme.test");
    expect(policy['script-src']).toBe("'self'");
  });
});
