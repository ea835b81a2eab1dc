import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, logEntry, newPage } from './support/browser.ts';

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
    await page.goto(`${server.baseUrl}/demo/`);
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    expect(encodings.get('/embed.js')).toBe('br');
    expect([...encodings.keys()].filter((path) => path.startsWith('/widget/assets/')).length).toBeGreaterThanOrEqual(4);
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

  it('lets the framed checkout create its order without asking for the keys: the frame page carries them and preloads the API client', async () => {
    const { page } = await newPage(browser);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    await page.goto(`${server.baseUrl}/demo/`);
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    expect(requests).toContain('POST /checkout/order/create');
    expect(requests.filter((request) => request.endsWith('/checkout/keys'))).toEqual([]);
    const frame = page.frames().find((candidate) => candidate.url().includes('/checkout/frame/'))!;
    const preloaded = await frame.evaluate(() => [...document.querySelectorAll('link[rel="modulepreload"][fetchpriority="low"]')].map((link) => link.getAttribute('href')));
    expect(preloaded.some((href) => /\/client-[\w-]+\.js$/.test(href ?? ''))).toBe(true);
    expect(preloaded.some((href) => /\/wire-[\w-]+\.js$/.test(href ?? ''))).toBe(true);
  });
});
