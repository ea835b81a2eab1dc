import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference } from '../support/checkout.ts';
import { encryptLegacy, encryptLegacyWithFfPadding } from '../support/encrypt.ts';
import { createMerchant } from '../support/merchant.ts';
import { fakeWidgetDir } from '../support/widget-page.ts';
import * as wire from '../support/wire-tables.ts';
import { expectWireShape } from '../support/wire-types.ts';

/**
 * Round 3 of the gateway's published clients (issue 34): the TransactPay deployment's mobile SDKs and its
 * WooCommerce plugin, each request replayed as the client builds it and each answer read as the client reads it.
 * - Kotlin (transactworlddigital/paywithtransactpay_android): OkHttp, `trimIndent()`ed JSON, `{"data"}` indented
 *   the same way; `CardAuthentication` and `BankTransfer` poll `/order/status` until `JSONObject.getString("status")`
 *   is `Successful` (or `Failed`); `Transactpay_start` shows `amount + fee` from `/order/fee` as the total.
 * - iOS (TransactionWorldAI/TransactPayiOS): `JSONEncoder` (escaped slashes, `RedirectUrl: ""`), an
 *   `Authorization: Bearer` header beside `api-key`, and strict `Codable` models: a non-optional member that is
 *   missing or null, or an `Int` holding a fraction, fails the whole decode.
 * - WooCommerce (TransactionWorldAI/transactpay-wordpress): fulfils when `data.status` is `Successful`,
 *   `currencyName` is the order's, and `totalAmountCharged - fee` is the order total within 0.01.
 * - Dart (fussion-integrator/transact_pay, transact_pay_sdk): `customerId` read into a `String?`; `orderStatus`
 *   wraps its map as `{"orderId": {...}}`.
 */

/** A Swift `Codable` model: `Int` is a JSON integer, `Double` any number, `?` admits absent or null; unknown keys are ignored. */
type Swift = 'Int' | 'Int?' | 'Double' | 'Double?' | 'String' | 'String?' | 'Bool' | 'Bool?' | { [member: string]: Swift } | [Swift] | { optional: Swift };

