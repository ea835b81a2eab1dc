import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, chooseMethod, launchBrowser, newPage, payByCard, screenshot } from './support/browser.ts';
import { serverCall, startServer, verifyOrder, type RunningServer } from './support/server.ts';

const WEEK_SECONDS = 7 * 24 * 3600;

/**
 * A server of its own in test mode with the test clock (`NODE_ENV=test`, `CHECKOUT_TEST_CLOCK=1`): the test moves
 * the server's time on with `POST /checkout/sandbox/clock`, which also runs the jobs that fell due.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ NODE_ENV: 'test', CHECKOUT_TEST_CLOCK: '1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const inWords = (date: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
const text = (value: string | null) => (value ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

describe('a subscription through a SUB link page', () => {
  it('shows the schedule, subscribes with 3-D Secure, charges the second payment when the clock reaches it, and stops once the customer cancels', async () => {
    const created = await serverCall<{ statusCode: string; data: { paymentLink: { id: number; paymentLinkUrl: string } } }>(server, '/checkout/links/create', {
      Name: 'Pottery club',
      Description: 'A weekly class, four weeks.',
      PaymentType: 'SUB',
      Currency: 'NGN',
      AuthOption: 'AUTH',
      Amount: 5000,
      FrequencyId: 3,
      NumberOfPayments: 4,
    });
    expect(created.statusCode).toBe('00');
    const link = created.data.paymentLink;

    const { page, problems } = await newPage(browser, { width: 700, height: 1100 });
    await page.goto(link.paymentLinkUrl);
    await page.getByRole('heading', { name: 'Pottery club' }).waitFor();
    const nextWeek = inWords(new Date(Date.now() + WEEK_SECONDS * 1000));
    // Money as the browser's locale writes it (₦ for en-NG, NGN elsewhere), as the checkout does.
    expect(text(await page.getByTestId('plan').textContent())).toMatch(new RegExp(`^Subscription: (₦|NGN )5,000\\.00 every week, 4 payments, next on ${nextWeek}$`));
    await screenshot(page, 'subscription-link-form');
    await page.getByLabel('First name').fill('Chidi');
    await page.getByLabel('Last name').fill('Okeke');
    await page.getByLabel('E-mail').fill('chidi@example.test');
    await page.getByRole('button', { name: 'Continue to payment' }).click();

    // The checkout says the plan too, and offers the card only: later charges need its token.
    const widgetPlan = page.locator('ck-order-summary').getByTestId('plan');
    await widgetPlan.waitFor();
    expect(text(await widgetPlan.textContent())).toMatch(/^Subscription: (₦|NGN )5,000\.00 every week, 4 payments, next on /);
    expect(await page.getByRole('radio', { name: /^Bank transfer/ }).count()).toBe(0);
    if ((await page.getByRole('radio', { name: /^Card/ }).count()) > 0) await chooseMethod(page, 'Card');
    await screenshot(page, 'subscription-checkout');
    await payByCard(page, '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await authenticate(page, 'approve');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const order = new URL(page.url()).searchParams.get('order') ?? '';
    expect(order).toMatch(/^LNK-[0-9A-F]{24}$/);

    // The receipt: the schedule, and the customer's own cancel link.
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(text(await page.locator('header').getByTestId('plan').textContent())).toMatch(/^Subscription: (₦|NGN )5,000\.00 every week, 4 payments, next on /);
    await page.getByTestId('cancel-subscription').waitFor();
    await screenshot(page, 'subscription-receipt');

    const first = (await verifyOrder(server, order)) as unknown as { data: { statusId: number; recurringPaymentId: number; recurringPaymentReference: string } };
    expect(first.data).toMatchObject({ statusId: 5, recurringPaymentId: expect.any(Number) });
    const second = `${first.data.recurringPaymentReference}-2`;
    expect((await verifyOrder(server, second)).statusCode).toBe('NF404');

    const moved = await serverCall(server, '/checkout/sandbox/clock', { advanceSeconds: WEEK_SECONDS + 60 });
    expect(moved.statusCode).toBe('00');
    const charged = (await verifyOrder(server, second)) as unknown as { statusCode: string; data: Record<string, unknown> };
    expect(charged.statusCode).toBe('00');
    expect(charged.data).toMatchObject({
      statusId: 5,
      recurringPaymentId: first.data.recurringPaymentId,
      recurringPaymentReference: first.data.recurringPaymentReference,
      recurringPeriod: 2,
      paymentLinkId: link.id,
    });

    // The customer cancels from the receipt's link; the third week then charges nothing.
    await page.getByTestId('cancel-subscription').click();
    await page.getByRole('heading', { name: 'Cancel your subscription' }).waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('heading', { name: 'Subscription cancelled' }).waitFor();
    await screenshot(page, 'subscription-cancelled');
    expect((await serverCall(server, '/checkout/sandbox/clock', { advanceSeconds: WEEK_SECONDS })).statusCode).toBe('00');
    expect((await verifyOrder(server, `${first.data.recurringPaymentReference}-3`)).statusCode).toBe('NF404');
    expect(problems).toEqual([]);
  });
});
