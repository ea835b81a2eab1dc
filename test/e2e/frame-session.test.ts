import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from './support/browser.ts';
import { freePort, merchantCli, newDataDir, startServer, type IssuedMerchantKeys, type RunningServer } from './support/server.ts';

/**
 * A page at one merchant's allowed origin tries to show a checkout it has no right to: it opens the frame session
 * with its own test key, as embed.js does, then posts another key in the settings (another merchant's, or its own
 * live key). The checkout in the frame must refuse, show its error state and report `checkout:error`.
 */
let browser: Browser;
let server: RunningServer;
let shop: IssuedMerchantKeys;
let otherShop: IssuedMerchantKeys;
let shopLive: IssuedMerchantKeys;

beforeAll(async () => {
  const dataDir = newDataDir();
  shop = await merchantCli(dataDir, ['create', '--name', 'Corner Shop', '--country', 'NG', '--email', 'help@corner.test']);
  otherShop = await merchantCli(dataDir, ['create', '--name', 'Other Shop', '--country', 'NG', '--email', 'help@other.test']);
  shopLive = await merchantCli(dataDir, ['rotate-keys', '--id', String(shop.subsidiaryId), '--mode', 'live']);
  server = await startServer({}, { dataDir });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The page speaks the frame protocol itself: session with `sessionKey`, then settings with `postedKey`. Every
 * `event` message the frame sends is logged as `#event-log li[data-event][data-code]`.
 */
async function servePostingPage(sessionKey: string, postedKey: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const port = await freePort();
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Corner shop</title><script src="/shop.js" defer></script></head>
<body><h1>Corner shop</h1><div id="slot"></div><ol id="event-log"></ol></body></html>`;
  const script = `(async () => {
  const answer = await fetch(${JSON.stringify(`${server.baseUrl}/checkout/embed/sessions`)}, { method: 'POST', headers: { 'api-key': ${JSON.stringify(sessionKey)} } }).then((r) => r.json());
  const frameUrl = new URL(answer.data.frameUrl);
  const frame = document.createElement('iframe');
  frame.title = 'Checkout';
  frame.style.width = '100%';
  frame.style.height = '600px';
  frame.src = frameUrl.href;
  window.addEventListener('message', (event) => {
    if (event.origin !== frameUrl.origin || event.source !== frame.contentWindow || event.data?.protocol !== 'ck-checkout/1') return;
    if (event.data.kind === 'ready') {
      const settings = { 'api-key': ${JSON.stringify(postedKey)}, reference: 'CORNER-' + Date.now(), amount: 2500, currency: 'NGN', 'customer-email': 'ada@example.test', 'customer-first-name': 'Ada', 'customer-last-name': 'Obi' };
      frame.contentWindow.postMessage({ protocol: 'ck-checkout/1', kind: 'settings', settings, modal: false }, frameUrl.origin);
    }
    if (event.data.kind === 'event') {
      const entry = document.createElement('li');
      entry.dataset.event = event.data.event.type;
      if (event.data.event.code) entry.dataset.code = event.data.event.code;
      entry.textContent = event.data.event.type + ' ' + (event.data.event.code || '') + ' ' + (event.data.event.message || '');
      document.getElementById('event-log').append(entry);
    }
  });
  document.getElementById('slot').append(frame);
})();`;
  const http: Server = createServer((request, response) => {
    const isScript = request.url === '/shop.js';
    response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html; charset=utf-8' }).end(isScript ? script : page);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

async function expectRefusal(sessionKey: string, postedKey: string, name: string): Promise<void> {
  const shopPage = await servePostingPage(sessionKey, postedKey);
  const { page } = await newPage(browser);
  try {
    await page.goto(`${shopPage.origin}/`);
    const error = page.locator('#event-log li[data-event="checkout:error"]');
    await error.waitFor();
    expect(await error.getAttribute('data-code')).toBe('AUTH403');
    const checkout = page.frameLocator('iframe[title="Checkout"]');
    await checkout.getByRole('heading', { name: 'Checkout unavailable' }).waitFor();
    expect(await checkout.getByRole('radio', { name: /^Card/ }).count()).toBe(0);
    expect(await page.locator('#event-log li[data-event="checkout:ready"]').count()).toBe(0);
    await screenshot(page, name);
  } finally {
    await shopPage.close();
  }
}

describe('the key the page posts to the frame', () => {
  it('shows the checkout for the key the session was opened with (the page itself is not at fault)', async () => {
    const shopPage = await servePostingPage(shop.publishableKey, shop.publishableKey);
    const { page, problems } = await newPage(browser);
    try {
      await page.goto(`${shopPage.origin}/`);
      await page.locator('#event-log li[data-event="checkout:ready"]').waitFor();
      await page.frameLocator('iframe[title="Checkout"]').getByRole('radio', { name: /^Card/ }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await shopPage.close();
    }
  });

  it("refuses another merchant's key posted by a page at this merchant's allowed origin", async () => {
    await expectRefusal(shop.publishableKey, otherShop.publishableKey, 'frame-session-other-merchant-key');
  });

  it('refuses a live key posted to a checkout whose session was opened with a test key', async () => {
    await expectRefusal(shop.publishableKey, shopLive.publishableKey, 'frame-session-live-key-in-test-session');
  });
});
