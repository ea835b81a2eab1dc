import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authenticate, checkoutIn, chooseMethod, launchBrowser, logEntry, newPage, openDemo, payByCard, screenshot, settled, transferAccount } from './support/browser.ts';
import { serveMerchantPage } from './support/merchant-page.ts';
import { demoUrl, serverCreateOrder, verifyOrder } from './support/server.ts';
import { startShop } from './support/shop.ts';

/**
 * The checkout framed by a shop of another site (the shop on 127.0.0.1, the checkout on localhost), where the
 * browser refuses the frame any storage (`SecurityError: Access is denied for this document`) and grants it only the
 * features the shop's page delegates to the checkout's origin by name.
 */
const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the frame's document may use: its storage, and whether the page delegated clipboard-write to it. */
async function frameCapabilities(page: Page, host = '#inline-checkout') {
  const frame = await (await page.locator(`${host} iframe`).elementHandle())!.contentFrame();
  return frame!.evaluate(() => {
    let storage = 'available';
    try {
      void window.sessionStorage;
    } catch (error) {
      storage = (error as Error).name;
    }
    const policy = (document as Document & { featurePolicy?: { allowsFeature(name: string): boolean } }).featurePolicy;
    return { origin: window.location.origin, storage, clipboardWrite: policy?.allowsFeature('clipboard-write') };
  });
}

