import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseMethod, launchBrowser, newPage, payByCard } from './support/browser.ts';

/**
 * The sandbox bank's 3-D Secure page inside the checkout frame of a merchant page on another origin, where Chrome
 * ignores `autofocus`: the page must still open with the one-time code field focused.
 */
const server = inject('server');
let browser: Browser;
let shop: Server;
let shopOrigin: string;

beforeAll(async () => {
  shop = createServer((request, response) => {
    const reference = `FOCUS-${Date.now()}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pottery shop</title>
<script src="${server.baseUrl}/embed.js"></script></head>
<body><h1>Pottery shop</h1>
<checkout-widget api-key="${server.publishableKey}" mode="inline" reference="${reference}" amount="2500" currency="NGN" email="ada@example.test" first-name="Ada" last-name="Obi"></checkout-widget>
</body></html>`);
    request.resume();
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
});

describe("the bank's 3-D Secure page", () => {
  it("opens with focus on the one-time code field inside a merchant's checkout frame", async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(`${shopOrigin}/`);
    const checkout = page.frameLocator('checkout-widget iframe');
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242 4242 4242 4242');
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();

    const bank = page.frames().find((frame) => new URL(frame.url()).pathname.startsWith('/checkout/3ds/'));
    expect(bank).toBeDefined();
    await bank!.waitForFunction(() => document.readyState === 'complete');
    expect(await bank!.evaluate(() => document.activeElement?.id ?? null)).toBe('code');

    // Typing goes straight into the field.
    const code = (await checkout.getByTestId('otp').textContent())?.trim() ?? '';
    await page.keyboard.type(code);
    expect(await checkout.getByLabel('One-time code').inputValue()).toBe(code);
    expect(problems).toEqual([]);
  });
});