function swiftDecodeProblems(value: unknown, model: Swift, at = '$'): string[] {
  if (typeof model === 'string') {
    const optional = model.endsWith('?');
    if (value === undefined || value === null) return optional ? [] : [`${at}: missing or null for ${model}`];
    const base = model.replace('?', '');
    const ok =
      base === 'Int' ? Number.isInteger(value) : base === 'Double' ? typeof value === 'number' : base === 'String' ? typeof value === 'string' : typeof value === 'boolean';
    return ok ? [] : [`${at}: ${JSON.stringify(value)} does not decode as ${base}`];
  }
  if (Array.isArray(model)) {
    if (!Array.isArray(value)) return [`${at}: not an array`];
    return value.flatMap((item, index) => swiftDecodeProblems(item, model[0], `${at}[${index}]`));
  }
  if ('optional' in model && Object.keys(model).length === 1) {
    return value === undefined || value === null ? [] : swiftDecodeProblems(value, model.optional as Swift, at);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${at}: not an object`];
  return Object.entries(model as Record<string, Swift>).flatMap(([key, member]) => swiftDecodeProblems((value as Record<string, unknown>)[key], member, `${at}.${key}`));
}

const expectSwiftDecodes = (value: unknown, model: Swift) => expect(swiftDecodeProblems(value, model)).toEqual([]);

/** TransactPay/CreateOrder.swift */
const IOS_CREATE_ORDER: Swift = {
  data: {
    order: { reference: 'String', processorReference: 'String', orderPaymentReference: 'String?', amount: 'Int', fee: 'Int', feeRate: 'Int', statusId: 'Int', status: 'String', currency: 'String', narration: 'String' },
    subsidiary: { id: 'Int', name: 'String', country: 'String', supportEmail: 'String', customization: ['String'] },
    customer: { email: 'String', firstName: 'String', lastName: 'String', mobile: 'String', country: 'String' },
    payment: { code: 'String?', source: 'String', selectedOption: 'String?', accountNumber: 'String?', bankProviderName: 'String?' },
    otherPaymentOptions: [{ code: 'String', name: 'String', currency: 'String' }],
    savedCards: [{}],
    subsidiaryOrderSummary: { orderName: 'String', totalAmount: 'Int', reference: 'String', currency: 'String', orderItems: [{ name: 'String', amount: 'Int' }] },
  },
  status: 'String',
  statusCode: 'String',
  message: 'String',
};

/** TransactPay/PayOrder.swift: PayOrderResponse */
const IOS_PAY_ORDER: Swift = {
  data: {
    paymentDetail: { redirectUrl: 'String', recipientAccount: 'String?', paymentReference: 'String' },
    bankTransferDetails: { optional: { bankCode: 'String' } },
    orderPayment: {
      orderId: 'Int', orderPaymentReference: 'String', currency: 'String', statusId: 'Int', orderPaymentResponseCode: 'String', orderPaymentResponseMessage: 'String',
      orderPaymentInstrument: 'String?', remarks: 'String', totalAmount: 'Int', fee: 'Int',
    },
  },
  status: 'String',
  statusCode: 'String',
  message: 'String',
};

/** TransactPay/PayOrder.swift: PaymentResponse, what `transactionStatus` decodes from `payment/order/status` */
const IOS_PAYMENT_RESPONSE: Swift = {
  status: 'String',
  statusCode: 'String',
  message: 'String',
  data: {
    isFinalStatus: 'Bool',
    requeryNeeded: 'Bool',
    requeryType: 'String?',
    orderSummary: {
      id: 'Int', paymentReference: 'String', orderReference: 'String', totalChargedAmount: 'Double', fee: 'Double', statusId: 'Int', status: 'String', paymentType: 'String',
      currencyId: 'Int', paymentResponseCode: 'String', paymentResponseMessage: 'String', providerResponseDate: 'String?', datePaymentConfirmed: 'String?',
      dateCreated: 'String', narration: 'String', remarks: 'String',
    },
    orderPayments: [
      {
        orderId: 'Int', orderPaymentReference: 'String', paymentOptionId: 'Int', statusId: 'Int', orderPaymentResponseCode: 'String', orderPaymentResponseMessage: 'String',
        orderPaymentInstrument: 'String?', remarks: 'String', providerReference: 'String', providerResponseCode: 'String', paymentUrl: 'String', externalReference: 'String',
        authOption: 'String?', order: 'String?', id: 'Int?', dateCreated: 'String?', dateUpdated: 'String?', dateDeleted: 'String?', createdBy: 'Int?', updatedBy: 'Int?', deletedBy: 'Int?',
      },
    ],
  },
};

/** TransactPay/Models.swift: PaymentOptionType(code:) */
const IOS_PAYMENT_OPTION_TYPES = ['BT', 'C', 'BA', 'USSD', 'BANK-TRANSFER', 'NQR'];

/** The plugin's `amounts_equal` with TRANSACTPAY_EPSILON 0.01, and the branch that completes the order. */
function wooCompletes(data: { status: string; totalAmountCharged: unknown; fee: unknown; currencyName: string }, orderTotal: number, orderCurrency: string): boolean {
  if (data.status !== 'Successful') return false;
  const amount = Number(data.totalAmountCharged) - Number(data.fee);
  return data.currencyName === orderCurrency && !(Math.abs(amount - orderTotal) > 0.01);
}

describe.each(drivers)("the gateway's mobile SDKs and WooCommerce plugin on %s", (driver) => {
  const widgetDir = fakeWidgetDir();
  beforeAll(() => writeFileSync(path.join(widgetDir, 'embed.js'), 'window.CheckoutNS = {};\n'));
  const context = useTestApp(driver, { overrides: { CHECKOUT_WIDGET_DIR: widgetDir } });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app, 'Acme Stores');
    client = new CheckoutClient(app, keys, 'legacy');
  });

  const inject = (method: InjectOptions['method'], url: string, headers: Record<string, string>, payload: string) => app.inject({ method, url, headers, payload });

  /** OkHttp with `toRequestBody("application/json; charset=utf-8")`: the body's media type is the one sent. */
  const kotlin = (url: string, plain: string, apiKey = keys.publishableKey) =>
    inject('POST', url, { accept: 'application/json', 'api-key': apiKey, 'content-type': 'application/json; charset=utf-8' }, `{\n    "data": "${encryptLegacy(keys.encryptionKey, plain)}"\n}`);

  /** `pollCheckTransaction`: the reference in a trimIndent()ed template. */
  const kotlinStatus = (reference: string) => kotlin('/payment/order/status', `{\n    "reference": "${reference}"\n}`);

  /** NetworkService.sendRequest: JSONEncoder's text encrypted into `{"data"}`, Bearer and api-key headers. */
  const swift = (url: string, json: string) =>
    inject('POST', url, { 'content-type': 'application/json', authorization: `Bearer ${keys.encryptionKey}`, 'api-key': keys.publishableKey }, JSON.stringify({ data: encryptLegacy(keys.encryptionKey, json) }));

  const swiftCreate = (reference: string, amount = 5000) =>
    swift(
      '/payment/order/create',
      `{"customer":{"firstname":"Ada","lastname":"Obi","mobile":"08031234567","country":"NG","email":"ada@example.test"},"order":{"amount":${amount},"reference":"${reference}","description":"Two tickets","currency":"NGN"},"payment":{"RedirectUrl":""}}`,
    );

  async function kotlinOrder(amount: number): Promise<string> {
    const reference = newReference('KT');
    const created = await kotlin(
      '/payment/order/create',
      `{\n    "customer": {\n        "firstname": "Ada",\n        "lastname": "Obi",\n        "mobile": "08031234567",\n        "country": "NG",\n        "email": "ada@example.test"\n    },\n    "order": {\n        "amount": ${amount},\n        "reference": "${reference}",\n        "description": "Two tickets",\n        "currency": "NGN"\n    },\n    "payment": {\n        "RedirectUrl": "https://merchant.test/return"\n    }\n}`,
    );
    expect(created.json()).toMatchObject({ statusCode: '01' });
    return reference;
  }

  describe('Kotlin SDK (polls /payment/order/status for "Successful" or "Failed")', () => {
    it('stops polling with "Successful" once the card payment authenticated', async () => {
      const reference = await kotlinOrder(5000);
      const pay = await client.pay(reference, { paymentoption: 'C', country: 'NG', card: { cardnumber: '5123450000784608', expirymonth: '01', expiryyear: '39', cvv: '193' } });
      const pending = await kotlinStatus(reference);
      expect(pending.statusCode).toBe(200);
      expect(pending.json().status).toBe('Pending');
      await client.authenticate(pay.json().data.paymentDetail.redirectUrl);
      const response = await kotlinStatus(reference);
      expectWireShape(response.json(), wire.TRANSACTPAY_STATUS);
      expect(JSON.parse(response.body).status).toBe('Successful');
    });

    it('stops polling with "Failed" when the card is declined', async () => {
      const reference = await kotlinOrder(5000);
      expect((await client.payByCard(reference, '4000000000000002')).json().statusCode).toBe('05');
      expect((await kotlinStatus(reference)).json().status).toBe('Failed');
    });

    it('shows amount + fee from /payment/order/fee as the total, which is what the transfer account asks for, merchant bearing the fee', async () => {
      const reference = await kotlinOrder(5000);
      // postEncryptedPayload: "amount": $amount with amount a Double, the option spelled "bank-transfer".
      const quote = await kotlin('/payment/order/fee', `{\n    "amount": 5000.0,\n    "currency": "NGN",\n    "paymentoption": "bank-transfer"\n}`);
      expect(quote.json().status).toBe('success');
      const shownTotal = 5000 + Number(quote.json().data.fee);
      const transfer = (await client.payByTransfer(reference)).json();
      expect(transfer.data.bankTransferDetails.amount).toBe(shownTotal);
      await client.transfer(transfer.data.bankTransferDetails.bankAccount, shownTotal);
      expect((await kotlinStatus(reference)).json().status).toBe('Successful');
    });
  });

  describe('iOS SDK (strict Codable models)', () => {
    it("decodes the create-order answer, with an empty customization list and the order's source, and offers BANK-TRANSFER", async () => {
      // The iOS model holds amount, fee and feeRate as Int: a merchant with whole-percent pricing, so the decode
      // tests the members this service controls (see decisions.md on the default 1.5 % card rate).
      const whole = await createMerchant(app, 'Whole Percent Stores');
      await app.storage.query('UPDATE merchants SET fee_rules = $2 WHERE id = $1', [
        whole.subsidiaryId,
        JSON.stringify([{ option: 'C', currency: 'NGN', percentBasisPoints: 200, bearer: 'customer' }, { option: 'bank-transfer', currency: 'NGN', percentBasisPoints: 100, bearer: 'merchant' }]),
      ]);
      const reference = newReference('IOS');
      const response = await inject(
        'POST',
        '/payment/order/create',
        { 'content-type': 'application/json', authorization: `Bearer ${whole.encryptionKey}`, 'api-key': whole.publishableKey },
        JSON.stringify({
          data: encryptLegacy(
            whole.encryptionKey,
            `{"customer":{"firstname":"Ada","lastname":"Obi","mobile":"08031234567","country":"NG","email":"ada@example.test"},"order":{"amount":5000,"reference":"${reference}","description":"Two tickets","currency":"NGN"},"payment":{"RedirectUrl":""}}`,
          ),
        }),
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expectSwiftDecodes(body, IOS_CREATE_ORDER);
      expectWireShape(body, wire.CREATE_ORDER);
      expect(body.data.subsidiary.customization).toEqual([]);
      expect(body.data.payment.source).toBe('browser');
      const codes = body.data.otherPaymentOptions.map((option: { code: string }) => option.code);
      expect(codes).toEqual(['C', 'BANK-TRANSFER']);
      // startPayment: only `.cardPayment` and `.payWithBankTransfer` lead anywhere.
      expect(codes.every((code: string) => IOS_PAYMENT_OPTION_TYPES.includes(code))).toBe(true);

      // sendCardRequest: the option's code, the card's members in camel case, then a web view on redirectUrl.
      const pay = await inject(
        'POST',
        '/payment/order/pay',
        { 'content-type': 'application/json', authorization: `Bearer ${whole.encryptionKey}`, 'api-key': whole.publishableKey },
        JSON.stringify({
          data: encryptLegacy(
            whole.encryptionKey,
            `{"reference":"${reference}","paymentOption":"${codes[0]}","country":"NG","card":{"cardNumber":"5123450000784608","expiryMonth":"01","expiryYear":"39","cvv":"193"}}`,
          ),
        }),
      );
      expectSwiftDecodes(pay.json(), IOS_PAY_ORDER);
      expect(pay.json().statusCode).toBe('02');
      expect(pay.json().data.paymentDetail.redirectUrl).toMatch(/^http/);
    });

    it('pays by BANK-TRANSFER as navigateToBankPayment sends it, decodes the answer, and sees statusId 5 once the money is in', async () => {
      const reference = newReference('IOS');
      const created = (await swiftCreate(reference)).json();
      const option = created.data.otherPaymentOptions.find((each: { code: string }) => each.code === 'BANK-TRANSFER');
      expect(option).toBeDefined();
      const pay = await swift('/payment/order/pay', `{"reference":"${reference}","paymentOption":"${option.code}","country":"NG","bankTransfer":{"bankCode":"000017"}}`);
      expect(pay.statusCode).toBe(200);
      const answer = pay.json();
      expectSwiftDecodes(answer, IOS_PAY_ORDER);
      expectWireShape(answer, wire.PAY);
      expect(answer.data.paymentDetail.redirectUrl).toBe('');
      expect(answer.data.bankTransferDetails.bankCode).toBe('999');

      const awaited = (await swift('/payment/order/status', `{"reference":"${reference}"}`)).json();
      expectWireShape(awaited, wire.TRANSACTPAY_STATUS);
      expectSwiftDecodes(awaited, IOS_PAYMENT_RESPONSE);
      expect(awaited.data.orderSummary.statusId).toBe(2);

      await client.transfer(answer.data.paymentDetail.recipientAccount, answer.data.orderPayment.totalAmount);
      const paid = (await swift('/payment/order/status', `{"reference":"${reference}"}`)).json();
      expectSwiftDecodes(paid, IOS_PAYMENT_RESPONSE);
      expect(paid.data).toMatchObject({ isFinalStatus: true, orderSummary: { statusId: 5, status: 'Successful' } });
      expect(paid.data.orderPayments).toHaveLength(1);
    });
  });

  describe('WooCommerce plugin (verify at /payment/order/verify, then its amount and currency condition)', () => {
    const wooVerify = (reference: string) =>
      inject('POST', '/payment/order/verify', { 'content-type': 'application/json', 'api-key': keys.secretKey }, JSON.stringify({ reference }));

    it('completes an NGN 5,000.00 bank-transfer order whose 0.5 % fee the merchant bears', async () => {
      const reference = `WOO_34_${Date.now()}`;
      await client.createOrder({
        customer: { firstname: 'Ada', lastname: 'Obi', mobile: '08031234567', country: 'NG', email: 'ada@example.test' },
        order: { amount: 5000, reference, description: 'Payment for Order: 34', currency: 'NGN' },
        payment: { RedirectUrl: 'https://shop.example.test/wc-api/WC_Transactpay_Payment_Gateway/?order_id=34' },
      });
      const transfer = (await client.payByTransfer(reference)).json();
      await client.transfer(transfer.data.bankTransferDetails.bankAccount, transfer.data.bankTransferDetails.amount);
      const { data } = (await wooVerify(reference)).json();
      expect(data).toMatchObject({ status: 'Successful', customerFee: 0, subsidiaryFee: 25 });
      expect(wooCompletes(data, 5000, 'NGN')).toBe(true);
      expect(wooCompletes(data, 5000, 'USD')).toBe(false);

      // The same condition on a card order, whose fee the customer bears.
      const card = `WOO_35_${Date.now()}`;
      await client.createOrder({
        customer: { firstname: 'Ada', lastname: 'Obi', mobile: '08031234567', country: 'NG', email: 'ada@example.test' },
        order: { amount: 12500, reference: card, description: 'Payment for Order: 35', currency: 'NGN' },
        payment: { RedirectUrl: 'https://shop.example.test/wc-api/WC_Transactpay_Payment_Gateway/?order_id=35' },
      });
      expect((await client.payByCard(card, '5555555555554444')).json().statusCode).toBe('00');
      const paid = (await wooVerify(card)).json().data;
      expect(paid.customerFee).toBeGreaterThan(0);
      expect(wooCompletes(paid, 12500, 'NGN')).toBe(true);
    });
  });

  describe('Dart clients', () => {
    const dart = (url: string, map: string, apiKey: string) =>
      inject('POST', url, { 'content-type': 'application/json', 'api-key': apiKey }, JSON.stringify({ data: encryptLegacyWithFfPadding(keys.encryptionKey, map) }));

    it("reads verify's customer.customerId into a String? (and Jackson reads the same value into an Integer)", async () => {
      const reference = await client.newOrder();
      const verified = (await dart('/payment/order/verify', `{"reference":"${reference}"}`, keys.secretKey)).json();
      const customerId: unknown = verified.data.customer.customerId;
      // Dart: `customerId: json["customerId"]` into `String? customerId` throws on anything but a String or null.
      expect(typeof customerId).toBe('string');
      // Jackson's default coercion: a numeric string into `Integer customerId`.
      expect(String(Number.parseInt(customerId as string, 10))).toBe(customerId);
    });

    it('asks the status with the map wrapped as orderStatus sends it ({"orderId": {...}})', async () => {
      const reference = await client.newOrder();
      const response = await dart('/payment/order/status', JSON.stringify({ orderId: { reference } }), keys.publishableKey);
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.TRANSACTPAY_STATUS);
      expect(response.json().data.orderSummary.orderReference).toBe(reference);
    });
  });

  describe("the Dart package's further calls (makeApiRequest: every body an encrypted map)", () => {
    /** `http.Request` with a String body adds `charset=utf-8` to the Content-Type it was given. */
    const dartCall = (method: InjectOptions['method'], url: string, map: string, apiKey: string) =>
      inject(method, url, { 'content-type': 'application/json; charset=utf-8', 'api-key': apiKey }, JSON.stringify({ data: encryptLegacyWithFfPadding(keys.encryptionKey, map) }));

    /** An order for a customer the merchant vouched for (a customer session), paid by card without saving it. */
    async function vouchedOrderPaid(): Promise<{ reference: string; customer: CheckoutClient }> {
      const customer = await client.asCustomer(`dart-${newReference()}`);
      const reference = await customer.newOrder({ customer: { email: 'saver@example.test' } });
      expect((await customer.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
      return { reference, customer };
    }

    it('saves the card that paid an order with PATCH /payment/order/save-card, for the merchant\'s vouched customer only', async () => {
      const { reference, customer } = await vouchedOrderPaid();
      // The package sends only the api-key: with the publishable key nobody vouches for the customer.
      const refused = await dartCall('PATCH', '/payment/order/save-card', `{"reference":"${reference}"}`, keys.publishableKey);
      expect(refused.statusCode).toBe(403);
      const saved = await dartCall('PATCH', '/payment/order/save-card', `{"reference":"${reference}"}`, keys.secretKey);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ status: 'success', statusCode: '00', data: { last4: '4444', first6: '555555', token: expect.any(String) } });
      // The customer's next order lists it; an order without the customer session lists nothing.
      const next = (await customer.createOrder({ customer: { firstname: 'Ada', lastname: 'Obi', email: 'saver@example.test', country: 'NG' }, order: { amount: 100, reference: newReference(), currency: 'NGN', description: 'Again' }, payment: { RedirectUrl: 'https://merchant.test/return' } })).json();
      expect(next.data.savedCards.map((card: { token: string }) => card.token)).toEqual([saved.json().data.token]);
      const stranger = (await client.createOrder({ customer: { firstname: 'Eve', lastname: 'Obi', email: 'saver@example.test', country: 'NG' }, order: { amount: 100, reference: newReference(), currency: 'NGN', description: 'Again' }, payment: { RedirectUrl: 'https://merchant.test/return' } })).json();
      expect(stranger.data.savedCards).toEqual([]);
    });

    it('pays with a saved card by POST /payment/order/card/tokenized/pay, with the customer\'s session or the secret key only', async () => {
      const { reference, customer } = await vouchedOrderPaid();
      const token = (await dartCall('PATCH', '/payment/order/save-card', `{"reference":"${reference}"}`, keys.secretKey)).json().data.token;
      const next = await customer.newOrder({ customer: { email: 'saver@example.test' } });
      const refused = await dartCall('POST', '/payment/order/card/tokenized/pay', `{"reference":"${next}","token":"${token}","cvv":"123"}`, keys.publishableKey);
      expect(refused.statusCode).toBe(403);
      const paid = await dartCall('POST', '/payment/order/card/tokenized/pay', `{"reference":"${next}","token":"${token}","cvv":"123"}`, keys.secretKey);
      expect(paid.statusCode).toBe(200);
      expectWireShape(paid.json(), wire.PAY);
      expect(paid.json()).toMatchObject({ statusCode: '00', data: { orderPayment: { statusId: 5, orderPaymentInstrument: 'Mastercard ****4444' } } });
    });

    it('reads a payment link by GET /payment/paymentlink/info with the reference in an encrypted GET body, for its own merchant only', async () => {
      const link = (
        await app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': keys.secretKey }, payload: { Name: 'Gala', Description: 'Dinner', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: '5000' } })
      ).json().data.paymentLink;
      const response = await dartCall('GET', '/payment/paymentlink/info', `{"reference":"${link.reference}"}`, keys.publishableKey);
      expect(response.statusCode).toBe(200);
      expectWireShape(response.json(), wire.CREATE_LINK);
      expect(response.json().data.paymentLink).toMatchObject({ id: link.id, reference: link.reference, amount: 5000 });
      const other = await createMerchant(app);
      const elsewhere = await inject('GET', `/payment/paymentlink/info?reference=${encodeURIComponent(link.reference)}`, { 'api-key': other.publishableKey }, '');
      expect(elsewhere.statusCode).toBe(404);
    });

    it('fetches the public encryption keys by POST /payment/paymentlink/get-keys, and never an api-key', async () => {
      const response = await dartCall('POST', '/payment/paymentlink/get-keys', '{}', keys.publishableKey);
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.encryptionKey).toBe(keys.encryptionKey);
      expect(data.keys.length).toBeGreaterThan(0);
      expect(response.body).not.toContain(keys.publishableKey);
      expect(response.body).not.toContain(keys.secretKey);
    });
  });

  describe('the ePayClub family keeps its answers', () => {
    it('answers status in the snake-case shape at /checkout/order/status, offers bank-transfer and lists no customization as []', async () => {
      const reference = newReference();
      const created = (await client.createOrder({
        customer: { firstname: 'Ada', lastname: 'Obi', mobile: '08031234567', country: 'NG', email: 'ada@example.test' },
        order: { amount: 5000, reference, description: 'Two tickets', currency: 'NGN' },
        payment: { RedirectUrl: 'https://merchant.test/return' },
      })).json();
      expectWireShape(created, wire.CREATE_ORDER);
      expect(created.data.subsidiary.customization).toEqual([]);
      expect(created.data.otherPaymentOptions.map((option: { code: string }) => option.code)).toEqual(['C', 'bank-transfer']);
      const pay = (await client.payByTransfer(reference)).json();
      expectWireShape(pay, wire.PAY);
      expect(pay.data.paymentDetail.redirectUrl).toBeNull();
      const status = (await client.status(reference)).json();
      expectWireShape(status, wire.STATUS);
      expect(status).toMatchObject({ status: 'success', status_code: '00' });
    });
  });

  it('serves the compatible inline script at /v1/checkout, where the WooCommerce plugin loads it', async () => {
    const script = await app.inject({ method: 'GET', url: '/v1/checkout' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body).toBe((await app.inject({ method: 'GET', url: '/embed.js' })).body);
  });
});
