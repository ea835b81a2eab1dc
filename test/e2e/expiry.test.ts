import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutIn, chooseMethod, launchBrowser, logEntry, newPage, screenshot, transferAccount } from './support/browser.ts';
import { sendTransfer, startServer, verifyOrder, type RunningServer, demoUrl } from './support/server.ts';

/** A server of its own whose transfer accounts stay open six seconds. */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRANSFER_EXPIRY_MINUTES: '0.1' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('transfer expiry', () => {
  it('shows the expired account when its time runs out with what arrived before, refuses money sent to it, and gives a new account', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(demoUrl(server));
    const checkout = checkoutIn(page);
    const reference = (await page.locator('#inline-reference').textContent()) ?? '';
    await chooseMethod(checkout, 'Bank transfer');
    const account = await transferAccount(checkout);

    // Part of the money arrives, the rest never does.
    expect(await sendTransfer(server, account, 5_000)).toMatchObject({ status: 'success' });
    await checkout.getByText('We received ₦5,000.00. Send the remaining ₦7,500.00').waitFor({ timeout: 6_000 });

    // Nobody presses anything: the countdown reaches zero and the checkout asks the server, which says expired.
    await checkout.getByRole('heading', { name: 'The account number has expired' }).waitFor({ timeout: 30_000 });
    await checkout.getByText('We received ₦5,000.00 before the account expired. It does not count towards this payment').waitFor();
    const expired = logEntry(page, 'checkout:error', 'inline-checkout');
    await expired.waitFor();
    expect(await expired.getAttribute('data-code')).toBe('04');
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 4 });
    expect(await sendTransfer(server, account, 12_500)).toMatchObject({ status: 'failed', statusCode: 'CON409', message: 'This account number has expired.' });
    await screenshot(page, 'transfer-expired');

    await checkout.getByRole('button', { name: 'Get a new account number' }).click();
    await checkout.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
    const fresh = await transferAccount(checkout);
    expect(fresh).not.toBe(account);
    await sendTransfer(server, fresh, 12_500);
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    expect(problems).toEqual([]);
  });
});
