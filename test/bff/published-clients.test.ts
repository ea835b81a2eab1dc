import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference } from '../support/checkout.ts';
import { encryptLegacy, encryptLegacyWithFfPadding } from '../support/encrypt.ts';
import { createMerchant } from '../support/merchant.ts';
import * as wire from '../support/wire-tables.ts';
import { expectWireShape } from '../support/wire-types.ts';

/**
 * What the gateway's published clients really send, byte for byte, and what they read back:
 * - the Java SDK (bajoski34/epayclub-java): Jackson writes every unset member as `null`, in field order, numbers
 *   held as Double as `1000.0`; the HttpExecutor encrypts the text with the 1016-character key into `{"data"}`,
 *   and sends PATCH without a body under `Content-Type: application/json`;
 * - the WooCommerce plugin (TransactionWorldAI/transactpay-wordpress): verifies at `/payment/order/verify` with
 *   the secret key and a plain `{"reference"}`, then reads `data.status`, `totalAmountCharged`, `fee`,
 *   `currencyName` and `paymentReference`;
 * - the Dart client (transact_pay): `jsonEncode` of a map, legacy blocks padded with 0xFF bytes, every call
 *   encrypted (verify too), banks fetched by GET with the publishable key;
 * - Kotlin's indented text and Swift's `\/` escapes.
 */
