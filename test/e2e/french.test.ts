import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, logEntry, newPage } from './support/browser.ts';
import { serveMerchantPage } from './support/merchant-page.ts';

/**
 * A French customer's checkout, as built: its words come from the French catalog, a chunk of its own fetched with
 * `import()` before any text is drawn, and the card form from the lazily loaded views, in the frame under the
 * checkout's CSP.
 */
const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("a French customer's checkout", () => {
  it('speaks French from the first screen to the card form, each loaded from its own chunk', async () => {
    const merchant = await serveMerchantPage(server, '127.0.0.1', { locale: 'fr-FR' });
    try {
      const { page, problems } = await newPage(browser);
      const scripts: string[] = [];
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (path.startsWith('/widget/assets/') && path.endsWith('.js')) scripts.push(path.replace(/-[\w-]+\.js$/, ''));
      });
      await page.goto(`${merchant.origin}/`);
      await logEntry(page, 'checkout:ready', 'shop-checkout').waitFor();
      const checkout = page.frameLocator('checkout-widget iframe');
      await expect.poll(() => checkout.locator('html').getAttribute('lang')).toBe('fr-FR');
      await checkout.getByRole('radio', { name: /^Carte/ }).check();
      await checkout.getByRole('button', { name: 'Continuer avec la carte' }).click();
      await checkout.getByRole('heading', { name: 'Payer par carte' }).waitFor();
      await checkout.getByLabel('Numéro de carte').waitFor();
      expect(scripts).toContain('/widget/assets/fr');
      expect(problems).toEqual([]);
    } finally {
      await merchant.close();
    }
  });
});
