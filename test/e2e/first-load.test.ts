import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkoutIn, launchBrowser, logEntry, newPage } from './support/browser.ts';
import { serverCall, verifyOrder, demoUrl } from './support/server.ts';

/**
 * What a phone waits for: the widget's files travel compressed (built once as brotli and gzip, sent as the browser
 * accepts), and the framed checkout's first request waits for no more round trips than it must.
 */
const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The raw answer to GET `path` with this Accept-Encoding: status, headers and the bytes as sent. */
function rawGet(path: string, acceptEncoding: string | undefined): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${server.baseUrl}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('the checkout files a browser downloads', () => {
  it('arrive brotli-compressed in Chromium: the embed script and every script and stylesheet of the checkout', async () => {
    const { page } = await newPage(browser);
    const encodings = new Map<string, string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/embed.js' || /^\/widget\/.*\.(js|css)$/.test(url.pathname)) encodings.set(url.pathname, response.headers()['content-encoding'] ?? 'identity');
    });
    await page.goto(demoUrl(server));
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    expect(encodings.get('/embed.js')).toBe('br');
    // The frame's page: its entry module (the API client in it), its stylesheet and the frame bridge.
    for (const file of [/^\/widget\/assets\/checkout-[\w-]+\.js$/, /^\/widget\/assets\/checkout-[\w-]+\.css$/, /^\/widget\/assets\/frame-bridge-[\w-]+\.js$/]) {
      expect([...encodings.keys()].some((path) => file.test(path)), String(file)).toBe(true);
    }
    expect(Object.fromEntries([...encodings].filter(([, encoding]) => encoding !== 'br'))).toEqual({});
  });

  it('is the same file in every encoding, gzip for a client without brotli and plain for one that accepts neither', async () => {
    const plain = await rawGet('/embed.js', undefined);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('checkout-widget');

    const brotli = await rawGet('/embed.js', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

    const gzip = await rawGet('/embed.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.headers['cache-control']).toBe(plain.headers['cache-control']);
  });

  it("shows the framed checkout's first screen after the frame's own request: no session request, no order request, no keys", async () => {
    const { page } = await newPage(browser);
    // When the checkout said `checkout:ready` (in every frame), on the clock requests are timed by.
    await page.addInitScript(() => {
      document.addEventListener('checkout:ready', () => ((window as unknown as { readyAt?: number }).readyAt ??= performance.timeOrigin + performance.now()), true);
    });
    const requests: import('playwright-core').Request[] = [];
    page.on('requestfinished', (request) => requests.push(request));
    const frameAnswers: string[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/checkout/frame') void response.text().then((body) => frameAnswers.push(body));
    });
    await page.goto(demoUrl(server));
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    const reference = await logEntry(page, 'checkout:ready', 'inline-checkout').getAttribute('data-reference');
    // The checkout in the frame is ready a moment before the page hears it: what it sends from then on is not counted.
    const framed = page.frames().find((candidate) => candidate.url().includes('/checkout/frame/'))!;
    const readyAt = await framed.evaluate(() => (window as unknown as { readyAt: number }).readyAt);
    const beforeReady = requests.filter((request) => request.timing().startTime < readyAt).map((request) => `${request.method()} ${new URL(request.url()).pathname}`);

    // The page and its files, embed.js, the frame posted with the settings, the checkout's files: nothing else.
    expect(beforeReady.filter((request) => !/^GET \/(demo\/|embed\.js$|widget\/)/.test(request))).toEqual(['POST /checkout/frame']);
    // The order came in the frame's answer, drawn from it: the summary names it.
    expect(frameAnswers).toHaveLength(1);
    expect(JSON.parse(/id="checkout-config">([\s\S]*?)<\/script>/.exec(frameAnswers[0]!)![1]!)).toMatchObject({ order: { order: { reference, statusId: 1 } } });
    const frame = checkoutIn(page);
    await frame.getByRole('radio', { name: /^Card/ }).waitFor();
    // The frame's address is its session's, which a reload and the return from 3-D Secure load again.
    expect(new URL(framed.url()).pathname).toMatch(/^\/checkout\/frame\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const preloaded = await framed.evaluate(() => [...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href')));
    // The frame bridge is preloaded; the API client is in the entry module itself.
    expect(preloaded).toHaveLength(1);
    expect(preloaded[0]).toMatch(/^\/widget\/assets\/frame-bridge-[\w-]+\.js$/);
  });

  it('shows the same order after the merchant page reloads, and makes no second one', async () => {
    const { page } = await newPage(browser);
    const processorReferences: string[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/checkout/frame') {
        void response.text().then((body) => processorReferences.push(JSON.parse(/id="checkout-config">([\s\S]*?)<\/script>/.exec(body)![1]!).order.order.processorReference));
      }
    });
    await page.goto(demoUrl(server));
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    const reference = await logEntry(page, 'checkout:ready', 'inline-checkout').getAttribute('data-reference');
    await page.reload();
    await logEntry(page, 'checkout:ready', 'inline-checkout', reference!).waitFor();
    await checkoutIn(page).getByRole('radio', { name: /^Card/ }).waitFor();
    expect(processorReferences).toHaveLength(2);
    expect(processorReferences[1]).toBe(processorReferences[0]);
    const verified = await verifyOrder(server, reference!);
    expect(verified.data).toMatchObject({ orderReference: reference, statusId: 1 });
  });

  it('shows a payment-link order from its page alone: the page carries the order and the keys, and asks the API nothing first', async () => {
    const created = await serverCall<{ data: { paymentLink: { paymentLinkUrl: string } } }>(server, '/checkout/links/create', {
      Name: 'Two books',
      Description: 'Things Fall Apart and Half of a Yellow Sun.',
      PaymentType: 'SC',
      Currency: 'NGN',
      AuthOption: 'AUTH',
      Amount: 12500,
    });
    const { page, problems } = await newPage(browser);
    await page.goto(created.data.paymentLink.paymentLinkUrl);
    await page.getByLabel('First name').fill('Chidi');
    await page.getByLabel('Last name').fill('Okeke');
    await page.getByLabel('E-mail').fill('chidi@example.test');
    const beforeReady: string[] = [];
    let ready = false;
    page.on('request', (request) => {
      if (!ready) beforeReady.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('radio', { name: /^Card/ }).waitFor();
    ready = true;
    // The order was made by the link's form; the page brought it and the merchant's keys (the fee quote, which
    // follows the first screen, needs no keys request either).
    expect(beforeReady).not.toContain('POST /checkout/order/create');
    expect(beforeReady.filter((request) => request.endsWith('/checkout/keys'))).toEqual([]);
    // The page names one script, the entry module with the API client in it, and preloads nothing more.
    const named = await page.evaluate(() => [...document.querySelectorAll('script[src], link[rel="modulepreload"]')].map((element) => element.getAttribute('src') ?? element.getAttribute('href')));
    expect(named).toEqual([expect.stringMatching(/^\/widget\/assets\/checkout-[\w-]+\.js$/)]);
    // The page's own inline script runs under its policy, allowed by its hash.
    expect(problems).toEqual([]);
  });
});
