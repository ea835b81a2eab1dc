import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, orderPayload, newReference } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const link = (name: string, extra: object = {}) => ({ Name: name, Description: 'Two tickets', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: '5000', ...extra });

describe.each(drivers)('payment link management on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, apiKey = keys.secretKey) =>
    app.inject({ method, url, headers: { 'api-key': apiKey }, ...(payload ? { payload } : {}) });
  const createLink = async (name: string, extra: object = {}, apiKey = keys.secretKey) => {
    const response = await call('POST', '/checkout/links/create', link(name, extra), apiKey);
    if (response.statusCode !== 200) throw new Error(response.body);
    return response.json().data.paymentLink as { id: number; reference: string; paymentLinkUrl: string };
  };

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys);
  });

  it('edits only the members given and keeps the reference, URL and currency', async () => {
    const created = await createLink('Concert', { Website: 'https://store.test/thanks', Limit: '5' });
    const response = await call('PATCH', `/checkout/links/${created.id}/edit`, { Name: '', Mobile: null, Description: 'Three tickets', Amount: 7500.5, Currency: 'USD' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'success', statusCode: '00', message: 'Payment details fetched successfully' });
    expect(response.json().data.paymentLink).toMatchObject({
      id: created.id, name: 'Concert', description: 'Three tickets', amount: 7500.5, currency: 'NGN', limit: 5, website: 'https://store.test/thanks',
      reference: created.reference, paymentLinkUrl: created.paymentLinkUrl,
    });
  });

  it('refuses an edit with a bad member, naming it, and an edit of a link that is not the caller’s', async () => {
    const created = await createLink('Fair');
    const bad = await call('PATCH', `/checkout/links/${created.id}/edit`, { Amount: '10.001' });
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The Amount field has more decimal places than NGN allows.' });
    const other = await createMerchant(app);
    const foreign = await call('PATCH', `/checkout/links/${created.id}/edit`, { Name: 'Mine now' }, other.secretKey);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().statusCode).toBe('NF404');
    const unknown = await call('PATCH', '/checkout/links/99999999/status/disable');
    expect(unknown.statusCode).toBe(404);
  });

  it("disables a link: its page says so and it takes no new orders; activating it restores both", async () => {
    const created = await createLink('Raffle');
    const disable = await app.inject({ method: 'PATCH', url: `/checkout/links/${created.id}/status/disable`, headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' } });
    expect(disable.json()).toEqual({ status: 'success', statusCode: '00', message: 'Payment link status updated successfully', data: null });

    const page = await app.inject({ method: 'GET', url: `/l/${created.reference}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('This payment link is no longer active.');
    const refused = await client.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: created.id } }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This payment link is no longer active.');

    const activate = await call('PATCH', `/checkout/links/${created.id}/status/activate`, {});
    expect(activate.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/l/${created.reference}` })).statusCode).toBe(200);
    expect((await client.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: created.id } }))).statusCode).toBe(200);
  });

  it('lists the merchant’s links in the key’s mode, newest first, a page at a time, with each link’s payments', async () => {
    const merchant = await createMerchant(app, 'Lister');
    const payer = new CheckoutClient(app, merchant);
    const first = await createLink('First', {}, merchant.secretKey);
    const second = await createLink('Second', {}, merchant.secretKey);
    const third = await createLink('Third', {}, merchant.secretKey);
    const reference = await payer.newOrder({ payment: { paymentlinkid: second.id } });
    expect((await payer.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');

    const page1 = (await call('GET', '/checkout/links/all?page=1&limit=2', undefined, merchant.secretKey)).json();
    expect(page1.data.map((each: { id: number }) => each.id)).toEqual([third.id, second.id]);
    expect(page1.data.map((each: { paymentCount: number }) => each.paymentCount)).toEqual([0, 1]);
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const page2 = (await call('GET', '/checkout/links/all?page=2&limit=2', undefined, merchant.secretKey)).json();
    expect(page2.data.map((each: { id: number }) => each.id)).toEqual([first.id]);

    const live = await app.merchants.rotateKeys(merchant.subsidiaryId, 'live');
    expect((await call('GET', '/checkout/links/all', undefined, live!.secretKey)).json().pagination.total).toBe(0);
    expect((await call('GET', '/checkout/links/all', undefined, keys.secretKey)).json().data.some((each: { id: number }) => each.id === first.id)).toBe(false);
  });

  it('refuses a bad page and keeps link management to the secret key', async () => {
    const bad = await call('GET', '/checkout/links/all?limit=500');
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The limit field must be at most 100.' });
    for (const url of ['/checkout/links/all', '/checkout/links/types']) {
      const response = await call('GET', url, undefined, keys.publishableKey);
      expect(response.statusCode).toBe(403);
    }
  });

  it('serves the banks to either key, at both paths', async () => {
    for (const [url, apiKey] of [['/checkout/banks', keys.publishableKey], ['/payment/banks', keys.secretKey]] as const) {
      const response = await call('GET', url, undefined, apiKey);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'success', statusCode: '00', message: 'Operation successful' });
    }
  });
});

describe.each(drivers)('the TransactPay path family on %s', (driver) => {
  const context = useTestApp(driver);

  it('answers each /payment path as its /checkout twin (status in the TransactPay shape), and nothing else under /payment', async () => {
    const app = context.app;
    const keys = await createMerchant(app);
    const client = new CheckoutClient(app, keys);
    const reference = newReference();
    const created = await client.post('/payment/order/create', orderPayload(reference));
    expect(created.json()).toMatchObject({ statusCode: '01' });
    expect((await client.post('/payment/order/fee', { amount: 5000, paymentoption: 'C', reference })).json().statusCode).toBe('00');
    expect((await client.post('/payment/order/event/track', { eventname: 'opened', orderreference: reference })).json().statusCode).toBe('00');
    expect((await client.post('/payment/order/pay', { reference, paymentoption: 'C', card: { cardnumber: '5555555555554444', expirymonth: '01', expiryyear: '39', cvv: '123' } })).json().statusCode).toBe('00');
    // Status is the one path whose answer differs: the same order, in the shape the TransactPay mobile SDKs read.
    const status = (await client.post('/payment/order/status', { reference })).json();
    const twin = (await client.status(reference)).json();
    expect(status).toMatchObject({ status: 'Successful', statusCode: '00', data: { isFinalStatus: twin.is_final_status, orderSummary: { statusId: twin.data.payment_status } } });
    expect(status.data.orderSummary).toMatchObject({ paymentReference: twin.data.payment_reference, orderReference: reference, totalChargedAmount: twin.data.total_charged_amount, fee: twin.data.fee });
    expect((await app.inject({ method: 'POST', url: '/payment/order/verify?trace=1', headers: { 'api-key': keys.secretKey }, payload: { reference } })).json().data.statusId).toBe(5);
    // Verify encrypted as a JWE, with the secret key only; unreadable data gets the one answer for it.
    expect((await client.post('/payment/order/verify', { reference }, keys.secretKey)).json().data.orderReference).toBe(reference);
    expect((await client.post('/payment/order/verify', { reference })).statusCode).toBe(403);
    const garbage = await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': keys.secretKey }, payload: { data: 'bm90IGEgYmxvY2s=' } });
    expect(garbage.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The data field could not be read.' });
    const empty = await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': keys.secretKey }, payload: {} });
    expect(empty.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The reference field is required.' });
    const unknown = await app.inject({ method: 'POST', url: '/payment/order/refunds', headers: { 'api-key': keys.secretKey }, payload: {} });
    expect(unknown.statusCode).toBe(404);
  });
});
