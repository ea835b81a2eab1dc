import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { useTestApp } from '../support/app.ts';
import { configOf, fakeWidgetDir } from '../support/widget-page.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

describe('what goes on the wire', () => {
  let app: FastifyInstance;
  let keys: IssuedKeys;
  const widgetDir = fakeWidgetDir();
  const script = `export const words = ${JSON.stringify('checkout '.repeat(400))};\n`;

  beforeAll(async () => {
    // A build's hashed file with its precompressed variants, and a file whose name stays the same.
    mkdirSync(path.join(widgetDir, 'assets'));
    writeFileSync(path.join(widgetDir, 'assets', 'entry-Ab12Cd34.js'), script);
    writeFileSync(path.join(widgetDir, 'assets', 'entry-Ab12Cd34.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(widgetDir, 'assets', 'entry-Ab12Cd34.js.gz'), gzipSync(script));
    writeFileSync(path.join(widgetDir, 'custom-elements.json'), JSON.stringify({ schemaVersion: '1.0.0', modules: [] }));
    writeFileSync(path.join(widgetDir, 'embed.js'), 'customElements.define("checkout-widget", class extends HTMLElement {});\n');
  });
  // Started after the files above are in place (hooks run in the order they are registered).
  const test = useTestApp('pglite', { overrides: { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir } });
  beforeAll(async () => {
    app = test.app;
    keys = await app.merchants.create({ name: 'Acme Stores', country: 'NG', supportEmail: 's@acme.test', allowedOrigins: [] });
  });

  /** A payment-link order's checkout page: the page a customer's phone opens. */
  async function checkoutPageAddress(): Promise<string> {
    const link = (
      await app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': keys.secretKey }, payload: { Name: 'Books', Description: 'Two novels', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 12500 } })
    ).json().data.paymentLink;
    const posted = await app.inject({
      method: 'POST',
      url: `/l/${link.reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '' }).toString(),
    });
    return String(posted.headers.location);
  }

  it('compresses a checkout page in the encoding the browser asks for, and sends it as it is to one that asks for none', async () => {
    const address = await checkoutPageAddress();
    const plain = await app.inject({ method: 'GET', url: address });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const order = configOf(plain.body)['reference'];
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const page = await app.inject({ method: 'GET', url: address, headers: { 'accept-encoding': accept } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-encoding']).toBe(encoding);
      expect(page.headers.vary).toContain('accept-encoding');
      expect(page.rawPayload.length).toBeLessThan(plain.rawPayload.length * 0.8);
      expect(configOf(decode(page.rawPayload).toString('utf8'))['reference']).toBe(order);
    }
  });

  it("serves the hosted pages' stylesheet and script compressed in the encoding the browser asks for, and as they are otherwise", async () => {
    for (const url of ['/assets/pages.css', '/assets/pages.js']) {
      const plain = await app.inject({ method: 'GET', url });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toContain('accept-encoding');
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip, deflate', 'gzip', gunzipSync],
        ['br;q=0, gzip', 'gzip', gunzipSync],
      ] as const) {
        const answer = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(decode(answer.rawPayload).toString('utf8')).toBe(plain.body);
      }
      expect((await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } })).headers['content-encoding']).toBeUndefined();
    }
  });

  it('sends short API answers as they are, and never decompresses a request body', async () => {
    const status = await app.inject({ method: 'POST', url: '/checkout/order/status', headers: { 'api-key': keys.publishableKey, 'accept-encoding': 'br, gzip' }, payload: { data: 'x' } });
    expect(status.headers['content-encoding']).toBeUndefined();
    expect(status.json()).toMatchObject({ status: 'failed' });
    // A gzip body is bytes that are not JSON: the envelope says so, as for any other unreadable body.
    const zipped = await app.inject({
      method: 'POST',
      url: '/checkout/order/status',
      headers: { 'api-key': keys.publishableKey, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ data: 'x' })),
    });
    expect(zipped.statusCode).toBeGreaterThanOrEqual(400);
    expect(zipped.statusCode).toBeLessThan(500);
    expect(zipped.json()).toMatchObject({ status: 'failed' });
  });

  it("sends the build's hashed files precompressed, cached as immutable, without a page's policy or revalidation headers", async () => {
    const file = await app.inject({ method: 'GET', url: '/widget/assets/entry-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(file.rawPayload).toString('utf8')).toBe(script);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    for (const header of ['content-security-policy', 'etag', 'last-modified', 'accept-ranges']) expect(file.headers[header], header).toBeUndefined();
    // A file whose name does not change with its content is revalidated, and keeps the headers that allow it.
    const named = await app.inject({ method: 'GET', url: '/widget/custom-elements.json' });
    expect(named.statusCode).toBe(200);
    expect(named.headers['cache-control']).toBe('public, max-age=300');
    expect(named.headers.etag).toBeDefined();
    const embed = await app.inject({ method: 'GET', url: '/embed.js' });
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['cache-control']).toBe('public, max-age=300');
    expect(embed.headers.etag).toBeDefined();
    expect(embed.headers['last-modified']).toBeDefined();
  });
});
