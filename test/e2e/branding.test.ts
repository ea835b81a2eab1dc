import type { Browser, FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from './support/browser.ts';
import { serveMerchantPage } from './support/merchant-page.ts';
import { merchantCli, newDataDir, startServer, type RunningServer } from './support/server.ts';

/**
 * A merchant's branding reaches the checkout in the cross-origin frame: the element's attributes (checked by the
 * embed script and again in the frame) and the logo on the merchant's record (set with the CLI).
 */
const LOGO = 'https://cdn.kola-books.test/logo.svg';
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  const dataDir = newDataDir();
  const shop = await merchantCli(dataDir, ['create', '--name', 'Kola Books', '--country', 'NG', '--email', 'help@kola.test']);
  await merchantCli(dataDir, ['logo', '--id', String(shop.subsidiaryId), '--url', LOGO]);
  const started = await startServer({}, { dataDir });
  server = { ...started, publishableKey: shop.publishableKey, secretKey: shop.secretKey };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The Continue button and the panel, as the customer sees them in the frame. */
async function looks(checkout: FrameLocator) {
  await checkout.getByRole('radio', { name: /^Card/ }).check();
  const button = await checkout.getByRole('button', { name: 'Continue with card' }).evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, height: Math.round(element.getBoundingClientRect().height) };
  });
  const panel = await checkout.locator('ck-checkout .panel').evaluate((element) => ({ radius: getComputedStyle(element).borderTopLeftRadius, font: getComputedStyle(element).fontFamily }));
  return { ...button, ...panel };
}

describe("the merchant's branding in the checkout frame", () => {
  it('takes the brand colour, radius, font and density from the element, and the logo from the merchant record', async () => {
    const merchant = await serveMerchantPage(server, '127.0.0.1', { 'brand-color': '#0a7c59', radius: '4', font: 'serif', density: 'compact' });
    try {
      const { page, problems } = await newPage(browser);
      await page.route('https://cdn.kola-books.test/**', (route) =>
        route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#0a7c59"/></svg>' }),
      );
      await page.goto(`${merchant.origin}/`);
      const checkout = page.frameLocator('checkout-widget iframe');
      expect(await looks(checkout)).toEqual({ background: 'rgb(10, 124, 89)', height: 40, radius: '4px', font: 'Charter, Cambria, Georgia, serif' });
      const logo = checkout.locator('[part=logo]');
      expect(await logo.evaluate((element) => [element.tagName, element.getAttribute('src'), (element as HTMLImageElement).naturalWidth > 0])).toEqual(['IMG', LOGO, true]);
      await screenshot(page, 'branded-checkout');
      expect(problems).toEqual([]);
    } finally {
      await merchant.close();
    }
  });

  it('keeps its own look when the attributes hold anything but a valid value', async () => {
    const merchant = await serveMerchantPage(server, '127.0.0.1', { 'brand-color': 'red;}*{background:url(https://evil.test/x)}', radius: '99', font: 'Papyrus', density: 'tiny' });
    try {
      const { page, problems } = await newPage(browser);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${merchant.origin}/`);
      const checkout = page.frameLocator('checkout-widget iframe');
      const seen = await looks(checkout);
      expect(seen).toMatchObject({ background: 'rgb(67, 56, 202)', height: 44, radius: '12px' });
      expect(requested.filter((url) => url.includes('evil.test'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await merchant.close();
    }
  });
});