describe('the checkout embedded by a shop on another site', () => {
  it('offers the bank’s page again after a reload during 3-D Secure, and the payment completes', async () => {
    const { page, problems } = await newPage(browser);
    await openDemo(page, demoUrl(server));
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    // The frame is the checkout's own origin (no sandbox), and the browser refuses it storage: a third-party frame.
    expect(await frameCapabilities(page)).toMatchObject({ origin: new URL(server.baseUrl).origin, storage: 'SecurityError' });
    const reference = (await page.locator('#inline-reference').textContent()) ?? '';
    const checkout = checkoutIn(page);
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242 4242 4242 4242');
    await checkout.getByTestId('otp').waitFor();

    await page.reload();
    const resumed = checkoutIn(page);
    await resumed.getByText('Your bank’s page was open when this page reloaded.').waitFor({ timeout: 20_000 });
    await settled(page.locator('#inline-checkout iframe'));
    await screenshot(page, 'cross-site-3ds-reloaded');
    await resumed.getByRole('button', { name: 'Continue with your bank' }).click();
    await authenticate(resumed, 'approve');
    await resumed.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await logEntry(page, 'checkout:success', 'inline-checkout', reference).waitFor();
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5 });
    expect(problems).toEqual([]);
  });

  it('shows the same account number after a reload during a bank transfer', async () => {
    const { page, problems } = await newPage(browser);
    await openDemo(page, demoUrl(server));
    const checkout = checkoutIn(page);
    await chooseMethod(checkout, 'Bank transfer');
    await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
    const account = await transferAccount(checkout);

    await page.reload();
    const resumed = checkoutIn(page);
    await resumed.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor({ timeout: 20_000 });
    expect(await transferAccount(resumed)).toBe(account);
    await settled(page.locator('#inline-checkout iframe'));
    await screenshot(page, 'cross-site-transfer-reloaded');
    expect(problems).toEqual([]);
  });

  it('resumes the transfer when the modal checkout is closed and opened again', async () => {
    const embed = Buffer.from(await (await fetch(`${server.baseUrl}/embed.js`)).arrayBuffer());
    const integrity = `sha384-${createHash('sha384').update(embed).digest('base64')}`;
    const reference = `MODAL-AGAIN-${Date.now()}`;
    const shop = await startShop((request, response) => {
      if (request.url === '/shop.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(`document.addEventListener('checkout:ready', (event) => {
  const entry = document.createElement('li');
  entry.dataset.event = 'checkout:ready';
  entry.dataset.source = event.target.id;
  document.getElementById('event-log').append(entry);
});`);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Modal shop</title>
<script src="/shop.js"></script><script src="${server.baseUrl}/embed.js" integrity="${integrity}" crossorigin="anonymous"></script></head>
<body><h1>Modal shop</h1>
<checkout-widget id="modal-checkout" mode="modal" api-key="${server.publishableKey}" reference="${reference}" amount="4000" currency="NGN" email="ada@example.test" first-name="Ada" last-name="Obi"><button type="button">Pay now</button></checkout-widget>
<ol id="event-log"></ol></body></html>`);
    });
    try {
      const { page, problems } = await newPage(browser);
      await page.goto(shop.origin);
      await page.getByRole('button', { name: 'Pay now' }).click();
      const checkout = page.frameLocator('#modal-checkout dialog[open] iframe');
      await chooseMethod(checkout, 'Bank transfer');
      await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
      const account = await transferAccount(checkout);
      await page.keyboard.press('Escape');
      await page.locator('#modal-checkout dialog[open]').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Pay now' }).click();
      const again = page.frameLocator('#modal-checkout dialog[open] iframe');
      await again.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor({ timeout: 20_000 });
      expect(await transferAccount(again)).toBe(account);
      await screenshot(page, 'cross-site-modal-reopened', false);
      expect(problems).toEqual([]);
    } finally {
      await shop.close();
    }
  });

  it('copies the account number and the amount to the clipboard from the frame', async () => {
    const { page, problems } = await newPage(browser);
    const shopOrigin = new URL(demoUrl(server)).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shopOrigin });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.baseUrl).origin });
    await openDemo(page, demoUrl(server));
    expect(await frameCapabilities(page)).toMatchObject({ clipboardWrite: true });
    const checkout = checkoutIn(page);
    await chooseMethod(checkout, 'Bank transfer');
    await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
    const account = await transferAccount(checkout);

    await checkout.getByRole('button', { name: 'Copy Account number' }).click();
    await checkout.getByRole('button', { name: 'Account number copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(account);
    await checkout.getByRole('button', { name: 'Copy Amount' }).click();
    await checkout.getByRole('button', { name: 'Amount copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('12500');
    expect(await checkout.getByText('Copying failed').count()).toBe(0);
    await screenshot(page, 'cross-site-copied');
    expect(problems).toEqual([]);
  });

  it("opens an order the merchant's server created with only its reference and client token, showing the server's customer", async () => {
    const reference = `SRV-ONLY-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const created = await serverCreateOrder(server, {
      customer: { firstname: 'Chidi', lastname: 'Okeke', email: 'chidi@example.test' },
      order: { amount: 7000, reference, currency: 'NGN', description: 'A lamp' },
    });
    expect(created.statusCode).toBe('01');
    const shop = await serveMerchantPage(server, '127.0.0.1', {
      reference,
      'client-token': created.data.clientToken!.token,
      amount: '',
      currency: '',
      email: '',
      'first-name': '',
      'last-name': '',
    });
    try {
      const { page, problems } = await newPage(browser);
      await page.goto(shop.origin);
      const checkout = checkoutIn(page, '#shop-checkout');
      await checkout.getByTestId('customer').waitFor({ timeout: 20_000 });
      expect(await checkout.getByTestId('customer').textContent()).toBe('Billed to Chidi Okeke, chidi@example.test');
      await checkout.getByText('₦7,000.00').first().waitFor();
      expect(await checkout.getByLabel('E-mail address').count()).toBe(0);
      await logEntry(page, 'checkout:ready', 'shop-checkout').waitFor();
      await settled(page.locator('#shop-checkout iframe'));
      await screenshot(page, 'cross-site-server-order');
      await chooseMethod(checkout, 'Card');
      await payByCard(checkout, '5555 5555 5555 4444');
      await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
      expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, orderOrigin: 'server' });
      expect(problems).toEqual([]);
    } finally {
      await shop.close();
    }
  });
});
