import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const REFUSED = { status: 'failed', statusCode: 'AUTH403', message: 'Live payments are not enabled for this merchant: no acquirer is connected.' };

/** No acquirer is connected in this build: live keys must never reach the sandbox's test cards. */
describe.each(drivers)('live mode on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let live: CheckoutClient;
  let test: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    const keys = await createMerchant(app, 'Acme Stores');
    test = new CheckoutClient(app, keys);
    live = new CheckoutClient(app, (await app.merchants.rotateKeys(keys.subsidiaryId, 'live'))!);
  });

  it.each([
    ['a sandbox-approved card', '5555555555554444'],
    ["the gateway's test card", '5123450000784608'],
    ['a 3-D Secure test card', '4242424242424242'],
  ])('refuses %s with live keys before anything is stored', async (_name, number) => {
    const reference = await live.newOrder();
    const response = await live.payByCard(reference, number);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
    const verified = (await live.verify(reference)).json().data;
    expect(verified).toMatchObject({ statusId: 1, status: 'Initiated', orderPayments: [] });
    expect((await live.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 1, payment_reference: null } });
  });

  it('refuses a live bank transfer the same way', async () => {
    const reference = await live.newOrder();
    const response = await live.payByTransfer(reference);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
    expect((await live.verify(reference)).json().data.orderPayments).toEqual([]);
  });

  it('still quotes fees and creates orders in live mode, and test mode keeps paying through the sandbox', async () => {
    const quote = await live.fee({ amount: 100, currency: 'USD', paymentoption: 'C' });
    expect(quote.json()).toMatchObject({ statusCode: '00', data: { fee: 6, totalChargedAmount: 106 } });
    const reference = await test.newOrder();
    expect((await test.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: '00' });
  });
});
