import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import * as wire from '../support/wire-tables.ts';
import { expectWireShape, shapeProblems } from '../support/wire-types.ts';

/** Every answer, in the states that change which members are null, checked member by member against the seed's types. */
describe.each(drivers)("answers in the seed's types on %s", (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys);
  });

  const verify = (reference: string) => client.verify(reference).then((response) => response.json());

  it('the table checker catches a string where the seed has an integer, and a member it does not know', () => {
    expect(shapeProblems({ currency_id: 'NGN', extra: 1 }, { currency_id: 'int' })).toEqual(['$.extra: not in the table', '$.currency_id: "NGN" is not int']);
  });

  it('a new order: create, status and verify before any payment', async () => {
    const reference = newReference();
    expectWireShape((await client.createOrder(orderPayload(reference))).json(), wire.CREATE_ORDER);
    const status = (await client.status(reference)).json();
    expectWireShape(status, wire.STATUS);
    expect(status.data).toMatchObject({ currency_id: 566, currency: 'NGN', product_id: 1, wallet_id: keys.subsidiaryId, created_by: -1, updated_by: -1 });
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data).toMatchObject({ productName: 'Collection', currencyId: 566, paymentLinkId: null, recurringPaymentId: null, orderPayments: [], cardDetails: [] });
  });

  it('a decline with fractional amounts: every amount a JSON number', async () => {
    const reference = await client.newOrder({ order: { amount: 3033 } });
    const declined = (await client.payByCard(reference, '4000000000000002')).json();
    expectWireShape(declined, wire.PAY);
    expect(declined).toMatchObject({ status: 'failed', statusCode: '05' });
    expect(declined.data.orderPayment).toMatchObject({ totalAmount: 3178.5, fee: 145.5 });
    expectWireShape((await client.status(reference)).json(), wire.STATUS);
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data.orderPayments[0]).toMatchObject({ paymentOptionId: 1, paymentOption: 'C', status: 'Failed', responseCode: '05', statusId: 4 });
    expect(verified.data.cardDetails[0]).toMatchObject({ status: false, cardToken: null });
  });

  it('a bank transfer awaited, then paid', async () => {
    const reference = await client.newOrder();
    const pending = (await client.payByTransfer(reference)).json();
    expectWireShape(pending, wire.PAY);
    expectWireShape((await client.status(reference)).json(), wire.STATUS);
    await client.transfer(pending.data.bankTransferDetails.bankAccount, pending.data.bankTransferDetails.amount);
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data.orderPayments[0]).toMatchObject({ paymentOptionId: 2, paymentOption: 'bank-transfer', status: 'Successful', responseCode: '00' });
  });

  it('a link order paid with a saved card: the link in verify and the card token in its details', async () => {
    const link = (
      await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey },
        payload: { Name: 'Gala', Description: 'Dinner', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: '5000' },
      })
    ).json().data.paymentLink;
    const customer = await client.asCustomer('saver');
    const reference = await customer.newOrder({ payment: { paymentlinkid: link.id }, customer: { email: 'saver@example.test' } });
    expect((await customer.payByCard(reference, '5555555555554444', { save: true })).json().statusCode).toBe('00');
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data).toMatchObject({ paymentLinkId: link.id, paymentLinkReference: link.reference, paymentLink: { paymentCount: 1, paymentLinkCode: 'MC' } });
    expect(verified.data.cardDetails[0].cardToken).toEqual(expect.any(String));
    expect(verified.data.customer).toMatchObject({ emailAddress: 'saver@example.test', customerId: expect.stringMatching(/^\d+$/), countryShortName: 'NG' });
  });

  it('a refunded order: the refund answer, status and verify with its refunds', async () => {
    const reference = await client.newOrder({ order: { amount: 3033 } });
    expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
    const refund = (body: object) => app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference, ...body } });
    const partial = (await refund({ amount: 100.5, reason: 'Damaged' })).json();
    expectWireShape(partial, wire.REFUND);
    expect(partial.data.refund).toMatchObject({ amount: 100.5, statusId: 5, reason: 'Damaged' });
    const declined = (await refund({ amount: 100.05 })).json();
    expectWireShape(declined, wire.REFUND);
    expect(declined.data.refund).toMatchObject({ statusId: 4, responseCode: '05', processorReference: null, reason: null });
    const full = (await refund({})).json();
    expectWireShape(full, wire.REFUND);
    expect(full.data.order).toMatchObject({ statusId: 6, amountRefundable: 0 });
    const status = (await client.status(reference)).json();
    expectWireShape(status, wire.STATUS);
    expect(status.data).toMatchObject({ payment_status: 6, amount_refunded: 3178.5 });
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data).toMatchObject({ statusId: 6, status: 'Reversed', amountRefunded: 3178.5, amountRefundable: 0 });
    expect(verified.data.refunds.map((each: { statusId: number }) => each.statusId)).toEqual([5, 4, 5]);
  });

  it('a customer known only by a mobile number', async () => {
    const reference = await client.newOrder({ customer: { email: undefined, mobile: '08031234567' } });
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data.customer).toMatchObject({ emailAddress: null, mobileNumber: '08031234567' });
  });

  it('the catalogues and link answers', async () => {
    const headers = { 'api-key': keys.secretKey };
    expectWireShape((await app.inject({ method: 'GET', url: '/checkout/frequencies', headers })).json(), wire.FREQUENCIES);
    expectWireShape((await app.inject({ method: 'GET', url: '/checkout/banks', headers })).json(), wire.BANKS);
    expectWireShape((await app.inject({ method: 'GET', url: '/checkout/links/types', headers })).json(), wire.LINK_TYPES);
    expectWireShape((await app.inject({ method: 'GET', url: '/checkout/links/all', headers })).json(), wire.LINK_LIST);
    expectWireShape((await client.fee({ amount: 100, currency: 'USD', paymentoption: 'C' })).json(), wire.FEE);
  });

  it("a subscription: its orders, the link's list of subscriptions, and the cancel answer", async () => {
    const headers = { 'api-key': keys.secretKey };
    const link = (
      await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers,
        payload: { Name: 'Box', Description: 'Monthly box', PaymentType: 'SUB', Currency: 'NGN', AuthOption: 'AUTH', Amount: '5000', NumberOfPayments: 6 },
      })
    ).json();
    expectWireShape(link, wire.CREATE_LINK);
    const linkId = link.data.paymentLink.id;
    const reference = newReference();
    const created = (await client.createOrder(orderPayload(reference, { payment: { paymentlinkid: linkId } }))).json();
    expectWireShape(created, wire.CREATE_ORDER);
    expect(created.data.order).toMatchObject({ frequencyId: 6, numberOfPayments: 6 });
    const paid = (await client.payByCard(reference, '4242424242424242')).json();
    await client.authenticate(paid.data.paymentDetail.redirectUrl);
    const verified = await verify(reference);
    expectWireShape(verified, wire.VERIFY);
    expect(verified.data).toMatchObject({ recurringPaymentId: expect.any(Number), recurringPaymentReference: expect.any(String) });
    const list = (await app.inject({ method: 'GET', url: `/checkout/links/${linkId}/subscriptions`, headers })).json();
    expectWireShape(list, wire.SUBSCRIPTION_LIST);
    expect(list.data).toHaveLength(1);
    const cancelled = await app.inject({ method: 'PATCH', url: `/checkout/links/recurringpayment/${verified.data.recurringPaymentId}/cancel`, headers });
    expectWireShape(cancelled.json(), wire.RECURRING_PAYMENT_CANCELLED);
  });
});
