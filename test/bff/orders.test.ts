import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { createOrderResponseSchema } from '../../shared/orders.ts';

describe.each(drivers)('orders on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let client: CheckoutClient;
  let legacy: CheckoutClient;
  let other: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    const keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys);
    legacy = new CheckoutClient(app, keys, 'legacy');
    other = new CheckoutClient(app, await createMerchant(app, 'Other Shop'));
  });

  it.each(['jwe', 'legacy'] as const)('creates an order from a %s payload with the documented answer', async (scheme) => {
    const reference = newReference();
    const response = await (scheme === 'jwe' ? client : legacy).createOrder(orderPayload(reference));
    expect(response.statusCode).toBe(200);
    const body = createOrderResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'success', statusCode: '01', message: 'Created order successfully' });
    expect(body.data.order).toMatchObject({ reference, amount: 5000, statusId: 1, status: 'Initiated', currency: 'NGN', orderPaymentReference: null, narration: 'Two tickets' });
    expect(body.data.order.processorReference).toMatch(/^CKO[A-Z0-9]{17}$/);
    expect(body.data.customer).toEqual({ email: 'ada@example.test', firstName: 'Ada', lastName: 'Obi', mobile: '+2348012345678', country: 'NG' });
    expect(body.data.payment).toEqual({ code: null, source: 'browser', selectedOption: null, accountNumber: null, bankProviderName: null });
    expect(body.data.otherPaymentOptions).toEqual([
      { code: 'C', name: 'Card Payment', currency: 'NGN' },
      { code: 'bank-transfer', name: 'Pay With Bank Transfer', currency: 'NGN' },
    ]);
    expect(body.data.savedCards).toEqual([]);
    expect(body.data.subsidiaryOrderSummary).toEqual({
      orderName: `Acme Stores Order ${reference}`,
      totalAmount: 5000,
      reference,
      currency: 'NGN',
      orderItems: [{ name: 'Summary', amount: 5000 }],
    });
    expect(body.data.subsidiary.name).toBe('Acme Stores');
  });

  it('keeps line items and checks that they add up to the amount', async () => {
    const items = [{ name: 'Ticket', amount: 3000 }, { name: 'Booking fee', amount: 2000 }];
    const ok = await client.createOrder(orderPayload(newReference(), { order: { items } }));
    expect(ok.json().data.subsidiaryOrderSummary.orderItems).toEqual(items);
    const bad = await client.createOrder(orderPayload(newReference(), { order: { items: [{ name: 'Ticket', amount: 10 }] } }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The order.items field amounts must add up to order.amount.' });
  });

  it('binds keys in any casing, indented JSON with escaped slashes, and the customer aliases', async () => {
    const reference = newReference();
    const text = JSON.stringify(
      {
        Customer: { FirstName: 'Ada', LASTNAME: 'Obi', Email: 'ADA@example.test' },
        ORDER: { Amount: '100.50', Reference: reference, Currency: 'usd' },
        Payment: { redirecturl: 'https://merchant.test/return' },
      },
      null,
      2,
    ).replace(/\//g, '\\/');
    const response = await client.createOrder(text);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.order).toMatchObject({ reference, amount: 100.5, currency: 'USD' });
    expect(response.json().data.otherPaymentOptions).toEqual([{ code: 'C', name: 'Card Payment', currency: 'USD' }]);
  });

  it('refuses a reference the merchant already used for other details with CON409, but lets another merchant use it', async () => {
    const reference = newReference();
    expect((await client.createOrder(orderPayload(reference))).statusCode).toBe(200);
    for (const overrides of [{ order: { amount: 6000 } }, { order: { currency: 'USD' } }, { customer: { email: 'bola@example.test' } }, { order: { items: [{ name: 'Ticket', amount: 5000 }] } }]) {
      const again = await client.createOrder(orderPayload(reference, overrides));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ status: 'failed', statusCode: 'CON409', message: `An order with reference ${reference} already exists for this merchant with other details.`, reason: 'order_reference_taken' });
    }
    expect((await other.createOrder(orderPayload(reference))).statusCode).toBe(200);
  });

  it('gives the same order back, in its current state, when it is created again with the same details', async () => {
    const reference = newReference();
    const first = createOrderResponseSchema.parse((await client.createOrder(orderPayload(reference))).json());
    const again = await client.createOrder(orderPayload(reference, { customer: { email: 'ADA@example.test' }, payment: { RedirectUrl: 'https://merchant.test/other-tab' } }));
    expect(again.statusCode).toBe(200);
    expect(createOrderResponseSchema.parse(again.json())).toEqual(first);

    expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
    const paid = createOrderResponseSchema.parse((await client.createOrder(orderPayload(reference))).json());
    expect(paid.data.order).toMatchObject({ reference, processorReference: first.data.order.processorReference, statusId: 5, status: 'Successful' });
    expect((await client.verify(reference)).json().data.statusId).toBe(5);
  });

  it.each([
    [{ customer: { email: undefined, mobile: undefined } }, 'The customer.email field is required when customer.mobile is not given.'],
    [{ customer: { email: null, mobile: null } }, 'The customer.email field is required when customer.mobile is not given.'],
    [{ customer: { email: 'not-an-email' } }, 'The customer.email field must be a valid e-mail address.'],
    [{ customer: { firstname: '' } }, 'The customer.firstname field is required.'],
    [{ order: { amount: undefined } }, 'The order.amount field is required.'],
    [{ order: { amount: -1 } }, 'The order.amount field must be greater than 0.'],
    [{ order: { currency: 'XYZ' } }, 'The order.currency field must be an ISO 4217 currency code such as NGN or USD.'],
    [{ order: { amount: 10.001 } }, 'The order.amount field has more decimal places than NGN allows.'],
    [{ payment: { RedirectUrl: 'javascript:alert(1)' } }, 'The payment.RedirectUrl field must be an absolute http or https URL.'],
  ])('refuses %j with VAL400 naming the field', async (overrides, message) => {
    const response = await client.createOrder(orderPayload(newReference(), overrides as object));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message });
  });

  it('refuses an order without the reference field, naming it', async () => {
    const payload = orderPayload();
    delete (payload.order as { reference?: string }).reference;
    const response = await client.createOrder(payload);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The order.reference field is required.' });
  });

  it('refuses an unencrypted body with the unreadable-data VAL400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/order/create',
      headers: { 'api-key': client.keys.publishableKey },
      payload: { data: JSON.stringify(orderPayload()) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe('{"status":"failed","statusCode":"VAL400","message":"The data field could not be read."}');
  });

  it('refuses a body without data, naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': client.keys.publishableKey }, payload: orderPayload() });
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The data field is required.' });
  });

  it("answers NF404 for another merchant's order reference on status", async () => {
    const reference = await client.newOrder();
    const response = await other.status(reference);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'NF404', message: `No order with reference ${reference} exists for this merchant.` });
  });

  it('reports the status of a new order in snake case with status_code', async () => {
    const reference = await client.newOrder();
    const response = await client.status(reference);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ is_final_status: false, requery_needed: false, requery_type: null, status: 'success', status_code: '00', message: 'Order Status fetched successfully' });
    expect(body.statusCode).toBeUndefined();
    expect(body.data).toMatchObject({ order_reference: reference, payment_status: 1, payment_reference: null, total_charged_amount: 5000, currency_id: 566, currency: 'NGN' });
    for (const key of ['payment_reference', 'order_reference', 'product_id', 'subsidiary_id', 'wallet_id', 'customer_id', 'total_charged_amount', 'payment_status', 'currency_id', 'fee', 'subsidiary_fee', 'customer_fee', 'payment_type', 'payment_response_code', 'payment_response_message', 'provider_response_date', 'date_payment_confirmed', 'narration', 'remarks', 'parent_transaction_id', 'id', 'created_by', 'updated_by', 'deleted_by', 'date_created', 'date_updated', 'date_deleted']) {
      expect(body.data).toHaveProperty(key);
    }
  });

  it('logs tracked events on the order timeline, keeping no card data', async () => {
    const reference = await client.newOrder();
    const response = await client.track({ eventname: 'option-selected', orderreference: reference, option: 'C', cardnumber: '4242424242424242' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', statusCode: '00', message: 'Event logged successfully', data: null });
    const timeline = await app.orders.timeline({ merchant: (await app.merchants.find(client.keys.subsidiaryId))!, mode: 'test', kind: 'secret' }, reference);
    expect(timeline.map((entry) => entry.name)).toEqual(['order-created', 'option-selected']);
    expect(timeline[1]!.detail).toEqual({ option: 'C' });
    expect(JSON.stringify(timeline)).not.toContain('4242424242424242');
  });

  it('refuses a plain (unencrypted) event', async () => {
    const reference = await client.newOrder();
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/order/event/track',
      headers: { 'api-key': client.keys.publishableKey },
      payload: { eventname: 'opened', orderreference: reference },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().statusCode).toBe('VAL400');
  });

  it('verifies an order with the secret key only', async () => {
    const reference = await client.newOrder();
    const response = await client.verify(reference);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'success', statusCode: '00', message: 'Order details fetched successfully', data: { orderReference: reference, statusId: 1, status: 'Initiated', orderPayments: [], cardDetails: [] } });
    const withPublishable = await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': client.keys.publishableKey }, payload: { reference } });
    expect(withPublishable.statusCode).toBe(403);
    expect((await other.verify(reference)).statusCode).toBe(404);
  });

  it('creates an order from a payment link, holding it to the link amount and currency', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': client.keys.secretKey },
      payload: { Name: 'Gym', Description: 'Monthly', PaymentType: 'SUB', Currency: 'NGN', AuthOption: 'AUTH', Amount: 5000, Website: 'https://gym.test/thanks' },
    });
    const link = created.json().data.paymentLink;
    const ok = await client.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: link.id, frequencyId: 6, numberOfPayments: 12, RedirectUrl: '' } }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.order).toMatchObject({ paymentLinkId: link.id, paymentLinkReference: link.reference });
    const wrongAmount = await client.createOrder(orderPayload(newReference(), { order: { amount: 10 }, payment: { paymentlinkid: link.id } }));
    expect(wrongAmount.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: "The order.amount field must be 5000, the payment link's amount." });
    const foreign = await other.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: link.id } }));
    expect(foreign.statusCode).toBe(404);
  });
});
