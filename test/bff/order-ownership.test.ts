import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const MINUTE = 60_000;

/**
 * What a browser holding only the publishable key may do with saved cards, payment links, order references and
 * customer details: the attacks of the second security review, each refused.
 */
describe.each(drivers)('order ownership on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const context = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let client: CheckoutClient;
  let other: CheckoutClient;

  const serverCreate = (payload: object, apiKey = client.keys.secretKey) =>
    app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': apiKey }, payload: payload });

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app, 'Acme Stores'));
    other = new CheckoutClient(app, await createMerchant(app, 'Other Stores'));
  });

  describe('saved cards belong to customers the merchant vouches for', () => {
    let victimToken: string;
    const victimEmail = 'victim@example.test';

    beforeAll(async () => {
      const victim = await client.asCustomer('customer-victim');
      const reference = await victim.newOrder({ customer: { email: victimEmail } });
      expect((await victim.payByCard(reference, '5555555555554444', { save: true })).json().statusCode).toBe('00');
      victimToken = (await victim.createOrder(orderPayload(newReference(), { customer: { email: victimEmail } }))).json().data.savedCards[0].token;
      expect(victimToken).toMatch(/^sbx_card_/);
    });

    it("never shows a customer's saved cards to an order made with the publishable key and their e-mail", async () => {
      const response = await client.createOrder(orderPayload(newReference(), { customer: { email: victimEmail } }));
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ savedCards: [], canSaveCard: false, clientToken: null });
    });

    it("refuses to charge a customer's saved card on an order without their customer session, whatever the CVV", async () => {
      const reference = await client.newOrder({ customer: { email: victimEmail } });
      const response = await client.pay(reference, { paymentoption: 'C', cardToken: victimToken, card: { cvv: '123' } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('customer your server vouches for') });
      expect((await client.verify(reference)).json().data.statusId).toBe(1);
    });

    it("refuses another customer's session, and a session on an order made with another", async () => {
      const attacker = await client.asCustomer('customer-attacker');
      const own = await attacker.newOrder({ customer: { email: victimEmail } });
      expect((await attacker.pay(own, { paymentoption: 'C', cardToken: victimToken, card: { cvv: '123' } })).statusCode).toBe(404);

      const victimsOrder = await (await client.asCustomer('customer-victim')).newOrder();
      const response = await attacker.pay(victimsOrder, { paymentoption: 'C', cardToken: victimToken, card: { cvv: '123' } });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Paying with a saved card needs the customer session this order was created with.');
    });

    it('refuses to save a card without a customer session, saying what is needed', async () => {
      const reference = await client.newOrder();
      const response = await client.payByCard(reference, '4111111111111111', { save: true });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toContain('Saving a card needs a customer your server vouches for');
    });

    it('opens customer sessions with the secret key only, for its own merchant, and only while they last', async () => {
      const refused = await app.inject({
        method: 'POST',
        url: '/checkout/customers/sessions',
        headers: { 'api-key': client.keys.publishableKey },
        payload: { customerReference: 'customer-victim' },
      });
      expect(refused.json()).toMatchObject({ statusCode: 'AUTH403' });

      const session = await client.customerSession('customer-victim');
      const tampered = await client.with({ 'checkout-customer-session': `${session}.x` }).createOrder();
      expect(tampered.json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('checkout-customer-session is not valid') });
      const foreign = await other.with({ 'checkout-customer-session': session }).createOrder();
      expect(foreign.json()).toMatchObject({ statusCode: 'AUTH403' });

      clock.advance(31 * MINUTE);
      const expired = await client.with({ 'checkout-customer-session': session }).createOrder();
      expect(expired.json()).toMatchObject({ statusCode: 'AUTH403', message: expect.stringContaining('has expired') });
    });

    it('lets the merchant server (secret key) pay with the saved card of the customer an order was made for', async () => {
      const session = await client.customerSession('customer-victim');
      const reference = newReference('SRV');
      const created = await app.inject({
        method: 'POST',
        url: '/checkout/order/create',
        headers: { 'api-key': client.keys.secretKey, 'checkout-customer-session': session },
        payload: { data: await client.encrypt(orderPayload(reference)) },
      });
      expect(created.json().data.savedCards).toHaveLength(1);
      const paid = await client.post('/checkout/order/pay', { reference, paymentoption: 'C', cardToken: victimToken, card: { cvv: '123' } }, client.keys.secretKey);
      expect(paid.json()).toMatchObject({ statusCode: '00' });
    });
  });

  describe("a payment link's limit holds when customers pay", () => {
    const createLink = async (fields: object) => {
      const response = await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': client.keys.secretKey },
        payload: { Name: 'Concert', Description: 'One seat', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 100, ...fields },
      });
      expect(response.statusCode).toBe(200);
      return response.json().data.paymentLink.id as number;
    };
    const linkOrder = (linkId: number) => client.newOrder({ order: { amount: 100 }, payment: { paymentlinkid: linkId } });

    it('takes exactly Limit successful payments from orders paid at once, and refuses the rest before charging them', async () => {
      const linkId = await createLink({ Limit: 2 });
      const references = await Promise.all(Array.from({ length: 12 }, () => linkOrder(linkId)));
      const answers = await Promise.all(references.map((reference) => client.payByCard(reference, '5555555555554444')));
      const approved = answers.filter((answer) => answer.json().statusCode === '00');
      const refused = answers.filter((answer) => answer.statusCode === 409);
      expect(approved).toHaveLength(2);
      expect(refused).toHaveLength(10);
      for (const answer of refused) expect(answer.json().message).toBe('This payment link has reached its limit of payments.');
      // Nobody beyond the limit was charged: the refused orders have no attempt at all.
      const [row] = await app.storage.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.payment_link_id = $1`,
        [linkId],
      );
      expect(row?.count).toBe(2);
    });

    it('counts a payment under way against the limit until it ends', async () => {
      const linkId = await createLink({ Limit: 1 });
      const [first, second] = await Promise.all([linkOrder(linkId), linkOrder(linkId)]);
      expect((await client.payByTransfer(first)).json().data.orderPayment.statusId).toBe(2);
      expect((await client.payByCard(second, '5555555555554444')).statusCode).toBe(409);
      // The open account expires unpaid: its place is free again.
      clock.advance(31 * MINUTE);
      await app.jobs.runDue();
      expect((await client.payByCard(second, '5555555555554444')).json().statusCode).toBe('00');
    });

    it('lets a single-charge (SC) link be paid once, whatever its Limit', async () => {
      const linkId = await createLink({ PaymentType: 'SC', Limit: 5 });
      const [first, second] = await Promise.all([linkOrder(linkId), linkOrder(linkId)]);
      expect((await client.payByCard(first, '5555555555554444')).json().statusCode).toBe('00');
      expect((await client.payByCard(second, '5555555555554444')).json()).toMatchObject({ statusCode: 'CON409' });
    });
  });

  describe("an order the merchant's server creates cannot be taken or paid from a browser without its client token", () => {
    it('refuses the reference to a browser, and shows and pays the order only with its client token', async () => {
      const reference = newReference('ORDER');
      const created = await serverCreate({ data: await client.encrypt(orderPayload(reference, { order: { amount: 5000 } })) });
      expect(created.statusCode).toBe(200);
      const clientToken = created.json().data.clientToken;
      expect(clientToken).toEqual({ token: expect.any(String), expiresAt: expect.any(String) });

      const squat = await client.createOrder(orderPayload(reference, { order: { amount: 1 } }));
      expect(squat.json()).toMatchObject({ statusCode: 'CON409', message: expect.stringContaining("created by the merchant's server") });
      expect((await client.payByCard(reference, '5555555555554444')).json()).toMatchObject({ statusCode: 'AUTH403' });
      expect((await client.status(reference)).json()).toMatchObject({ statusCode: 'AUTH403' });

      const customer = client.with({ 'checkout-client-token': clientToken.token });
      // The checkout asks for the order with whatever it was given: the server's details stand.
      const shown = await customer.createOrder(orderPayload(reference, { order: { amount: 1 } }));
      expect(shown.json().data.order).toMatchObject({ reference, amount: 5000 });
      expect((await customer.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
      expect((await client.verify(reference)).json().data).toMatchObject({ status: 'Successful', amount: 5000 });
    });

    it("is never blocked or impersonated by a browser that took the reference first", async () => {
      const reference = newReference('ORDER');
      const squatted = await client.newOrder({ order: { reference, amount: 1 } }).catch(() => undefined);
      expect(squatted).toBeDefined();
      expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');

      const created = await serverCreate({ data: await client.encrypt(orderPayload(reference, { order: { amount: 5000 } })) });
      expect(created.statusCode).toBe(200);
      expect(created.json().data.order).toMatchObject({ amount: 5000, statusId: 1 });
      expect((await client.verify(reference)).json().data).toMatchObject({ amount: 5000, statusId: 1, orderOrigin: 'server' });

      const customer = client.with({ 'checkout-client-token': created.json().data.clientToken.token });
      expect((await customer.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');
      expect((await client.verify(reference)).json().data).toMatchObject({ amount: 5000, status: 'Successful', orderOrigin: 'server' });
    });

    it("refuses a client token for another order, another merchant's, or one altered", async () => {
      const first = newReference('ORDER');
      const token = (await serverCreate({ data: await client.encrypt(orderPayload(first)) })).json().data.clientToken.token as string;
      const second = newReference('ORDER');
      await serverCreate({ data: await client.encrypt(orderPayload(second)) });
      expect((await client.with({ 'checkout-client-token': token }).status(second)).json()).toMatchObject({ statusCode: 'AUTH403' });
      expect((await other.with({ 'checkout-client-token': token }).status(first)).json()).toMatchObject({ statusCode: 'AUTH403' });
      const altered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}A`;
      expect((await client.with({ 'checkout-client-token': altered }).status(first)).json()).toMatchObject({ statusCode: 'AUTH403' });
      expect((await client.with({ 'checkout-client-token': token }).status(first)).json()).toMatchObject({ status_code: '00' });
    });

    it('says who created an order in verify, so a merchant can tell a browser-made order', async () => {
      const reference = await client.newOrder();
      expect((await client.verify(reference)).json().data.orderOrigin).toBe('browser');
    });
  });

  it('keeps the customer details an order was created with when a later order uses the same e-mail', async () => {
    const email = 'ada.victim@example.test';
    const victims = await client.newOrder({ customer: { email, firstname: 'Ada', lastname: 'Obi' } });
    await client.newOrder({ customer: { email, firstname: 'Mallory', lastname: 'Evil', mobile: '+2348099999999' } });
    const customer = (await client.verify(victims)).json().data.customer;
    expect(customer).toMatchObject({ firstName: 'Ada', lastName: 'Obi', mobile: '+2348012345678' });
  });
});
