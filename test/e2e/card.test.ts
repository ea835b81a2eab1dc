import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authenticate, checkoutIn, chooseMethod, launchBrowser, logEntry, newPage, payByCard, screenshot } from './support/browser.ts';
import { verifyOrder, demoUrl } from './support/server.ts';

const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Inputs anywhere in the merchant's own document, its shadow roots included: the card form must not be one of them. */
const merchantInputs = () =>
  (function count(root: Document | ShadowRoot): number {
    return root.querySelectorAll('input').length + Array.from(root.querySelectorAll('*')).reduce((sum, element) => sum + (element.shadowRoot ? count(element.shadowRoot) : 0), 0);
  })(document);

describe('card payments in the inline checkout on the demo page', () => {
  it('pays by card with 3-D Secure approved inside the frame; the page hears checkout:success and the secret-key verify says Successful', async () => {
    const { page, problems } = await newPage(browser);
    const shopUrl = demoUrl(server);
    await page.goto(shopUrl);
    const checkout = checkoutIn(page);
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    const reference = (await page.locator('#inline-reference').textContent()) ?? '';
    expect(reference).toMatch(/^DEMO-/);

    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242 4242 4242 4242');
    // The bank's page opens inside the frame: the merchant's page stays where it is.
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    expect(page.url()).toBe(shopUrl);
    expect(await page.evaluate(merchantInputs)).toBe(0);
    await logEntry(page, 'checkout:pending', 'inline-checkout').waitFor();
    await authenticate(checkout, 'approve');

    // Back in the checkout, which resumes the order and reports it paid.
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const success = logEntry(page, 'checkout:success', 'inline-checkout');
    await success.waitFor();
    expect(await success.getAttribute('data-reference')).toBe(reference);
    expect(await success.getAttribute('data-status')).toBe('Successful');

    const verified = await verifyOrder(server, reference);
    expect(verified.statusCode).toBe('00');
    expect(verified.data).toMatchObject({ orderReference: reference, statusId: 5, status: 'Successful' });
    await screenshot(page, 'card-3ds-approved');
    expect(problems).toEqual([]);
  });

  it("reloading the merchant page while the bank's 3-D Secure page is open resumes and completes the payment", async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(demoUrl(server));
    const checkout = checkoutIn(page);
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    const reference = (await page.locator('#inline-reference').textContent()) ?? '';
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242 4242 4242 4242');
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();

    // The customer reloads the shop's page with the bank's page open in the checkout.
    await page.reload();
    await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
    expect(await page.locator('#inline-reference').textContent()).toBe(reference);
    const resume = checkout.getByRole('button', { name: 'Continue with your bank' });
    await resume.waitFor();
    await screenshot(page, 'card-3ds-resume-after-reload');
    await resume.click();
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await authenticate(checkout, 'approve');

    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const success = logEntry(page, 'checkout:success', 'inline-checkout');
    await success.waitFor();
    expect(await success.getAttribute('data-reference')).toBe(reference);
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    expect(problems).toEqual([]);
  });

  it('reports a failed 3-D Secure as a decline, then pays with another card', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(demoUrl(server));
    const checkout = checkoutIn(page);
    const reference = (await page.locator('#inline-reference').textContent()) ?? '';
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '4242424242424242');
    await checkout.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await authenticate(checkout, 'fail');

    await checkout.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    await checkout.getByText('Your bank declined the payment').waitFor();
    const declined = logEntry(page, 'checkout:error', 'inline-checkout');
    await declined.waitFor();
    expect(await declined.getAttribute('data-code')).toBe('05');
    expect(await declined.getAttribute('data-status')).toBe('Failed');
    await screenshot(page, 'card-3ds-failed');

    await checkout.getByRole('button', { name: 'Try again' }).click();
    await payByCard(checkout, '5555 5555 5555 4444');
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await logEntry(page, 'checkout:success', 'inline-checkout').waitFor();
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    await screenshot(page, 'card-retry-approved');
    expect(problems).toEqual([]);
  });
});
