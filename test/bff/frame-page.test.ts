import { beforeAll, describe, expect, it } from 'vitest';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { configOf, fakeWidgetDir } from '../support/widget-page.ts';

/**
 * The form embed.js posts into its iframe (`POST /checkout/frame`): the frame's own request checks the key and the
 * page's origin, and answers with the checkout and the order it shows, so nothing else comes before the first screen.
 */
const widgetDir = fakeWidgetDir();
const SHOP = 'https://shop.acme.test';

const frameAncestors = (response: { headers: Record<string, unknown> }) =>
  /frame-ancestors ([^;]+)/.exec(String(response.headers['content-security-policy']))?.[1];

const settingsFor = (reference: string, overrides: Record<string, unknown> = {}) => ({
  reference,
  amount: 12500,
  currency: 'NGN',
  description: 'Two books',
  items: [
    { name: 'Things Fall Apart', amount: 8000 },
    { name: 'Half of a Yellow Sun', amount: 4500 },
  ],
  'customer-email': 'ada@example.test',
  'customer-first-name': 'Ada',
  'customer-last-name': 'Obi',
  'customer-country': 'NG',
  ...overrides,
});

let counter = 0;
const newReference = () => `FRAME-${Date.now().toString(36)}-${(counter += 1)}`;

describe.each(drivers)('the checkout posted into its frame (%s)', (driver) => {
  const clock = new ManualClock();
  const test = useTestApp(driver, { overrides: { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir }, clock });
  let keys: IssuedKeys;

  beforeAll(async () => {
    keys = await test.app.merchants.create({ name: 'Acme Stores', country: 'NG', supportEmail: 's@acme.test', allowedOrigins: [`${SHOP}/`] });
  });

  const postFrame = (fields: Record<string, string>, origin: string | undefined = SHOP) =>
    test.app.inject({
      method: 'POST',
      url: '/checkout/frame',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
      payload: new URLSearchParams(fields).toString(),
    });
  const frameForm = (settings: Record<string, unknown>, apiKey = keys.publishableKey, parentOrigin = SHOP) => ({
    'api-key': apiKey,
    'parent-origin': parentOrigin,
    settings: JSON.stringify(settings),
    modal: 'false',
  });

  it('answers with the checkout showing the order it made, framable by the posting origin only', async () => {
    const reference = newReference();
    const response = await postFrame(frameForm(settingsFor(reference)));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(frameAncestors(response)).toBe(SHOP);

    const { order, 'encryption-keys': carried, 'frame-session': session, ...attributes } = configOf(response.body) as Record<string, unknown>;
    expect(attributes).toMatchObject({ 'api-key': keys.publishableKey, reference, amount: 12500, 'parent-origin': SHOP, embedded: true, closable: false });
    expect(order).toMatchObject({
      order: { reference, amount: 12500, currency: 'NGN', statusId: 1 },
      subsidiary: { name: 'Acme Stores' },
      subsidiaryOrderSummary: { orderItems: [{ name: 'Things Fall Apart', amount: 8000 }, { name: 'Half of a Yellow Sun', amount: 4500 }] },
      otherPaymentOptions: expect.arrayContaining([expect.objectContaining({ code: 'C' })]),
    });
    const published = (await test.app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': keys.publishableKey } })).json().data.keys;
    expect(JSON.parse(String(carried))).toEqual(published);

    // The order is the API's: its status answers, and the frame's session opens the frame again by its address (a
    // reload, the return from 3-D Secure), for the same origin only.
    const status = await new CheckoutClient(test.app, keys).status(reference);
    expect(status.json().data).toMatchObject({ payment_status: 1 });
    const again = await test.app.inject({ method: 'GET', url: `/checkout/frame/${String(session)}` });
    expect(again.statusCode).toBe(200);
    expect(frameAncestors(again)).toBe(SHOP);
  });

  it('finds the order it made when the page posts again (a reload), and the checkout’s own create finds it too', async () => {
    const reference = newReference();
    const first = configOf((await postFrame(frameForm(settingsFor(reference)))).body)['order'] as { order: { processorReference: string } };
    const second = configOf((await postFrame(frameForm(settingsFor(reference)))).body)['order'] as { order: { processorReference: string } };
    expect(second.order.processorReference).toBe(first.order.processorReference);
    const created = await new CheckoutClient(test.app, keys).createOrder({
      customer: { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', country: 'NG' },
      order: { amount: 12500, reference, currency: 'NGN', description: 'Two books', items: settingsFor(reference).items },
    });
    expect(created.json().data.order.processorReference).toBe(first.order.processorReference);
  });

  it('leaves the order to the checkout when the settings do not name a whole one, or name a client token', async () => {
    for (const settings of [
      settingsFor(newReference(), { 'customer-email': '' }),
      settingsFor(newReference(), { amount: undefined }),
      settingsFor(newReference(), { 'client-token': 'ct_from_the_merchant_server' }),
      settingsFor(newReference(), { amount: -5 }),
    ]) {
      const response = await postFrame(frameForm(settings));
      expect(response.statusCode).toBe(200);
      expect(configOf(response.body)['order']).toBeUndefined();
      expect((await new CheckoutClient(test.app, keys).status(String(settings.reference))).statusCode).toBe(404);
    }
    const unreadable = await postFrame({ ...frameForm({}), settings: '{not json' });
    expect(unreadable.statusCode).toBe(200);
    expect(configOf(unreadable.body)).toMatchObject({ 'api-key': keys.publishableKey, embedded: true });
  });

  it('refuses an origin the merchant did not allow, or one the browser contradicts, and tells the page why', async () => {
    const reference = newReference();
    const elsewhere = await postFrame(frameForm(settingsFor(reference), keys.publishableKey, 'https://evil.test'), 'https://evil.test');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.body).toContain('data-refused-code="AUTH403"');
    expect(elsewhere.body).toContain('is not allowed to embed');
    expect(elsewhere.body).not.toContain('ck-checkout');

    // A page elsewhere naming the merchant's origin: the browser's Origin header says where the form came from.
    const claimed = await postFrame(frameForm(settingsFor(reference)), 'https://evil.test');
    expect(claimed.statusCode).toBe(403);
    expect(frameAncestors(claimed)).toBe("'none'");
    expect(claimed.body).not.toContain('ck-checkout');

    // Under a no-referrer policy the browser sends `Origin: null`: the posted origin stands, and frame-ancestors holds it.
    const unnamed = await postFrame(frameForm(settingsFor(newReference())), 'null');
    expect(unnamed.statusCode).toBe(200);
    expect(frameAncestors(unnamed)).toBe(SHOP);

    expect((await new CheckoutClient(test.app, keys).status(reference)).statusCode).toBe(404);
  });

  it('opens only in a frame: a browser posting it as a whole page gets a refusal, and no order', async () => {
    const reference = newReference();
    const page = await test.app.inject({
      method: 'POST',
      url: '/checkout/frame',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-dest': 'document' },
      payload: new URLSearchParams(frameForm(settingsFor(reference))).toString(),
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('data-refused-code="VAL400"');
    expect(page.body).not.toContain('ck-checkout');
    expect((await new CheckoutClient(test.app, keys).status(reference)).statusCode).toBe(404);
    const framed = await test.app.inject({
      method: 'POST',
      url: '/checkout/frame',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SHOP, 'sec-fetch-dest': 'iframe' },
      payload: new URLSearchParams(frameForm(settingsFor(reference))).toString(),
    });
    expect(framed.statusCode).toBe(200);
  });

  it('refuses a secret key, a wrong key and a missing one, and makes no order', async () => {
    const reference = newReference();
    const secret = await postFrame(frameForm(settingsFor(reference), keys.secretKey));
    expect(secret.statusCode).toBe(403);
    expect(secret.body).toContain('data-refused-code="AUTH403"');
    expect(secret.body).toContain('secret key was sent from a web page');
    expect(secret.body).not.toContain(keys.secretKey);
    expect(frameAncestors(secret)).toBe(SHOP);

    for (const apiKey of ['pk_test_wrong', '']) {
      const wrong = await postFrame(frameForm(settingsFor(reference), apiKey));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('data-refused-code="AUTH401"');
    }
    expect((await new CheckoutClient(test.app, keys).status(reference)).statusCode).toBe(404);
  });

  it('refuses an IPv6 page origin, which no frame-ancestors can name, with the address to use instead', async () => {
    const local = await test.app.merchants.create({ name: 'Local Dev', country: 'NG', supportEmail: 's@dev.test' });
    const response = await postFrame(frameForm(settingsFor(newReference()), local.publishableKey, 'http://[::1]:5173'), 'http://[::1]:5173');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('http://localhost:5173');
    expect(frameAncestors(response)).toBe("'none'");
  });
});

describe.each(drivers)('the checkout posted into its frame, under the publishable key and address limit (%s)', (driver) => {
  const test = useTestApp(driver, {
    overrides: { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir, RATE_LIMIT_PER_PUBLISHABLE_KEY_IP: '3', RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_WINDOW_SECONDS: '60' },
  });

  it('counts the key the form carries as an API request counts its header, and tells the page to wait once over', async () => {
    const keys = await test.app.merchants.create({ name: 'Busy Stores', country: 'NG', supportEmail: 's@busy.test', allowedOrigins: [`${SHOP}/`] });
    const other = await test.app.merchants.create({ name: 'Quiet Stores', country: 'NG', supportEmail: 's@quiet.test', allowedOrigins: [`${SHOP}/`] });
    const post = (apiKey: string) =>
      test.app.inject({
        method: 'POST',
        url: '/checkout/frame',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SHOP },
        payload: new URLSearchParams({ 'api-key': apiKey, 'parent-origin': SHOP, settings: JSON.stringify(settingsFor(newReference())), modal: 'false' }).toString(),
      });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await post(keys.publishableKey)).statusCode).toBe(200);
    const over = await post(keys.publishableKey);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toContain('data-refused-code="RATE429"');
    expect(over.body).not.toContain('ck-checkout');
    // The same count as the key's API requests: the header is over the limit too.
    const api = await test.app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': keys.publishableKey } });
    expect(api.statusCode).toBe(429);
    expect(api.json()).toMatchObject({ statusCode: 'RATE429' });
    // Another merchant's key is counted apart.
    expect((await post(other.publishableKey)).statusCode).toBe(200);
  });
});
