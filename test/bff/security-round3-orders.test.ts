import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { subscriptionListResponseSchema, type SubscriptionView } from '../../shared/subscriptions.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant, MERCHANT_SHOP } from '../support/merchant.ts';

/**
 * The third security review (issue 36, items 3, 5, 11, 12): what a browser holding only the publishable key may
 * decide about an order. It may not choose a subscription's plan, start a subscription, or send the customer back
 * from 3-D Secure to an address the merchant does not stand behind; and a cancelled subscription keeps no charge.
 */
const PUBLIC_BASE_URL = 'https://pay.checkout.test';
const DAY = 24 * 3_600_000;
const APPROVING_CARD = '4242424242424242';

describe.each(drivers)('security round 3, orders, on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const context = useTestApp(driver, { overrides: { PUBLIC_BASE_URL }, clock });
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app));
  });

  const createLink = async (fields: Record<string, unknown>) => {
    const created = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': client.keys.secretKey },
      payload: { Name: 'Gym', Description: 'Membership', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 5000, ...fields },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().data.paymentLink as { id: number; reference: string };
  };

  const listSubscriptions = async (link: number): Promise<SubscriptionView[]> => {
    const answer = await app.inject({ method: 'GET', url: `/checkout/links/${link}/subscriptions`, headers: { 'api-key': client.keys.secretKey } });
    expect(answer.statusCode, answer.body).toBe(200);
    return subscriptionListResponseSchema.parse(answer.json()).data;
  };

  /** Pays the order by card as its checkout does, passes 3-D Secure, and gives where the customer is sent back. */
  const payAndReturn = async (checkout: CheckoutClient, reference: string): Promise<string> => {
    const paid = (await checkout.payByCard(reference, APPROVING_CARD)).json();
    expect(paid, JSON.stringify(paid)).toMatchObject({ statusCode: '02' });
    const back = await checkout.authenticate(paid.data.paymentDetail.redirectUrl);
    expect(back.statusCode).toBe(303);
    return String(back.headers.location);
  };

  /** An order the merchant's server makes (secret key), and the checkout that pays it with its client token. */
  const serverOrder = async (reference: string, payment: object): Promise<CheckoutClient> => {
    const created = await client.post('/checkout/order/create', orderPayload(reference, { payment }), client.keys.secretKey);
    expect(created.statusCode, created.body).toBe(200);
    return client.with({ 'checkout-client-token': created.json().data.clientToken.token });
  };

  describe("a SUB link's plan always wins (3)", () => {
    it("subscribes a browser's customer to a daily, 30-payment link's plan when its order asks for one payment every two years", async () => {
      const link = await createLink({ PaymentType: 'SUB', FrequencyId: 2, NumberOfPayments: 30 });
      const reference = newReference();
      const created = await client.createOrder(orderPayload(reference, { payment: { paymentlinkid: link.id, frequencyId: 11, numberOfPayments: 1 } }));
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().data.order).toMatchObject({ frequencyId: 2, numberOfPayments: 30 });
      await payAndReturn(client, reference);
      const [subscription] = await listSubscriptions(link.id);
      expect(subscription).toMatchObject({ status: 'active', frequencyId: 2, numberOfPayments: 30, paymentsMade: 1, orderReference: reference });
    });

    it("keeps an until-cancelled link's plan when a browser's order sends numberOfPayments alone", async () => {
      const link = await createLink({ PaymentType: 'SUB', FrequencyId: 3 });
      const created = await client.createOrder(orderPayload(newReference(), { payment: { paymentlinkid: link.id, numberOfPayments: 1 } }));
      expect(created.json().data.order).toMatchObject({ frequencyId: 3, numberOfPayments: null });
    });

    it("keeps a SUB link's plan over the plan of an order the merchant's server makes on it", async () => {
      const link = await createLink({ PaymentType: 'SUB', FrequencyId: 6, NumberOfPayments: 12 });
      const created = await client.post('/checkout/order/create', orderPayload(newReference(), { payment: { paymentlinkid: link.id, frequencyId: 1, numberOfPayments: 2 } }), client.keys.secretKey);
      expect(created.json().data.order).toMatchObject({ frequencyId: 6, numberOfPayments: 12 });
    });
  });

  describe("only a SUB link or the merchant's server starts a subscription (5)", () => {
    it('refuses a plan on an order sent with the publishable key, on no link, an MC link and an SC link, and makes no order', async () => {
      const mc = await createLink({ PaymentType: 'MC' });
      const sc = await createLink({ PaymentType: 'SC' });
      for (const payment of [{ frequencyId: 1 }, { frequencyId: 1, numberOfPayments: 1000, paymentlinkid: mc.id }, { frequencyId: 2, paymentlinkid: sc.id }]) {
        const reference = newReference();
        const refused = await client.createOrder(orderPayload(reference, { payment }));
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({
          status: 'failed',
          statusCode: 'AUTH403',
          message: "The payment.frequencyId field starts a subscription, which only the merchant's server may do: create the order with the secret key, or on a SUB payment link.",
        });
        expect((await client.verify(reference)).statusCode).toBe(404);
      }
    });

    it("makes a browser's order with null or blank plan members (the gateway's SDKs) a one-off payment, numberOfPayments alone included", async () => {
      for (const payment of [{ frequencyId: null, numberOfPayments: null }, { frequencyId: '', numberOfPayments: '' }, { numberOfPayments: 6 }]) {
        const created = await client.createOrder(orderPayload(newReference(), { payment }));
        expect(created.statusCode, created.body).toBe(200);
        expect(created.json().data.order).toMatchObject({ frequencyId: null, numberOfPayments: null });
      }
    });

    it("starts the hourly subscription of an order the merchant's server made, paid by the browser with its client token, and none for the browser's own", async () => {
      const reference = newReference();
      const checkout = await serverOrder(reference, { frequencyId: 1, numberOfPayments: 2 });
      await payAndReturn(checkout, reference);
      expect((await client.verify(reference)).json().data).toMatchObject({ statusId: 5, recurringPaymentId: expect.any(Number) });
      const browser = await client.createOrder(orderPayload(newReference(), { payment: { frequencyId: 1 } }));
      expect(browser.json()).toMatchObject({ statusCode: 'AUTH403' });
    });
  });

  describe('the return address of a browser-created order (11)', () => {
    it("sends a browser's customer back from 3-D Secure to the hosted result page, not to an address off the merchant's origins", async () => {
      const reference = newReference();
      const created = await client.createOrder(orderPayload(reference, { payment: { RedirectUrl: 'https://evil.test/phish' } }));
      expect(created.statusCode).toBe(200);
      expect(await payAndReturn(client, reference)).toBe(`${PUBLIC_BASE_URL}/checkout/result?reference=${reference}&status=successful`);
    });

    it("keeps a browser's return address on an allowed origin and on this service's pages, and any address from the merchant's server", async () => {
      const onShop = newReference();
      await client.createOrder(orderPayload(onShop, { payment: { RedirectUrl: `${MERCHANT_SHOP}/thanks` } }));
      expect(await payAndReturn(client, onShop)).toBe(`${MERCHANT_SHOP}/thanks?reference=${onShop}&status=successful`);
      const onService = newReference();
      await client.createOrder(orderPayload(onService, { payment: { RedirectUrl: `${PUBLIC_BASE_URL}/l/LINK1?order=${onService}` } }));
      expect(await payAndReturn(client, onService)).toBe(`${PUBLIC_BASE_URL}/l/LINK1?order=${onService}&reference=${onService}&status=successful`);
      const fromServer = newReference();
      const checkout = await serverOrder(fromServer, { RedirectUrl: 'https://elsewhere.test/done' });
      expect(await payAndReturn(checkout, fromServer)).toBe(`https://elsewhere.test/done?reference=${fromServer}&status=successful`);
      // Ignored, not refused: the same order is still made on a look-alike origin, and returns to the result page.
      const lookalike = newReference();
      await client.createOrder(orderPayload(lookalike, { payment: { RedirectUrl: `${MERCHANT_SHOP}.evil.test/thanks` } }));
      expect(await payAndReturn(client, lookalike)).toBe(`${PUBLIC_BASE_URL}/checkout/result?reference=${lookalike}&status=successful`);
    });

    it("keeps a browser's return address on a link's Website and sends any other back to that Website", async () => {
      const link = await createLink({ PaymentType: 'MC', Website: 'https://gym.test/welcome' });
      const onWebsite = newReference();
      await client.createOrder(orderPayload(onWebsite, { payment: { paymentlinkid: link.id, RedirectUrl: 'https://gym.test/paid' } }));
      expect(await payAndReturn(client, onWebsite)).toBe(`https://gym.test/paid?reference=${onWebsite}&status=successful`);
      const elsewhere = newReference();
      await client.createOrder(orderPayload(elsewhere, { payment: { paymentlinkid: link.id, RedirectUrl: 'https://evil.test/phish' } }));
      expect(await payAndReturn(client, elsewhere)).toBe(`https://gym.test/welcome?reference=${elsewhere}&status=successful`);
    });
  });

  describe('a subscription cancelled while a charge is out (12)', () => {
    it('refunds in full the charge approved after the merchant cancelled, and says so in the cancel answer', async () => {
      const link = await createLink({ PaymentType: 'SUB', FrequencyId: 2, NumberOfPayments: 5 });
      const first = newReference();
      await client.createOrder(orderPayload(first, { payment: { paymentlinkid: link.id } }));
      await payAndReturn(client, first);
      const [subscription] = await listSubscriptions(link.id);

      // The merchant cancels while the card issuer has the second charge and has not answered yet.
      let cancelAnswer: unknown;
      const charge = app.sandbox.charge.bind(app.sandbox);
      const spy = vi.spyOn(app.sandbox, 'charge').mockImplementation(async (instrument, request) => {
        if (instrument.kind === 'token' && instrument.initiator === 'merchant') {
          const cancelled = await app.inject({ method: 'PATCH', url: `/checkout/links/recurringpayment/${subscription!.id}/cancel`, headers: { 'api-key': client.keys.secretKey } });
          cancelAnswer = cancelled.json();
        }
        return charge(instrument, request);
      });
      try {
        clock.advance(DAY);
        await app.jobs.runDue();
        await app.jobs.runDue();
      } finally {
        spy.mockRestore();
      }

      expect(cancelAnswer).toEqual({
        status: 'success',
        statusCode: '00',
        message: 'Recurring payment cancelled successfully; a charge already sent to the card issuer is refunded in full if it is approved',
        data: null,
      });
      const second = (await client.verify(`${subscription!.reference}-2`)).json().data;
      expect(second).toMatchObject({ statusId: 6, status: 'Reversed' });
      const [after] = await listSubscriptions(link.id);
      expect(after).toMatchObject({ status: 'cancelled', paymentsMade: 1, nextPaymentDate: null });
      // Cancelling with no charge out says only that.
      const again = await app.inject({ method: 'PATCH', url: `/checkout/links/recurringpayment/${subscription!.id}/cancel`, headers: { 'api-key': client.keys.secretKey } });
      expect(again.json()).toMatchObject({ statusCode: '00', message: 'Recurring payment cancelled successfully' });
    });
  });
});
