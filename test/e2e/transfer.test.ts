import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkoutIn, chooseMethod, clickOnPage, launchBrowser, logEntry, newPage, screenshot, settled, transferAccount } from './support/browser.ts';
import { sendTransfer, verifyOrder, demoUrl } from './support/server.ts';

const server = inject('server');
/** The demo's inline order: NGN 12,500; the transfer fee is the merchant's, so the customer sends exactly that. */
const ORDER_AMOUNT = 12_500;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openTransfer(page: Page): Promise<{ checkout: FrameLocator; reference: string; account: string }> {
  const checkout = checkoutIn(page);
  const reference = (await page.locator('#inline-reference').textContent()) ?? '';
  await chooseMethod(checkout, 'Bank transfer');
  await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
  await checkout.getByText('Transfer exactly ₦12,500.00').waitFor();
  return { checkout, reference, account: await transferAccount(checkout) };
}

describe('bank transfers in the inline checkout on the demo page', () => {
  it('notices an exact transfer within a few seconds without a click, then another order paid short followed by the rest', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(demoUrl(server));
    const first = await openTransfer(page);
    const pending = logEntry(page, 'checkout:pending', 'inline-checkout');
    await pending.waitFor();
    expect(await pending.getAttribute('data-method')).toBe('bank-transfer');
    await screenshot(page, 'transfer-account');

    expect((await sendTransfer(server, first.account, ORDER_AMOUNT)).status).toBe('success');
    const sentAt = Date.now();
    // Nobody presses "I have sent the money": the open account is watched.
    await first.checkout.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
    expect(Date.now() - sentAt).toBeLessThan(8_000);
    await logEntry(page, 'checkout:success', 'inline-checkout').waitFor();
    expect((await verifyOrder(server, first.reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });

    // A second order on the same page: the checkout in the frame starts over with the new reference.
    await settled(page.locator('#inline-checkout iframe'));
    await clickOnPage(page.getByRole('button', { name: 'Start a new order' }));
    await page.locator('#inline-reference').filter({ hasNotText: first.reference }).waitFor();
    const second = await openTransfer(page);
    expect(second.reference).not.toBe(first.reference);
    expect(second.account).not.toBe(first.account);

    await sendTransfer(server, second.account, 5_000);
    await second.checkout.getByText('We received ₦5,000.00. Send the remaining ₦7,500.00 to the same account').waitFor();
    expect((await verifyOrder(server, second.reference)).data).toMatchObject({ statusId: 2 });
    await screenshot(page, 'transfer-short');

    await sendTransfer(server, second.account, 7_500);
    await second.checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await logEntry(page, 'checkout:success', 'inline-checkout', second.reference).waitFor();
    expect((await verifyOrder(server, second.reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    await screenshot(page, 'transfer-short-then-rest');
    expect(problems).toEqual([]);
  });

  it('resumes the same transfer account after the page is reloaded, and completes', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(demoUrl(server));
    const before = await openTransfer(page);

    await page.reload();
    const checkout = checkoutIn(page);
    await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
    expect(await page.locator('#inline-reference').textContent()).toBe(before.reference);
    expect(await transferAccount(checkout)).toBe(before.account);
    const resumed = logEntry(page, 'checkout:ready', 'inline-checkout');
    await resumed.waitFor();
    expect(await resumed.getAttribute('data-status')).toBe('Pending');
    await screenshot(page, 'transfer-resumed-after-reload');

    // The button is a nudge: pressed before the money arrives, the checkout waits, then confirms.
    await checkout.getByRole('button', { name: 'I have sent the money' }).click();
    await checkout.getByText('Waiting for your transfer.').waitFor();
    await sendTransfer(server, before.account, ORDER_AMOUNT);
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect((await verifyOrder(server, before.reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    expect(problems).toEqual([]);
  });
});