describe.each(drivers)("the gateway's published clients on %s", (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys, 'legacy');
  });

  const send = (method: InjectOptions['method'], url: string, apiKey: string, payload?: string) =>
    app.inject({ method, url, headers: { 'content-type': 'application/json', 'api-key': apiKey, 'user-agent': 'epayclub-java/1.0.0' }, payload: payload ?? '' });

  /** The Java SDK's HttpExecutor: Jackson's text encrypted into a one-member map. */
  const javaEncrypted = (url: string, jackson: string, apiKey = keys.publishableKey) =>
    send('POST', url, apiKey, `{"data":${JSON.stringify(encryptLegacy(keys.encryptionKey, jackson))}}`);

  // The README's create-order call: customer(...), order(1000.0, ...), payment(url, null, null, null), no paymentMeta.
  const jacksonOrder = (reference: string, customer = '"email":"customer@example.com","mobile":"0900000000"', payment = '{"RedirectUrl":"https://yoursite.com/callback","paymentlinkid":null,"frequencyId":null,"numberOfPayments":null}') =>
    `{"customer":{${customer},"firstname":"John","lastname":"Doe","country":"NG"},"order":{"amount":1000.0,"reference":"${reference}","currency":"NGN","description":"Payment for Order #12345"},"payment":${payment},"paymentMeta":null}`;

  const jacksonCardPay = (reference: string, number: string) =>
    `{"reference":"${reference}","paymentmethod":"C","country":"NG","card":{"cardnumber":"${number}","cvv":"193","expirymonth":"01","expiryyear":"39","billingaddress":null}}`;

  async function javaOrder(customer?: string, payment?: string): Promise<string> {
    const reference = newReference('ORDER');
    const response = await javaEncrypted('/checkout/order/create', jacksonOrder(reference, customer, payment));
    expect(response.json()).toMatchObject({ status: 'success', statusCode: '01' });
    return reference;
  }

  describe('Java SDK (Jackson, nulls included)', () => {
    it("creates an order from the README's call, with null payment members and a null paymentMeta", async () => {
      const reference = newReference('ORDER');
      const response = await javaEncrypted('/checkout/order/create', jacksonOrder(reference));
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expectWireShape(body, wire.CREATE_ORDER);
      expect(body.data.order.reference).toBe(reference);
      expect(body.data.payment.source).toBe('browser');
    });

    it('creates an order sent with "payment": null', async () => {
      const response = await javaEncrypted('/checkout/order/create', jacksonOrder(newReference('ORDER'), undefined, 'null'));
      expect(response.json()).toMatchObject({ status: 'success', statusCode: '01' });
    });

    it('creates orders for a customer with a mobile number and "email": null, each keeping the details it was made with', async () => {
      const customer = '"email":null,"mobile":"08031234567"';
      const first = await javaEncrypted('/checkout/order/create', jacksonOrder(newReference('ORDER'), customer));
      expect(first.statusCode).toBe(200);
      expect(first.json().data.customer).toEqual({ email: null, firstName: 'John', lastName: 'Doe', mobile: '08031234567', country: 'NG' });
      const reference = newReference('ORDER');
      const second = await javaEncrypted('/checkout/order/create', jacksonOrder(reference, customer).replace('"firstname":"John"', '"firstname":"Jane"'));
      expect(second.json().data.customer).toMatchObject({ firstName: 'Jane', mobile: '08031234567' });
      expect((await client.verify(first.json().data.order.reference)).json().data.customer).toMatchObject({ firstName: 'John', mobile: '08031234567' });
    });

    it('refuses a customer with neither e-mail nor mobile, naming e-mail as required only for that reason', async () => {
      const response = await javaEncrypted('/checkout/order/create', jacksonOrder(newReference('ORDER'), '"email":null,"mobile":null'));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('The customer.email field is required when customer.mobile is not given.');
    });

    it('quotes the fee from its FeeRequest', async () => {
      const response = await javaEncrypted('/checkout/order/fee', '{"amount":1000.0,"paymentmethod":"C"}');
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.FEE);
    });

    it('pays by card with "billingaddress": null, authenticates, and reads status and verify in its own types', async () => {
      const reference = await javaOrder();
      const pay = await javaEncrypted('/checkout/order/pay', jacksonCardPay(reference, '5123450000784608'));
      expect(pay.statusCode).toBe(200);
      const answer = pay.json();
      expectWireShape(answer, wire.PAY);
      expect(answer).toMatchObject({ statusCode: '02', message: 'pending-authenticaion' });
      await client.authenticate(answer.data.paymentDetail.redirectUrl);

      const status = await javaEncrypted('/checkout/order/status', `{"reference":"${reference}"}`);
      expectWireShape(status.json(), wire.STATUS);
      expect(status.json().data).toMatchObject({ payment_status: 5, currency_id: 566, created_by: -1, product_id: 1 });

      const verify = await send('POST', '/checkout/order/verify', keys.secretKey, `{"reference":"${reference}"}`);
      expect(verify.statusCode).toBe(200);
      const verified = verify.json();
      expectWireShape(verified, wire.VERIFY);
      // VerifyOrderResponse.getVerified() is true when orderPayments is not empty.
      expect(verified.data.orderPayments.length).toBeGreaterThan(0);
      expect(verified.data).toMatchObject({ productName: 'Collection', currencyId: 566, status: 'Successful' });
      expect(verified.data.cardDetails[0]).toMatchObject({ status: true, cardExpiryMonth: '01', cardExpiryYear: '39', cardLastFourDigits: '4608' });
    });

    it('verifies with the body encrypted by its service and the secret key', async () => {
      const reference = await javaOrder();
      const plain = (await send('POST', '/checkout/order/verify', keys.secretKey, `{"reference":"${reference}"}`)).json();
      const encrypted = await javaEncrypted('/checkout/order/verify', `{"reference":"${reference}"}`, keys.secretKey);
      expect(encrypted.statusCode).toBe(200);
      expect(encrypted.json()).toEqual(plain);
    });

    it('starts a bank transfer sent with "card": null', async () => {
      const reference = await javaOrder();
      const response = await javaEncrypted('/checkout/order/pay', `{"reference":"${reference}","paymentmethod":"bank-transfer","country":"NG","card":null}`);
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.PAY);
      expect(response.json().data.bankTransferDetails.bankAccount).toMatch(/^\d{10}$/);
    });

    it('reads the frequencies with integer creators (-1 for the system)', async () => {
      const response = await send('GET', '/checkout/frequencies', keys.publishableKey);
      expectWireShape(response.json(), wire.FREQUENCIES);
      expect(response.json().data.every((frequency: { createdBy: unknown }) => frequency.createdBy === -1)).toBe(true);
    });

    it("creates a link with its nulls and reads the link type's short code as paymentLinkCode", async () => {
      const response = await send(
        'POST',
        '/checkout/links/create',
        keys.secretKey,
        '{"Name":"Spring sale","Description":"Two tickets","Amount":5800.5,"Currency":"NGN","PaymentType":"SC","Website":null,"AuthOption":"AUTH","Mobile":null,"BackgroundImage":null,"Limit":null}',
      );
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.CREATE_LINK);
      expect(response.json().data.paymentLink).toMatchObject({ paymentLinkCode: 'SC', amount: 5800.5, limit: 0 });
      expect(response.json().data.paymentLink.supportCode).toMatch(/^PL[A-Z0-9]{10}$/);
    });

    it('edits a link with its nulls, disables and activates it without a body, and lists and types links', async () => {
      const created = (
        await send('POST', '/checkout/links/create', keys.secretKey, '{"Name":"Gala","Description":"Dinner","Amount":null,"Currency":"NGN","PaymentType":"MC","Website":null,"AuthOption":"NOAUTH","Mobile":null,"BackgroundImage":null,"Limit":null}')
      ).json().data.paymentLink;
      const edit = await send(
        'PATCH',
        `/checkout/links/${created.id}/edit`,
        keys.secretKey,
        '{"id":null,"Name":"Gala night","Description":null,"PaymentType":null,"Amount":"6000","Mobile":null,"BackgroundImage":null,"Website":null,"AuthOption":null,"Limit":null}',
      );
      expect(edit.statusCode).toBe(200);
      expectWireShape(edit.json(), wire.CREATE_LINK);
      expect(edit.json().data.paymentLink).toMatchObject({ name: 'Gala night', description: 'Dinner', amount: 6000, paymentType: 'MC', reference: created.reference, paymentLinkUrl: created.paymentLinkUrl });

      for (const action of ['disable', 'activate']) {
        const response = await send('PATCH', `/checkout/links/${created.id}/status/${action}`, keys.secretKey);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ status: 'success', statusCode: '00', message: 'Payment link status updated successfully', data: null });
      }

      const list = await send('GET', '/checkout/links/all', keys.secretKey);
      expectWireShape(list.json(), wire.LINK_LIST);
      const types = await send('GET', '/checkout/links/types', keys.secretKey);
      expectWireShape(types.json(), wire.LINK_TYPES);
      expect(types.json().paymentLinkTypes.map((type: { code: string; id: number }) => [type.code, type.id])).toEqual([['SC', 1], ['MC', 2], ['SUB', 5]]);
    });

    it('reads the banks', async () => {
      const response = await send('GET', '/checkout/banks', keys.secretKey);
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.BANKS);
    });
  });

  describe('WooCommerce plugin', () => {
    it('verifies at /payment/order/verify with a plain body and reads a paid order it can fulfil', async () => {
      const reference = `WOO_12_${Date.now()}`;
      await client.createOrder({
        customer: { firstname: 'Ada', lastname: 'Obi', mobile: '08031234567', country: 'NG', email: 'ada@example.test' },
        order: { amount: 12500, reference, description: 'Payment for Order: 12', currency: 'NGN' },
        payment: { RedirectUrl: 'https://shop.example.test/wc-api/WC_Transactpay_Payment_Gateway/?order_id=12' },
      });
      expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');

      // wp_json_encode(['reference' => $txn_ref], JSON_UNESCAPED_SLASHES), Content-Type and api-key headers only.
      const response = await app.inject({
        method: 'POST',
        url: '/payment/order/verify',
        headers: { 'content-type': 'application/json', 'api-key': keys.secretKey },
        payload: `{"reference":"${reference}"}`,
      });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.status).toBe('Successful');
      expect(data.currencyName).toBe('NGN');
      // The plugin fulfils when totalAmountCharged - fee equals the order total (within an epsilon).
      expect(Math.abs(data.totalAmountCharged - data.fee - 12500)).toBeLessThan(0.01);
      expect(typeof data.paymentReference).toBe('string');
    });
  });

  describe('Dart client (jsonEncode of a map, 0xFF padding, everything encrypted)', () => {
    const dart = (url: string, map: string, apiKey: string, method: InjectOptions['method'] = 'POST') =>
      send(method, url, apiKey, JSON.stringify({ data: encryptLegacyWithFfPadding(keys.encryptionKey, map) }));

    it('creates an order, verifies it encrypted, and fetches the banks by GET with the publishable key', async () => {
      const reference = newReference('DART');
      const created = await dart(
        '/payment/order/create',
        `{"customer":{"firstname":"Ada","lastname":"Obi","mobile":"08031234567","country":"NG","email":"ada@example.test"},"order":{"amount":100,"reference":"${reference}","description":"Pay","currency":"NGN"},"payment":{"RedirectUrl":"https://add-you-webhook"}}`,
        keys.publishableKey,
      );
      expect(created.json()).toMatchObject({ statusCode: '01' });
      const verify = await dart('/payment/order/verify', `{"reference":"${reference}"}`, keys.secretKey);
      expect(verify.statusCode).toBe(200);
      expect(verify.json().data.orderReference).toBe(reference);
      const banks = await dart('/payment/banks', '{}', keys.publishableKey, 'GET');
      expect(banks.statusCode).toBe(200);
      expect(banks.json().data.some((bank: { bankCode: string }) => bank.bankCode === '999')).toBe(true);
    });
  });

  describe('Kotlin and Swift text', () => {
    it("creates orders from Kotlin's indented text and Swift's escaped slashes", async () => {
      const kotlinReference = newReference('KT');
      const kotlin = JSON.stringify(
        { customer: { firstname: 'Ada', lastname: 'Obi', mobile: '08031234567', country: 'NG', email: 'ada@example.test' }, order: { amount: 5000, reference: kotlinReference, description: 'Two tickets', currency: 'NGN' }, payment: { RedirectUrl: 'https://merchant.test/return' } },
        null,
        4,
      );
      expect((await javaEncrypted('/checkout/order/create', kotlin)).json()).toMatchObject({ statusCode: '01' });
      const swiftReference = newReference('SW');
      const swift = `{"order":{"amount":5000,"currency":"NGN","description":"Two tickets","reference":"${swiftReference}"},"customer":{"country":"NG","email":"ada@example.test","firstname":"Ada","lastname":"Obi","mobile":"08031234567"},"payment":{"RedirectUrl":"https:\\/\\/merchant.test\\/return"}}`;
      const response = await javaEncrypted('/payment/order/create', swift);
      expect(response.json()).toMatchObject({ statusCode: '01' });
    });
  });
});
