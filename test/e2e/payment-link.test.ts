import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
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

type CreatedLink = { statusCode: string; data: { paymentLink: { id: number; reference: string; paymentLinkUrl: string; amount: number | null } } };

async function createLink(fields: Record<string, unknown>): Promise<CreatedLink['data']['paymentLink']> {
  const created = await serverCall<CreatedLink>(server, '/checkout/links/create', {
    Name: 'Workshop seat',
    Description: 'One seat at the Saturday pottery workshop.',
    PaymentType: 'SC',
    Currency: 'NGN',
    AuthOption: 'AUTH',
    ...fields,
  });
  expect(created.statusCode).toBe('00');
  return created.data.paymentLink;
}

async function fillLinkForm(page: Page): Promise<void> {
  await page.getByLabel('First name').fill('Chidi');
  await page.getByLabel('Last name').fill('Okeke');
  await page.getByLabel('E-mail').fill('chidi@example.test');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
}

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

    // Back from the website shows the receipt instead of sending the customer forward again; Done goes on.
    const toWebsite: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).origin === websiteOrigin) toWebsite.push(request.url());
    });
    await page.goBack();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Thank you for your support' }).waitFor();
    expect(toWebsite).toEqual([`${websiteOrigin}/thanks?reference=${reference}&status=successful`]);

    const verified = await verifyOrder(server, reference);
    expect(verified.data).toMatchObject({ statusId: 5, status: 'Successful', paymentLink: { id: link.id } });
    expect(addresses.filter((address) => /chidi|okeke/i.test(decodeURIComponent(address)))).toEqual([]);
    expect([...landed.searchParams.keys()].sort()).toEqual(['reference', 'status']);
    expect(problems).toEqual([]);
  });

  it('after paying with 3-D Secure, a reload and Back show the paid result, never a form resubmission or a second order', async () => {
    const link = await createLink({ Amount: '5800.50', Limit: 1 });
    const { page, problems } = await newPage(browser, { width: 700, height: 1000 });
    const requests: { method: string; url: string }[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) requests.push({ method: request.method(), url: request.url() });
    });
    await page.goto(link.paymentLinkUrl);
    await fillLinkForm(page);

    // The form's answer is a redirect to the order's own address, with nothing about the customer in it.
    await page.waitForURL((url) => url.searchParams.has('order'));
    const orderAddress = new URL(page.url());
    const reference = orderAddress.searchParams.get('order') ?? '';
    expect(reference).toMatch(/^LNK-[0-9A-F]{24}$/);
    expect([...orderAddress.searchParams.keys()]).toEqual(['order']);
    await chooseMethod(page, 'Card');
    await payByCard(page, '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    await authenticate(page, 'approve');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(page.url()).toBe(orderAddress.href);

    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe('GET');
    expect(reloaded?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();

    // Back: the bank's page, which says it is finished; Back again: the order's address, still paid.
    const bank = await page.goBack();
    expect(bank?.request().method()).toBe('GET');
    await page.getByRole('heading', { name: 'Authentication finished' }).waitFor();
    const checkout = await page.goBack();
    expect(checkout?.request().method()).toBe('GET');
    expect(page.url()).toBe(orderAddress.href);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await screenshot(page, 'payment-link-back-after-paying');

    // The link is used up, but its customer still sees their receipt; the form itself is closed.
    const form = await page.goBack();
    expect(form?.status()).toBe(410);
    await page.getByRole('heading', { name: 'Payment link used up' }).waitFor();

    // One form post, and every address of the visit names the same order.
    expect(requests.filter((request) => request.method === 'POST' && new URL(request.url).pathname === `/l/${link.reference}`)).toHaveLength(1);
    const orders = new Set(requests.map((request) => new URL(request.url).searchParams.get('order')).filter(Boolean));
    expect([...orders]).toEqual([reference]);
    const verified = await verifyOrder(server, reference);
    expect(verified.data).toMatchObject({ statusId: 5, status: 'Successful', paymentLink: { id: link.id } });
    expect(problems).toEqual([]);
  });

  it('after a refused form, a wrong 3-D Secure code and the right one, reload and Back through the whole visit never offer to resubmit a form, and the website is visited once', async () => {
    // A multi-charge link: Back ends on its form, which still takes payments (a paid single-charge link shows its used-up page).
    const link = await createLink({ PaymentType: 'MC', Website: `${websiteOrigin}/thanks` });
    const { page, problems } = await newPage(browser, { width: 700, height: 1000 });
    const posts: string[] = [];
    const toWebsite: string[] = [];
    page.on('request', (request) => {
      if (!request.isNavigationRequest()) return;
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
      if (new URL(request.url()).origin === websiteOrigin) toWebsite.push(request.url());
    });
    await page.goto(link.paymentLinkUrl);

    // The browser refuses what it can check itself: nothing is sent.
    await page.getByLabel('Amount (NGN)').fill('lots');
    await page.getByLabel('First name').fill('Chidi');
    await page.getByLabel('Last name').fill('Okeke');
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    expect(await page.getByLabel('E-mail').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    expect(await page.getByLabel('Amount (NGN)').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    expect(posts).toEqual([]);

    // What only the server refuses comes back as the form's address naming the fields, then the customer corrects it.
    await page.getByLabel('Amount (NGN)').fill('0');
    await page.getByLabel('E-mail').fill('chidi@nowhere');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL((url) => url.searchParams.has('invalid'));
    expect(new URL(page.url()).search).toBe('?invalid=amount,email');
    await page.getByText('Please correct the fields marked below.').waitFor();
    // The refused form comes back with what the customer typed, from the tab's storage, never from the address.
    expect(await page.getByLabel('First name').inputValue()).toBe('Chidi');
    expect(await page.getByLabel('E-mail').inputValue()).toBe('chidi@nowhere');
    await page.getByLabel('Amount (NGN)').fill('3000');
    await fillLinkForm(page);
    await page.waitForURL((url) => url.searchParams.has('order'));

    await chooseMethod(page, 'Card');
    await payByCard(page, '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
    const bankAddress = page.url();
    const code = (await page.getByTestId('otp').textContent())?.trim() ?? '';
    await page.getByLabel('One-time code').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Authenticate' }).click();
    await page.getByText('That code is not correct. 2 attempts left.').waitFor();
    expect(page.url()).toBe(bankAddress);
    await authenticate(page, 'approve');
    await page.waitForURL((url) => url.origin === websiteOrigin);
    await page.getByRole('heading', { name: 'Thank you for your support' }).waitFor();
    expect(toWebsite).toHaveLength(1);

    // The reload asks the website again (the one visit more it may see); nothing after it does.
    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe('GET');
    const websiteVisits = [...toWebsite];
    expect(websiteVisits).toHaveLength(2);
    // Back through every entry of the visit: each one is a page got again with GET, never the browser's
    // "Confirm Form Resubmission" (ERR_CACHE_MISS) and never a way forward to the website again.
    const seen: string[] = [];
    while (!page.url().startsWith(link.paymentLinkUrl) || new URL(page.url()).search !== '') {
      const response = await page.goBack();
      expect(page.url()).toMatch(/^http:/);
      if (response) expect(response.request().method()).toBe('GET');
      expect(await page.locator('body').innerText()).not.toMatch(/ERR_CACHE_MISS|Confirm Form Resubmission/);
      seen.push(new URL(page.url()).pathname + new URL(page.url()).search);
      expect(seen.length).toBeLessThan(12);
    }
    await page.getByRole('button', { name: 'Continue to payment' }).waitFor();
    expect(seen).toContain(new URL(bankAddress).pathname);
    expect(seen).toContain(`/l/${link.reference}?invalid=amount,email`);
    expect(toWebsite).toEqual(websiteVisits);
    expect(posts).toEqual([`/l/${link.reference}`, `/l/${link.reference}`, new URL(bankAddress).pathname, new URL(bankAddress).pathname]);
    expect(problems).toEqual([]);
  });

  it('"Done" on a link without a website ends on the hosted page that says the payment is complete', async () => {
    const link = await createLink({ Amount: '1200', AuthOption: 'NOAUTH' });
    const { page, problems } = await newPage(browser, { width: 700, height: 1000 });
    await page.goto(link.paymentLinkUrl);
    await fillLinkForm(page);
    await page.waitForURL((url) => url.searchParams.has('order'));
    const reference = new URL(page.url()).searchParams.get('order');
    await chooseMethod(page, 'Card');
    await payByCard(page, '5555 5555 5555 4444');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    await page.waitForURL((url) => url.pathname === '/checkout/result');
    expect(new URL(page.url()).search).toBe(`?reference=${reference}&status=successful`);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.getByText('You can close this page.').waitFor();
    expect(problems).toEqual([]);
  });
});
