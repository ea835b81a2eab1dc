import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/** Input a careless or hostile client sends: it gets the VAL400 envelope or is ignored, never a 500 or a stored secret. */
describe.each(drivers)('hostile input on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let client: CheckoutClient;

  const link = { Name: 'Tickets', Description: 'Two tickets', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH' };
  const createLink = (payload: object | string) =>
    app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': client.keys.secretKey, 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const invalidField = (message: string) => ({ status: 'failed', statusCode: 'VAL400', message });

  async function storedPaymentMeta(reference: string): Promise<unknown> {
    const rows = await app.storage.query<{ payment_meta: unknown }>('SELECT payment_meta FROM orders WHERE reference = $1', [reference]);
    return rows[0]?.payment_meta;
  }

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app));
  });

  it('refuses a NUL character in a query or a body with VAL400 and stores nothing, wherever it is carried', async () => {
    const headers = { 'api-key': client.keys.secretKey };
    const info = await app.inject({ method: 'GET', url: '/checkout/paymentlink/info?reference=%00', headers });
    expect(info.statusCode).toBe(400);
    expect(info.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400', reason: 'invalid_field' });
    const before = await app.inject({ method: 'GET', url: '/checkout/settings', headers });
    const settings = await app.inject({ method: 'PATCH', url: '/checkout/settings', headers, payload: { Name: '\u0000' } });
    expect(settings.statusCode).toBeLessThan(500);
    expect(settings.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400' });
    expect((await app.inject({ method: 'GET', url: '/checkout/settings', headers })).body).toBe(before.body);
  });

  describe('keys named like Object.prototype members', () => {
    it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__'])('ignores %s in an encrypted payload, top level or nested', async (key) => {
      const status = await client.post('/checkout/order/status', JSON.parse(`{"reference":"NOPE-1",${JSON.stringify(key)}:1}`));
      expect(status.statusCode).toBe(404);
      expect(status.json()).toMatchObject({ statusCode: 'NF404' });

      const reference = await client.newOrder();
      const pay = await client.pay(reference, JSON.parse(`{"paymentoption":"C","card":{"cardnumber":"5555555555554444","expirymonth":"01","expiryyear":"39","cvv":"193",${JSON.stringify(key)}:{"a":1}}}`));
      expect(pay.statusCode).toBe(200);
    });

    it('ignores them on plain endpoints and never leaks an internal error', async () => {
      const verify = await app.inject({
        method: 'POST',
        url: '/checkout/order/verify',
        headers: { 'api-key': client.keys.secretKey, 'content-type': 'application/json' },
        payload: '{"reference":"NOPE-2","constructor":1,"toString":"x","hasOwnProperty":[]}',
      });
      expect(verify.statusCode).toBe(404);
      expect(verify.json()).toMatchObject({ statusCode: 'NF404' });

      const created = await createLink({ ...link, valueOf: 1, toString: { a: 1 } });
      expect(created.statusCode).toBe(200);

      const transfer = await app.inject({
        method: 'POST',
        url: '/checkout/sandbox/transfers',
        headers: { 'api-key': client.keys.secretKey, 'content-type': 'application/json' },
        payload: '{"accountNumber":"0123456789","amount":5,"constructor":5}',
      });
      expect(transfer.statusCode).toBe(404);
      expect(transfer.body).not.toMatch(/reading|undefined|def/);
    });

    it('treats a __proto__ or constructor.prototype key in a plain JSON body like any other unknown key', async () => {
      const created = await createLink(`{"Name":"Tickets","Description":"d","PaymentType":"SC","Currency":"NGN","AuthOption":"AUTH","__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`);
      expect(created.statusCode).toBe(200);
      expect(created.json().data.paymentLink).toMatchObject({ name: 'Tickets' });
      expect(created.json().data.paymentLink).not.toHaveProperty('isAdmin');
    });
  });

  describe('control characters', () => {
    it('refuses them in link fields, naming the field', async () => {
      expect((await createLink({ ...link, Name: 'Tick\u0000ets' })).json()).toEqual(invalidField('The Name field must not contain control characters.'));
      expect((await createLink({ ...link, Mobile: '080\u0007' })).json()).toEqual(invalidField('The Mobile field must not contain control characters.'));
      expect((await createLink({ ...link, Website: 'https://shop.test/\u0000' })).json()).toEqual(invalidField('The Website field must not contain control characters.'));
      const response = await createLink({ ...link, Description: 'Line one\u0000' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidField('The Description field must not contain control characters.'));
    });

    it('keeps tabs and line breaks in a description', async () => {
      const response = await createLink({ ...link, Description: 'Line one\nLine two\tend' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.paymentLink.description).toBe('Line one\nLine two\tend');
    });

    it('refuses them in order, customer, payment, verify and event fields', async () => {
      const cases: [Promise<{ statusCode: number; json: () => unknown }>, string][] = [
        [client.createOrder(orderPayload(newReference(), { customer: { firstname: 'A\u0000da' } })), 'customer.firstname'],
        [client.createOrder(orderPayload(`REF\u0000${Date.now()}`)), 'order.reference'],
        [client.createOrder(orderPayload(newReference(), { order: { description: 'x\u0000' } })), 'order.description'],
        [client.createOrder({ ...orderPayload(), paymentMeta: { note: 'a\u0000b' } }), 'paymentMeta.note'],
        [client.status('R\u0000'), 'reference'],
        [client.pay('R\u0000', { paymentoption: 'C' }), 'reference'],
        [client.track({ eventname: 'opened\u0000', orderreference: 'R' }), 'eventname'],
        [client.track({ eventname: 'opened', orderreference: 'R', note: 'x\u0000' }), 'note'],
        [
          app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': client.keys.secretKey }, payload: { reference: 'R\u0000' } }),
          'reference',
        ],
      ];
      for (const [request, field] of cases) {
        const response = await request;
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidField(`The ${field} field must not contain control characters.`));
      }
    });
  });

  describe('integers bound for integer columns', () => {
    it('refuses a payment link id beyond the integer range', async () => {
      const response = await client.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: 99999999999 } }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidField('The payment.paymentlinkid field must be at most 2147483647.'));
      const text = await client.createOrder(orderPayload(newReference(), { payment: { paymentLinkId: '99999999999' } }));
      expect(text.json()).toEqual(invalidField('The payment.paymentlinkid field must be at most 2147483647.'));
    });

    it('refuses out-of-range counts on orders and links', async () => {
      const payments = await client.createOrder(orderPayload(newReference(), { payment: { numberOfPayments: 99999999999 } }));
      expect(payments.statusCode).toBe(400);
      expect(payments.json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(/^The payment\.numberOfPayments field must be at most/) });
      const limit = await createLink({ ...link, Limit: '99999999999' });
      expect(limit.statusCode).toBe(400);
      expect(limit.json()).toMatchObject({ statusCode: 'VAL400', message: expect.stringMatching(/^The Limit field must be at most/) });
    });
  });

  describe('paymentMeta', () => {
    it('refuses metadata nested thousands of levels deep', async () => {
      const deep = `{"customer":${JSON.stringify(orderPayload().customer)},"order":${JSON.stringify(orderPayload().order)},"paymentMeta":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
      const response = await client.createOrder(deep);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidField('The paymentMeta.a.a.a.a.a field must be nested at most 5 levels deep.'));
    });

    it('refuses too many keys and overlong texts', async () => {
      const wide = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, index]));
      expect((await client.createOrder({ ...orderPayload(), paymentMeta: wide })).json()).toEqual(invalidField('The paymentMeta field must have at most 50 entries.'));
      const long = await client.createOrder({ ...orderPayload(), paymentMeta: { note: 'x'.repeat(501) } });
      expect(long.json()).toEqual(invalidField('The paymentMeta.note field must be at most 500 characters long.'));
    });

    it('stores metadata without card-like keys and with card numbers masked', async () => {
      const reference = newReference();
      const response = await client.createOrder({
        ...orderPayload(reference),
        paymentMeta: {
          ipAddress: '10.0.0.1',
          cardNumber: '5555555555554444',
          cvv: '987',
          device: { os: 'android', card_pin: '1234' },
          note: 'card 5555-5555-5555-4444 cvv 987, ticket 67890',
        },
      });
      expect(response.statusCode).toBe(200);
      const stored = await storedPaymentMeta(reference);
      expect(stored).toEqual({ ipAddress: '10.0.0.1', device: { os: 'android' }, note: 'card ****-****-****-**** cvv ***, ticket 67890' });
      expect(JSON.stringify(stored)).not.toMatch(/5555|987|1234/);
    });
  });

  it('masks card numbers in the free text of event details', async () => {
    const reference = await client.newOrder();
    const response = await client.track({ eventname: 'card-submitted', orderreference: reference, note: 'card 5555555555554444 cvv 987', step: 2 });
    expect(response.statusCode).toBe(200);
    const rows = await app.storage.query<{ detail: unknown }>(
      'SELECT e.detail FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.reference = $1 AND e.name = $2',
      [reference, 'card-submitted'],
    );
    expect(rows.map((row) => row.detail)).toEqual([{ note: 'card **************** cvv ***', step: 2 }]);
  });
});
