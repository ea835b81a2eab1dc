import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/**
 * POST /checkout/order/resume: what a checkout framed on another site (no storage) shows again after a reload, from
 * the server. Only the checkout's frame (its session) or the order's client token may ask with the publishable key.
 */
describe.each(drivers)('resuming an order on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let client: CheckoutClient;
  let framed: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app, 'Acme Stores'));
    const session = await app.inject({
      method: 'POST',
      url: '/checkout/embed/sessions',
      headers: { 'api-key': client.keys.publishableKey, origin: 'http://127.0.0.1:5173' },
    });
    const token = new URL(session.json().data.frameUrl).pathname.split('/').pop()!;
    framed = client.with({ 'checkout-session': token });
  });

  it('answers the checkout frame with the order, its customer and the open transfer account', async () => {
    const reference = await client.newOrder();
    const opened = (await client.payByTransfer(reference)).json().data.bankTransferDetails;
    const response = await framed.post('/checkout/order/resume', { reference });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.order.subsidiaryOrderSummary.reference).toBe(reference);
    expect(data.order.customer.email).toBeTruthy();
    expect(data.payment).toMatchObject({ statusCode: '02', data: { bankTransferDetails: { bankAccount: opened.bankAccount } } });
  });

  it('answers the bank’s page of a card payment awaiting 3-D Secure, and null before any payment', async () => {
    const reference = await client.newOrder();
    expect((await framed.post('/checkout/order/resume', { reference })).json().data.payment).toBeNull();
    const redirectUrl = (await client.payByCard(reference, '4242424242424242')).json().data.paymentDetail.redirectUrl;
    expect(redirectUrl).toBeTruthy();
    expect((await framed.post('/checkout/order/resume', { reference })).json().data.payment.data.paymentDetail.redirectUrl).toBe(redirectUrl);
  });

  it('refuses the publishable key alone: the answer names the customer', async () => {
    const reference = await client.newOrder();
    const response = await client.post('/checkout/order/resume', { reference });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 'AUTH403' });
  });
});
