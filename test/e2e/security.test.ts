import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkoutIn, chooseMethod, clickOnPage, launchBrowser, logEntry, modalCheckout, newPage, screenshot, settled } from './support/browser.ts';
import { serveMerchantPage } from './support/merchant-page.ts';
import { demoUrl } from './support/server.ts';

const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('security in the browser', () => {
  it('runs the demo page, the checkout frame, its lazy views and the modal under the strict CSP without a single violation', async () => {
    const { page, problems, console: messages } = await newPage(browser);
    const response = await page.goto(demoUrl(server));
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
    // The button sits below the inline frame, which is of another site: see clickOnPage.
    await clickOnPage(page.getByRole('button', { name: /Checkout\.open/ }));
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
    const [refused, allowed] = await Promise.all([serveMerchantPage(server, '127.0.0.2'), serveMerchantPage(server, '127.0.0.1')]);
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
