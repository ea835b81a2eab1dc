import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startShop, type Shop } from './support/shop.ts';
import { chooseMethod, launchBrowser, newPage, payByCard, screenshot, settled } from './support/browser.ts';

/**
 * The sandbox bank's 3-D Secure page inside the checkout frame of a merchant page on another origin, where Chrome
 * ignores `autofocus`: the page must still open with the one-time code field focused.
 */
const server = inject('server');
let browser: Browser;
let shop: Shop;
let shopOrigin: string;

beforeAll(async () => {
  shop = await startShop((request, response) => {
    const reference = `FOCUS-${Date.now()}`;
    const modal = request.url?.includes('mode=modal');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pottery shop</title>
<script src="${server.baseUrl}/embed.js"></script></head>
<body><h1>Pottery shop</h1>
<checkout-widget api-key="${server.publishableKey}" mode="${modal ? 'modal' : 'inline'}" reference="${reference}" amount="2500" currency="NGN" email="ada@example.test" first-name="Ada" last-name="Obi">${modal ? '<button type="button">Pay now</button>' : ''}</checkout-widget>
</body></html>`);
    request.resume();
  });
  shopOrigin = shop.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("the bank's 3-D Secure page", () => {
  it("opens with focus on the one-time code field inside a merchant's checkout frame", async () => {
    const { page, problems, console: messages } = await newPage(browser);
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
    // The page asks for no focus the browser refuses in a cross-origin frame: its script gives it.
    expect(messages.filter((message) => /autofocus/i.test(message))).toEqual([]);
  });

  /** Where keyboard focus is: the merchant page's focused element (through shadow roots) and the bank page's. */
  async function focusIn(page: import('playwright-core').Page) {
    const top = await page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.tagName.toLowerCase() ?? null;
    });
    const bank = page.frames().find((frame) => new URL(frame.url()).pathname.startsWith('/checkout/3ds/'));
    await bank!.waitForFunction(() => document.readyState === 'complete');
    const inside = await bank!.evaluate(() => ({ focused: document.hasFocus(), id: document.activeElement?.id ?? null }));
    return { top, ...inside };
  }

  for (const mode of ['inline', 'modal'] as const) {
    it(`keeps focus on the one-time code field in the ${mode} frame, on arrival and after a wrong code`, async () => {
      const { page, problems } = await newPage(browser);
      await page.goto(`${shopOrigin}/?mode=${mode}`);
      if (mode === 'modal') await page.getByRole('button', { name: 'Pay now' }).click();
      const checkout = page.frameLocator(mode === 'modal' ? 'checkout-widget dialog[open] iframe' : 'checkout-widget iframe');
      await chooseMethod(checkout, 'Card');
      await payByCard(checkout, '4242 4242 4242 4242');
      await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
      expect(await focusIn(page)).toEqual({ top: 'iframe', focused: true, id: 'code' });

      await page.keyboard.type('000000');
      await page.keyboard.press('Enter');
      await checkout.getByText(/That code is not correct/).waitFor();
      expect(await focusIn(page)).toEqual({ top: 'iframe', focused: true, id: 'code' });
      const code = (await checkout.getByTestId('otp').textContent())?.trim() ?? '';
      await page.keyboard.type(code);
      expect(await checkout.getByLabel('One-time code').inputValue()).toBe(code);
      expect(problems).toEqual([]);
    });
  }

  /** Pays into the bank's page inside the frame and sends one wrong code: the page now has an error line too. */
  async function wrongCodeAt320(mode: 'inline' | 'modal', height = 640) {
    const { page, problems } = await newPage(browser, { width: 320, height });
    await page.goto(`${shopOrigin}/?mode=${mode}`);
    if (mode === 'modal') await page.getByRole('button', { name: 'Pay now' }).click();
    const host = mode === 'modal' ? 'checkout-widget dialog[open] iframe' : 'checkout-widget iframe';
    const checkout = page.frameLocator(host);
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242 4242 4242 4242');
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await checkout.getByLabel('One-time code').fill('000000');
    await checkout.getByRole('button', { name: 'Authenticate' }).click();
    await checkout.getByText(/That code is not correct/).waitFor();
    const frame = page.locator(host);
    await settled(frame);
    const bank = page.frames().find((each) => new URL(each.url()).pathname.startsWith('/checkout/3ds/'))!;
    const content = await bank.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    return { page, problems, checkout, frame, content };
  }

  it('grows the inline frame with the page after a wrong code at 320 px, so both buttons show', async () => {
    const { page, problems, checkout, frame, content } = await wrongCodeAt320('inline');
    const frameBox = (await frame.boundingBox())!;
    expect(Math.abs(frameBox.height - content)).toBeLessThanOrEqual(1);
    for (const name of ['Authenticate', 'Fail authentication']) {
      const button = (await checkout.getByRole('button', { name }).boundingBox())!;
      expect(button.y + button.height, `${name} inside the frame`).toBeLessThanOrEqual(frameBox.y + frameBox.height);
    }
    await screenshot(page, 'authentication-wrong-code-320');
    expect(problems).toEqual([]);
  });

  it('fits the modal frame to the page after a wrong code at 320 px, on a screen tall enough to show it all', async () => {
    const { page, problems, frame, content } = await wrongCodeAt320('modal', 1000);
    const frameBox = (await frame.boundingBox())!;
    const room = await page.evaluate(() => window.innerHeight - 32);
    expect(Math.abs(frameBox.height - Math.min(content, room))).toBeLessThanOrEqual(1);
    await screenshot(page, 'authentication-wrong-code-320-modal', false);
    expect(problems).toEqual([]);
  });
});
