import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { feeResponseSchema } from '../../shared/fees.ts';

describe.each(drivers)('fees on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app));
  });

  const quote = async (plain: object, payer = client) => {
    const response = await payer.fee(plain);
    expect(response.statusCode).toBe(200);
    return feeResponseSchema.parse(response.json()).data;
  };

  it("reproduces the gateway's published sample: USD 100 by card, fee 6, total 106", async () => {
    const response = await client.fee({ amount: 100, currency: 'USD', paymentoption: 'C' });
    expect(response.json()).toMatchObject({ status: 'success', statusCode: '00', message: 'Operation successful' });
    expect(response.json().data).toMatchObject({ fee: 6, amount: 100, subsidiaryFee: 0, customerFee: 6, totalChargedAmount: 106, paymentOption: 'C' });
  });

  it.each([
    [1000, 15, 1015],
    [2499.99, 37.5, 2537.49],
    [2500, 137.5, 2637.5],
    [100000, 1600, 101600],
    [200000, 2000, 202000],
  ])('charges NGN %d by card 1.5%% + 100 (waived under 2,500), capped at 2,000: fee %d, total %d', async (amount, fee, total) => {
    expect(await quote({ amount, currency: 'NGN', paymentmethod: 'C' })).toMatchObject({ fee, customerFee: fee, subsidiaryFee: 0, totalChargedAmount: total });
  });

  it("lets the merchant bear bank-transfer fees by default: the fee the customer adds is 0, the merchant's part is its own member", async () => {
    expect(await quote({ amount: 5000, paymentoption: 'bank-transfer' })).toMatchObject({ fee: 0, customerFee: 0, subsidiaryFee: 25, totalChargedAmount: 5000, bearer: 'merchant' });
  });

  it("applies a merchant's own rules: split bearer, flat part, cap", async () => {
    const keys = await createMerchant(app);
    await app.storage.query('UPDATE merchants SET fee_rules = $2 WHERE id = $1', [
      keys.subsidiaryId,
      JSON.stringify([{ option: 'C', currency: 'NGN', percentBasisPoints: 200, flatMinor: 5000, capMinor: 100000, bearer: 'split' }]),
    ]);
    const own = new CheckoutClient(app, keys);
    expect(await quote({ amount: 10000, currency: 'NGN', paymentoption: 'C' }, own)).toMatchObject({ fee: 125, customerFee: 125, subsidiaryFee: 125, totalChargedAmount: 10125, bearer: 'split' });
    expect(await quote({ amount: 100000, currency: 'NGN', paymentoption: 'C' }, own)).toMatchObject({ fee: 500, customerFee: 500, subsidiaryFee: 500 });
  });

  it('charges exactly the fee it quoted for the order', async () => {
    const reference = await client.newOrder({ order: { amount: 12345.67 } });
    const quoted = await quote({ amount: 12345.67, currency: 'NGN', paymentoption: 'C', reference });
    const paid = (await client.payByCard(reference, '5555555555554444')).json().data.orderPayment;
    expect(paid.fee).toBe(quoted.fee);
    expect(paid.totalAmount).toBe(quoted.totalChargedAmount);
    const verified = (await client.verify(reference)).json().data;
    expect(verified).toMatchObject({ fee: quoted.fee, customerFee: quoted.customerFee, subsidiaryFee: quoted.subsidiaryFee, totalAmountCharged: quoted.totalChargedAmount });
  });

  it('keeps charging the rules an order was created under after the merchant changes them', async () => {
    const keys = await createMerchant(app);
    const own = new CheckoutClient(app, keys);
    const reference = await own.newOrder({ order: { amount: 10000 } });
    const quoted = await quote({ amount: 10000, currency: 'NGN', paymentoption: 'C', reference }, own);
    await app.storage.query('UPDATE merchants SET fee_rules = $2 WHERE id = $1', [keys.subsidiaryId, JSON.stringify([{ option: '*', currency: '*', percentBasisPoints: 900, bearer: 'customer' }])]);
    const paid = (await own.payByCard(reference, '5555555555554444')).json().data.orderPayment;
    expect(paid.fee).toBe(quoted.fee);
  });

  it('refuses a quote for an order with a different amount, and unknown options', async () => {
    const reference = await client.newOrder();
    expect((await client.fee({ amount: 1, paymentoption: 'C', reference })).json()).toEqual({
      status: 'failed',
      statusCode: 'VAL400',
      message: 'The amount field must equal the order amount when a reference is given.',
    });
    expect((await client.fee({ amount: 1, paymentoption: 'cash' })).json().statusCode).toBe('VAL400');
    expect((await client.fee({ paymentoption: 'C' })).json().message).toBe('The amount field is required.');
  });
});
