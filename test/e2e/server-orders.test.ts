import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkoutIn, chooseMethod, launchBrowser, logEntry, newPage, screenshot } from './support/browser.ts';
import { serveMerchantPage } from './support/merchant-page.ts';
import { serverCall, serverCreateOrder, verifyOrder } from './support/server.ts';

const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const orderFor = (reference: string) => ({
  customer: { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' },
  order: { amount: 3000, reference, currency: 'NGN', description: 'Two books' },
});

/** What the merchant's server does before showing its checkout page: a customer session and the order, with the secret key. */
async function prepareOrder(customerReference: string) {
  const session = await serverCall<{ data: { customerSession: string } }>(server, '/checkout/customers/sessions', { customerReference });
  const reference = `SRV-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const created = await serverCreateOrder(server, orderFor(reference), { 'checkout-customer-session': session.data.customerSession });
  expect(created.statusCode).toBe('01');
  return { reference, clientToken: created.data.clientToken!.token, customerSession: session.data.customerSession };
}

describe("orders the merchant's server creates, paid in the embedded checkout", () => {
  it('pays with the client token, saves the card for the vouched customer, and pays the next order with it by CVV alone', async () => {
    const customer = `shop-user-${Date.now()}`;
    const first = await prepareOrder(customer);
    const shop = await serveMerchantPage(server, '127.0.0.1', {
      reference: first.reference,
      'client-token': first.clientToken,
      'customer-session': first.customerSession,
    });
    try {
      const { page, problems } = await newPage(browser);
      await page.goto(shop.origin);
      const checkout = checkoutIn(page, '#shop-checkout');
      await chooseMethod(checkout, 'Card');
      const expiry = `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;
      await checkout.locator('#number').pressSequentially('5555 5555 5555 4444');
      await checkout.locator('#expiry').pressSequentially(expiry);
      await checkout.locator('#cvv').pressSequentially('123');
      await checkout.locator('#name').fill('Ada Obi');
      await checkout.getByRole('checkbox', { name: 'Save this card for next time' }).check();
      await checkout.getByRole('button', { name: /^Pay / }).click();
      await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await logEntry(page, 'checkout:success', 'shop-checkout').waitFor();
      expect((await verifyOrder(server, first.reference)).data).toMatchObject({ status: 'Successful', orderOrigin: 'server' });

      const second = await prepareOrder(customer);
      const next = await serveMerchantPage(server, '127.0.0.1', {
        reference: second.reference,
        'client-token': second.clientToken,
        'customer-session': second.customerSession,
      });
      try {
        await page.goto(next.origin);
        const again = checkoutIn(page, '#shop-checkout');
        await chooseMethod(again, 'Card');
        await again.getByRole('radio', { name: /Mastercard ending in 4444/ }).check();
        await again.locator('#cvv').pressSequentially('123');
        await screenshot(page, 'server-order-saved-card');
        await again.getByRole('button', { name: /^Pay / }).click();
        await again.getByRole('heading', { name: 'Payment successful' }).waitFor();
        expect((await verifyOrder(server, second.reference)).data).toMatchObject({ status: 'Successful' });
      } finally {
        await next.close();
      }
      expect(problems).toEqual([]);
    } finally {
      await shop.close();
    }
  });

  it("refuses a page that names the server's order without its client token", async () => {
    const prepared = await prepareOrder(`shop-user-${Date.now()}`);
    const squatter = await serveMerchantPage(server, '127.0.0.1', { reference: prepared.reference, amount: '1' });
    try {
      const { page } = await newPage(browser);
      await page.goto(squatter.origin);
      const error = logEntry(page, 'checkout:error', 'shop-checkout');
      await error.waitFor();
      expect(await error.getAttribute('data-code')).toBe('CON409');
      expect((await verifyOrder(server, prepared.reference)).data).toMatchObject({ statusId: 1, totalAmountCharged: 3000 });
    } finally {
      await squatter.close();
    }
  });
});
