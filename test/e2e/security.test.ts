import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkoutIn, chooseMethod, launchBrowser, logEntry, modalCheckout, newPage, screenshot, settled } from './support/browser.ts';
import { freePort } from './support/server.ts';

const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A merchant's own page on an origin the test chooses: embed.js from the checkout's origin with its integrity
 * hash, as the README shows, an inline `<checkout-widget>` and a log of the events it dispatches. The page's
 * script is a file, like any merchant's, and listens before embed.js loads: the widget starts as soon as it is
 * parsed, with its key in the markup.
 */
async function serveMerchantPage(host: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const port = await freePort(host);
  // The tag the README gives merchants: Subresource Integrity pins the script, which is fetched with CORS.
  const embed = Buffer.from(await (await fetch(`${server.baseUrl}/embed.js`)).arrayBuffer());
  const integrity = `sha384-${createHash('sha384').update(embed).digest('base64')}`;
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another shop</title>
<script src="/shop.js"></script><script src="${server.baseUrl}/embed.js" integrity="${integrity}" crossorigin="anonymous"></script></head>
<body><h1>Another shop</h1>
<checkout-widget id="shop-checkout" api-key="${server.publishableKey}" reference="SHOP-${port}-${Date.now()}" amount="3000" currency="NGN" email="ada@example.test" first-name="Ada" last-name="Obi"></checkout-widget>
<ol id="event-log"></ol></body></html>`;
  const script = `for (const type of ['checkout:ready', 'checkout:error']) {
  document.addEventListener(type, (event) => {
    const entry = document.createElement('li');
    entry.dataset.event = type;
    entry.dataset.source = event.target.id;
    if (event.code) entry.dataset.code = event.code;
    entry.textContent = type + ' ' + (event.code || '') + ' ' + (event.message || '');
    document.getElementById('event-log').append(entry);
  });
}`;
  const http: Server = createServer((request, response) => {
    const isScript = request.url === '/shop.js';
    response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html; charset=utf-8' }).end(isScript ? script : page);
  });
  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  return { origin: `http://${host}:${port}`, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

describe('security in the browser', () => {
  it('runs the demo page, the checkout frame, its lazy views and the modal under the strict CSP without a single violation', async () => {
    const { page, problems, console: messages } = await newPage(browser);
    const response = await page.goto(`${server.baseUrl}/demo/`);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);

    const checkout = checkoutIn(page);
    await chooseMethod(checkout, 'Card');
    await checkout.locator('#number').waitFor();
    await checkout.getByRole('button', { name: 'Change payment method' }).click();
    await chooseMethod(checkout, 'Bank transfer');
    await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();

    await settled(page.locator('#inline-checkout iframe'));
    await page.getByRole('button', { name: /Checkout\.open/ }).click();
    await modalCheckout(page).getByRole('radio', { name: /^Card/ }).waitFor();
    await screenshot(page, 'strict-csp-demo', false);
    await page.keyboard.press('Escape');
    await logEntry(page, 'open:resolved', 'modal').waitFor();

    expect(problems).toEqual([]);
    expect(messages.filter((message) => /Refused to|Content Security Policy|violat/i.test(message))).toEqual([]);

    // The watch is real: an inline style set on the page is reported.
    await page.evaluate(() => document.body.setAttribute('style', 'outline: 0'));
    await expect.poll(() => problems.join('\n')).toContain('style-src');
  });

  it('shows the API docs (Swagger UI) under its policy without a single CSP violation, and without unsafe-inline', async () => {
    const { page, problems, console: messages } = await newPage(browser);
    const response = await page.goto(`${server.baseUrl}/docs`);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    await page.getByText('Open an embedding session for the page calling it').first().waitFor();
    await screenshot(page, 'api-docs');
    expect(problems).toEqual([]);
    expect(messages.filter((message) => /Refused to|Content Security Policy|violat/i.test(message))).toEqual([]);
  });

  it('refuses to work on a page whose origin the merchant did not allow, and a frame made for another origin cannot be framed there', async () => {
    // 127.0.0.2 is this machine too, but not a name test keys allow (localhost, 127.0.0.1 and [::1] are).
    const [refused, allowed] = await Promise.all([serveMerchantPage('127.0.0.2'), serveMerchantPage('127.0.0.1')]);
    const { page, problems } = await newPage(browser);
    try {
      // The same page from an allowed origin (another port: a cross-origin embed) works, so the page is not at fault.
      await page.goto(`${allowed.origin}/`);
      await logEntry(page, 'checkout:ready', 'shop-checkout').waitFor();
      await checkoutIn(page, '#shop-checkout').getByRole('radio', { name: /^Card/ }).waitFor();

      await page.goto(`${refused.origin}/`);
      const error = logEntry(page, 'checkout:error', 'shop-checkout');
      await error.waitFor();
      expect(await error.getAttribute('data-code')).toBe('AUTH403');
      expect(await error.textContent()).toContain(`The origin ${refused.origin} is not allowed to embed`);
      expect(await page.locator('#shop-checkout iframe').count()).toBe(0);
      expect(await page.locator('#shop-checkout').getByRole('alert').textContent()).toBe('This checkout is not available on this site.');
      expect(await logEntry(page, 'checkout:ready').count()).toBe(0);
      await screenshot(page, 'refused-origin');

      // A frame URL minted for the allowed origin, framed by the refused page: the browser blocks it (frame-ancestors).
      const session = await fetch(`${server.baseUrl}/checkout/embed/sessions`, {
        method: 'POST',
        headers: { 'api-key': server.publishableKey, origin: allowed.origin },
      }).then((answer) => answer.json() as Promise<{ data: { frameUrl: string } }>);
      const refusal = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
      await page.evaluate((src) => {
        const frame = document.createElement('iframe');
        frame.id = 'stolen';
        frame.src = src;
        document.body.append(frame);
      }, session.data.frameUrl);
      expect((await refusal).text()).toContain(`frame-ancestors ${allowed.origin}`);
      const stolen = await page.locator('#stolen').elementHandle().then((handle) => handle?.contentFrame());
      expect(stolen?.url()).not.toBe(session.data.frameUrl);
      expect(await stolen?.locator('ck-checkout').count()).toBe(0);
      expect(problems.filter((problem) => !problem.includes('frame-ancestors'))).toEqual([]);
    } finally {
      await Promise.all([refused.close(), allowed.close()]);
    }
  });
});
