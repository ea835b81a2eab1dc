import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startShop, type Shop } from './support/shop.ts';
import { launchBrowser, newPage } from './support/browser.ts';

/**
 * A merchant page on another origin with a publishable key that does not exist: the embed session's 401 must reach
 * the page as `AUTH401` (not a network failure), and the customer must not be told to check their connection.
 */
const server = inject('server');
let browser: Browser;
let shop: Shop;
let shopOrigin: string;

beforeAll(async () => {
  shop = await startShop((request, response) => {
    if (request.url === '/shop.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(`
const log = (event, code) => { const li = document.createElement('li'); li.dataset.event = event; li.dataset.code = code; li.textContent = event + ' ' + code; document.getElementById('log').append(li); };
document.addEventListener('checkout:error', (event) => log(event.type + (event.target.id ? ':' + event.target.id : ''), event.code));
document.getElementById('open').addEventListener('click', () => Checkout.open({ apiKey: 'pk_test_doesnotexist', amount: 5000, currency: 'NGN', email: 'ada@example.test' }).catch((error) => log('open:rejected', error.code)));`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tea shop</title>
<script src="${server.baseUrl}/embed.js"></script><script src="/shop.js" defer></script></head>
<body><h1>Tea shop</h1>
<checkout-widget id="inline" api-key="pk_test_doesnotexist" mode="inline" reference="TEA-${Date.now()}" amount="2500" currency="NGN" email="ada@example.test"></checkout-widget>
<button type="button" id="open">Pay with Checkout.open</button><ol id="log"></ol>
</body></html>`);
  });
  shopOrigin = shop.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe('a wrong publishable key on a merchant page', () => {
  it('reports AUTH401 to the page from the element and from Checkout.open, and tells the customer the checkout is unavailable', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${shopOrigin}/`);
    const inline = page.locator('#log li[data-event="checkout:error:inline"]');
    await inline.waitFor();
    expect(await inline.getAttribute('data-code')).toBe('AUTH401');
    const message = page.locator('#inline').getByRole('alert');
    await expect.poll(() => message.textContent()).toBe('This checkout is not available on this site.');

    await page.getByRole('button', { name: 'Pay with Checkout.open' }).click();
    const rejected = page.locator('#log li[data-event="open:rejected"]');
    await rejected.waitFor();
    expect(await rejected.getAttribute('data-code')).toBe('AUTH401');
  });
});
