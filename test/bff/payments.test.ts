import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { card, cardDataIn, CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { encryptJwe } from '../support/encrypt.ts';
import { createMerchant } from '../support/merchant.ts';
import { payOrderResponseSchema, orderStatusResponseSchema } from '../../shared/payments.ts';
import { TEST_CARDS } from '../../bff/processor/sandbox/processor.ts';

describe.each(drivers)('card payments on %s', (driver) => {
  const context = useTestApp(driver, { overrides: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  let app: FastifyInstance;
  let client: CheckoutClient;
  let legacy: CheckoutClient;
  let other: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    const keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys);
    legacy = new CheckoutClient(app, keys, 'legacy');
    other = new CheckoutClient(app, await createMerchant(app));
  });

  it('approves a Luhn-valid card without authentication when the order does not ask for it', async () => {
    const reference = await client.newOrder();
    const response = await client.payByCard(reference, '5555 5555 5555 4444');
    expect(response.statusCode).toBe(200);
    const body = payOrderResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'success', statusCode: '00' });
    expect(body.data.orderPayment).toMatchObject({ statusId: 5, orderPaymentResponseCode: '00', orderPaymentInstrument: 'Mastercard ****4444', totalAmount: 5175, fee: 175 });
    const verified = (await client.verify(reference)).json().data;
    expect(verified).toMatchObject({ statusId: 5, status: 'Successful', totalAmountCharged: 5175, fee: 175, customerFee: 175, subsidiaryFee: 0 });
    expect(verified.cardDetails).toEqual([expect.objectContaining({ cardType: 'mastercard', cardFirstSixDigits: '555555', cardLastFourDigits: '4444' })]);
  });

  it.each([
    ['5123450000784608', 'jwe'],
    ['4242424242424242', 'legacy'],
  ] as const)('sends %s to 3-D Secure (%s payload) and approves after the customer authenticates', async (number, scheme) => {
    const payer = scheme === 'jwe' ? client : legacy;
    const reference = await payer.newOrder();
    const response = await payer.payByCard(reference, number);
    const body = payOrderResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'success', statusCode: '02', message: 'pending-authenticaion' });
    expect(body.data.orderPayment).toMatchObject({ statusId: 2, orderPaymentResponseCode: '02', orderPaymentResponseMessage: 'pending-authenticaion', remarks: 'Order payment initiated' });
    expect(body.data.bankTransferDetails).toBeNull();
    expect(body.data.paymentDetail.recipientAccount).toBeNull();
    expect(body.data.paymentDetail.redirectUrl).toBe(`https://pay.example.test/checkout/3ds/${body.data.paymentDetail.paymentReference}`);

    const pending = orderStatusResponseSchema.parse((await payer.status(reference)).json());
    expect(pending).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });

    const back = await payer.authenticate(body.data.paymentDetail.redirectUrl!);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`https://merchant.test/return?reference=${reference}&status=successful`);
    const done = orderStatusResponseSchema.parse((await payer.status(reference)).json());
    expect(done).toMatchObject({ is_final_status: true, requery_needed: false, data: { payment_status: 5, payment_response_code: '00' } });
  });

  it('fails the payment when the customer fails authentication, and lets them retry with another card', async () => {
    const reference = await client.newOrder();
    const first = (await client.payByCard(reference, '4242424242424242')).json();
    const back = await client.authenticate(first.data.paymentDetail.redirectUrl, 'fail');
    expect(back.headers.location).toBe(`https://merchant.test/return?reference=${reference}&status=failed`);
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 4, payment_response_code: '05' } });

    const retry = (await client.payByCard(reference, '5123450000784608')).json();
    expect(retry.statusCode).toBe('02');
    await client.authenticate(retry.data.paymentDetail.redirectUrl);
    const verified = (await client.verify(reference)).json().data;
    expect(verified.statusId).toBe(5);
    expect(verified.orderPayments.map((payment: { statusId: number }) => payment.statusId)).toEqual([4, 5]);
  });

  it('allows three tries at the one-time code, then fails the payment', async () => {
    const reference = await client.newOrder();
    const pay = (await client.payByCard(reference, '4242424242424242')).json();
    const path = new URL(pay.data.paymentDetail.redirectUrl).pathname;
    const first = await client.authenticate(pay.data.paymentDetail.redirectUrl, 'wrong-code');
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(path);
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('That code is not correct. 2 attempts left.');
    await client.authenticate(pay.data.paymentDetail.redirectUrl, 'wrong-code');
    const third = await client.authenticate(pay.data.paymentDetail.redirectUrl, 'wrong-code');
    expect(third.statusCode).toBe(303);
    expect(third.headers.location).toContain('status=failed');
  });

  it('declines after authentication for the 3-D Secure decline card', async () => {
    const reference = await client.newOrder();
    const pay = (await client.payByCard(reference, '4000008400001629')).json();
    await client.authenticate(pay.data.paymentDetail.redirectUrl);
    expect((await client.status(reference)).json().data).toMatchObject({ payment_status: 4, payment_response_code: '05' });
  });

  it('replaying a finished authentication changes nothing and only leads back to the page, which says it is finished', async () => {
    const reference = await client.newOrder();
    const pay = (await client.payByCard(reference, '4242424242424242')).json();
    await client.authenticate(pay.data.paymentDetail.redirectUrl);
    const path = new URL(pay.data.paymentDetail.redirectUrl).pathname;
    const replay = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=fail&code=' });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe(path);
    expect((await client.verify(reference)).json().data.statusId).toBe(5);
  });

  const declines = TEST_CARDS.filter((entry) => !entry.authenticate && entry.code !== '00');
  it.each(declines.map((entry) => [entry.number, entry.code] as const))('declines test card %s with code %s', async (number, code) => {
    const reference = await client.newOrder();
    const response = await client.payByCard(reference, number);
    expect(response.statusCode).toBe(200);
    const body = payOrderResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'failed', statusCode: code });
    expect(body.data.orderPayment).toMatchObject({ statusId: 4, orderPaymentResponseCode: code });
    const status = (await client.status(reference)).json();
    expect(status).toMatchObject({ is_final_status: true, requery_needed: code === '91', data: { payment_status: 4, payment_response_code: code } });
  });

  it('declines a number that fails the Luhn check with 14 and an expired card with 54', async () => {
    const luhn = (await client.payByCard(await client.newOrder(), '4242424242424241')).json();
    expect(luhn).toMatchObject({ status: 'failed', statusCode: '14', message: 'Invalid card number' });
    const expired = (await client.payByCard(await client.newOrder(), '5555555555554444', { expirymonth: 1, expiryyear: 2020 })).json();
    expect(expired).toMatchObject({ status: 'failed', statusCode: '54', message: 'Expired card' });
  });

  it.each([139, 9999, '139', 1999, 2100, -1])('refuses the implausible expiry year %s with VAL400 naming the field', async (year) => {
    const reference = await client.newOrder();
    const response = await client.payByCard(reference, '5555555555554444', { expiryyear: year });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The card.expiryyear field must be a two- or four-digit year (39 or 2039).' });
    expect((await client.verify(reference)).json().data.orderPayments).toEqual([]);
  });

  it('refuses an expiry more than 20 years ahead with VAL400, and still declines a past one with 54', async () => {
    const year = new Date().getUTCFullYear() + 21;
    const far = await client.payByCard(await client.newOrder(), '5555555555554444', { expiryyear: year });
    expect(far.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The card.expiryyear field must be at most 20 years ahead.' });
    const past = await client.payByCard(await client.newOrder(), '5555555555554444', { expirymonth: 12, expiryyear: 24 });
    expect(past.json()).toMatchObject({ status: 'failed', statusCode: '54' });
  });

  it('quotes the fee and logs an event from legacy RSA payloads', async () => {
    const quote = await legacy.fee({ amount: 100, currency: 'USD', paymentoption: 'C' });
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toMatchObject({
      status: 'success',
      statusCode: '00',
      message: 'Operation successful',
      data: { fee: 6, amount: 100, subsidiaryFee: 0, customerFee: 6, totalChargedAmount: 106, paymentOption: 'C' },
    });
    const reference = await legacy.newOrder();
    const tracked = await legacy.track({ eventname: 'checkout-opened', orderreference: reference });
    expect(tracked.statusCode).toBe(200);
    expect(tracked.json()).toEqual({ status: 'success', statusCode: '00', message: 'Event logged successfully', data: null });
  });

  it('creates, pays and reads an order with RSA-OAEP-256 JWE payloads', async () => {
    const reference = newReference();
    const post = async (url: string, plain: unknown) =>
      app.inject({ method: 'POST', url, headers: { 'api-key': client.keys.publishableKey }, payload: { data: await encryptJwe(app, client.keys.publishableKey, plain, 'RSA-OAEP-256') } });
    const created = await post('/checkout/order/create', orderPayload(reference));
    expect(created.json()).toMatchObject({ status: 'success', statusCode: '01', data: { order: { reference, statusId: 1 } } });
    const paid = await post('/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') });
    expect(paid.json()).toMatchObject({ status: 'success', statusCode: '00' });
    const status = await post('/checkout/order/status', { reference });
    expect(status.json()).toMatchObject({ status_code: '00', is_final_status: true, data: { order_reference: reference, payment_status: 5 } });
  });

  it('accepts payload variants: aliases, spaced card numbers, four-digit years, BT codes', async () => {
    const reference = await client.newOrder();
    const response = await client.post('/checkout/order/pay', {
      Reference: reference,
      paymentMethod: 'card',
      Card: { cardNumber: '5555 5555 5555 4444', expiryMonth: 12, expiryYear: 2031, CVV: '123', billingAddress: { street: '1 Marina', city: 'Lagos', zipCode: '100001' } },
    });
    expect(response.json()).toMatchObject({ statusCode: '00' });
    const transfer = await client.post('/checkout/order/pay', { reference: await client.newOrder(), paymentOption: 'BT', bankTransfer: { bankCode: '999' } });
    expect(transfer.json()).toMatchObject({ statusCode: '02' });
    const upper = await client.post('/checkout/order/pay', { reference: await client.newOrder(), PAYMENTMETHOD: 'BANK-TRANSFER', BankTransfer: { bankcode: '999' } });
    expect(upper.json()).toMatchObject({ statusCode: '02' });
    const withPin = await client.post('/checkout/order/pay', {
      reference: await client.newOrder(),
      paymentoption: 'C',
      card: { cardnumber: '5061460410120223210', expirymonth: '09', expiryyear: '2032', cvv: '123', pin: '1234' },
    });
    expect(withPin.json()).toMatchObject({ statusCode: '00', data: { orderPayment: { orderPaymentInstrument: 'Verve ****3210' } } });
  });

  it('refuses to pay an order that is already paid with CON409', async () => {
    const reference = await client.newOrder();
    expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
    const again = await client.payByCard(reference, '5555555555554444');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'failed', statusCode: 'CON409', message: 'This order has already been paid.', reason: 'order_already_paid' });
  });

  it("answers NF404 when paying another merchant's order", async () => {
    const reference = await client.newOrder();
    const response = await other.payByCard(reference, '5555555555554444');
    expect(response.statusCode).toBe(404);
  });

  it('refuses a card payment without card details, naming the field', async () => {
    const response = await client.pay(await client.newOrder(), { paymentoption: 'C' });
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The card field is required.' });
    const noNumber = await client.pay(await client.newOrder(), { paymentoption: 'C', card: { expirymonth: 1, expiryyear: 39, cvv: '123' } });
    expect(noNumber.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The card.cardnumber field is required.' });
    const bad = await client.pay(await client.newOrder(), { paymentoption: 'crypto' });
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The paymentoption field must be one of C, bank-transfer.' });
  });

  it("saves a card on request for a customer the merchant vouched for and pays with it next time by token and CVV", async () => {
    const customer = await client.asCustomer(`customer-${Date.now()}`);
    const first = await customer.newOrder();
    expect((await customer.payByCard(first, '5555555555554444', { save: true })).json().statusCode).toBe('00');

    const second = await customer.createOrder(orderPayload());
    const saved = second.json().data.savedCards;
    expect(saved).toEqual([{ token: expect.stringMatching(/^sbx_card_/), brand: 'mastercard', first6: '555555', last4: '4444', expiry: '01/39' }]);
    const reference = second.json().data.order.reference;
    const paid = await customer.pay(reference, { paymentoption: 'C', cardToken: saved[0].token, card: { cvv: '123' } });
    expect(paid.json()).toMatchObject({ statusCode: '00', data: { orderPayment: { orderPaymentInstrument: 'Mastercard ****4444' } } });

    const stranger = await client.asCustomer('stranger');
    const strangers = await stranger.newOrder();
    expect((await stranger.pay(strangers, { paymentoption: 'C', cardToken: saved[0].token, card: { cvv: '123' } })).statusCode).toBe(404);
  });

  it('keeps card numbers and CVVs out of every stored row', async () => {
    const customer = await client.asCustomer('row-checker');
    const reference = await customer.newOrder();
    expect((await customer.payByCard(reference, '5555555555554444', { cvv: '987', save: true })).json().statusCode).toBe('00');
    expect(await app.storage.query('SELECT token FROM saved_cards')).not.toEqual([]);
    for (const table of ['orders', 'order_payments', 'order_events', 'saved_cards', 'customers']) {
      const rows = await app.storage.query<{ text: string }>(`SELECT row_to_json(t)::text AS text FROM ${table} t`);
      const text = rows.map((row) => row.text).join('\n');
      expect(cardDataIn(text, { number: '5555555555554444', cvv: '987' }), table).toEqual([]);
    }
  });
});
