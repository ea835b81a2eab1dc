import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authenticate, chooseMethod, launchBrowser, newPage, payByCard, screenshot } from './support/browser.ts';
import { serverCall, verifyOrder } from './support/server.ts';

const server = inject('server');
let browser: Browser;
/** The merchant's own website, on another origin: where the link sends customers after paying. */
let website: Server;
let websiteOrigin: string;

beforeAll(async () => {
  website = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Thank you</title><h1>Thank you for your support</h1>');
    request.resume();
  });
  await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
  websiteOrigin = `http://127.0.0.1:${(website.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => website?.close(resolve));
});

describe('the payment-link page', () => {
  it('takes an amount the customer types, pays it with 3-D Secure, and ends on the merchant website with the reference and status', async () => {
    const created = await serverCall<{ statusCode: string; data: { paymentLink: { id: number; paymentLinkUrl: string; amount: number | null } } }>(server, '/checkout/links/create', {
      Name: 'Community library fund',
      Description: 'Give what you like towards new books.',
      PaymentType: 'MC',
      Currency: 'NGN',
      AuthOption: 'AUTH',
      Website: `${websiteOrigin}/thanks`,
    });
    expect(created.statusCode).toBe('00');
    const link = created.data.paymentLink;
    expect(link.amount).toBeNull();

    const { page, problems } = await newPage(browser, { width: 700, height: 1000 });
    // Every address the browser asked for, in every frame: the customer's details must be in none of them.
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    await page.goto(link.paymentLinkUrl);
    await page.getByRole('heading', { name: 'Community library fund' }).waitFor();
    await page.getByLabel('Amount (NGN)').fill('7500');
    await page.getByLabel('First name').fill('Chidi');
    await page.getByLabel('Last name').fill('Okeke');
    await page.getByLabel('E-mail').fill('chidi@example.test');
    await screenshot(page, 'payment-link-form');
    await page.getByRole('button', { name: 'Continue to payment' }).click();

    // The checkout on the link page: the amount the customer chose, then card and the bank's page, full-page.
    await page.getByText('₦7,500.00').first().waitFor();
    await screenshot(page, 'payment-link-checkout');
    await chooseMethod(page, 'Card');
    await payByCard(page, '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await authenticate(page, 'approve');

    await page.waitForURL((url) => url.origin === websiteOrigin);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/thanks');
    expect(landed.searchParams.get('status')).toBe('successful');
    const reference = landed.searchParams.get('reference') ?? '';
    expect(reference).toMatch(/^LNK-[0-9A-F]{24}$/);
    await page.getByRole('heading', { name: 'Thank you for your support' }).waitFor();
    await screenshot(page, 'payment-link-merchant-website');

    const verified = await verifyOrder(server, reference);
    expect(verified.data).toMatchObject({ statusId: 5, status: 'Successful', paymentLink: { id: link.id } });
    expect(addresses.filter((address) => /chidi|okeke/i.test(decodeURIComponent(address)))).toEqual([]);
    expect([...landed.searchParams.keys()].sort()).toEqual(['reference', 'status']);
    expect(problems).toEqual([]);
  });
});
