import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const CARD_3DS_APPROVED = '4242424242424242';
const CARD_DECLINED = '4000000000000002';
const CARD_APPROVED = '5555555555554444';
const SECOND = 1000;

type Entry = { at: string; actor: string; type: string; [detail: string]: unknown };

describe.each(drivers)("an order's detail and timeline on %s", (driver) => {
  const clock = new ManualClock(new Date('2026-11-20T09:00:00Z'));
  const test = useTestApp(driver, { clock, overrides: { WEBHOOK_TIMEOUT_SECONDS: '1' } });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let client: CheckoutClient;
  let receiver: WebhookReceiver;

  const detail = (reference: string, apiKey = keys.secretKey) =>
    app.inject({ method: 'GET', url: `/checkout/orders/${encodeURIComponent(reference)}`, headers: { 'api-key': apiKey } });
  const note = (reference: string, payload: unknown, apiKey = keys.secretKey) =>
    app.inject({ method: 'POST', url: `/checkout/orders/${encodeURIComponent(reference)}/notes`, headers: { 'api-key': apiKey }, payload: payload as object });
  const timelineOf = async (reference: string): Promise<Entry[]> => {
    const answer = await detail(reference);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.timeline;
  };
  const tick = () => clock.advance(SECOND);

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    client = new CheckoutClient(app, keys);
    receiver = await new WebhookReceiver().start();
    const created = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: { 'api-key': keys.secretKey }, payload: { url: receiver.url() } });
    expect(created.statusCode).toBe(200);
  });
  afterAll(async () => receiver.stop());

  it('tells a card payment with 3-D Secure from creation to refund, with every webhook delivery and the customer\'s events, oldest first', async () => {
    const reference = await client.newOrder({ order: { amount: 5000, items: [{ name: 'Ticket', amount: 2500 }, { name: 'Ticket', amount: 2500 }] } });
    tick();
    expect((await client.track({ orderreference: reference, eventname: 'checkout-opened', step: 'card' })).statusCode).toBe(200);
    tick();
    const pay = (await client.payByCard(reference, CARD_3DS_APPROVED)).json();
    tick();
    expect((await client.authenticate(pay.data.paymentDetail.redirectUrl)).statusCode).toBe(303);
    tick();
    await app.jobs.runDue();
    tick();
    const refund = await app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference, amount: 1000, reason: 'One ticket returned' } });
    expect(refund.statusCode, refund.body).toBe(200);
    tick();
    await app.jobs.runDue();
    expect((await note(reference, { text: 'Customer called about the second ticket' })).statusCode).toBe(200);

    const answer = (await detail(reference)).json().data;
    const timeline = answer.timeline as Entry[];
    expect(timeline.map((entry) => entry.type).filter((type) => type !== 'webhook_delivery')).toEqual([
      'order_created', 'customer_event', 'attempt_started', 'fee_quoted', 'three_d_secure_opened', 'three_d_secure_answered', 'payment_approved',
      'refund_requested', 'refund_succeeded', 'note',
    ]);
    const at = timeline.map((entry) => entry.at);
    expect([...at].sort()).toEqual(at);
    expect(at.every((stamp) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(stamp))).toBe(true);
    const of = (type: string) => timeline.find((entry) => entry.type === type)!;
    expect(of('order_created')).toMatchObject({ actor: 'widget', origin: 'widget', amountMinor: 500_000, amount: '5000.00', currency: 'NGN', at: '2026-11-20T09:00:00.000Z' });
    expect(of('customer_event')).toMatchObject({ actor: 'customer', name: 'checkout-opened', detail: { step: 'card' } });
    const paymentReference = answer.order.attempts[0].reference;
    expect(of('attempt_started')).toMatchObject({ actor: 'customer', paymentReference, method: 'card' });
    // NGN by card: 1.5 % plus a flat 100.00 (the sandbox's default rule), borne by the customer.
    expect(of('fee_quoted')).toMatchObject({
      actor: 'system', paymentReference, bearer: 'customer', feeMinor: 17_500, customerFeeMinor: 17_500, merchantFeeMinor: 0, totalMinor: 517_500,
      rule: { option: 'C', currency: 'NGN', percentBasisPoints: 150, bearer: 'customer' },
    });
    expect(of('three_d_secure_opened')).toMatchObject({ actor: 'processor', paymentReference });
    expect(of('three_d_secure_answered')).toMatchObject({ actor: 'customer', paymentReference });
    expect(of('payment_approved')).toMatchObject({ actor: 'processor', responseCode: '00', rawResponseCode: expect.any(String), message: 'Approved' });
    expect(of('refund_requested')).toMatchObject({ actor: 'merchant_server', paymentReference, amountMinor: 100_000, amount: '1000.00', reason: 'One ticket returned' });
    expect(of('refund_succeeded')).toMatchObject({ actor: 'processor', refundReference: of('refund_requested').refundReference });
    expect(of('note')).toMatchObject({ actor: 'merchant_server', text: 'Customer called about the second ticket', author: null });

    const deliveries = timeline.filter((entry) => entry.type === 'webhook_delivery');
    expect(deliveries.map((entry) => entry.eventType).sort()).toEqual(['order.successful', 'refund.succeeded']);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ actor: 'system', status: 'succeeded', endpointUrl: receiver.url(), attempts: [{ attempt: 1, statusCode: 200 }] });
    }
    // A delivery sits after the step whose event it carries.
    expect(timeline.findIndex((entry) => entry.eventType === 'order.successful')).toBeGreaterThan(timeline.findIndex((entry) => entry.type === 'payment_approved'));

    expect(answer.order).toMatchObject({
      reference, origin: 'widget', state: 'paid', items: [{ name: 'Ticket', amountMinor: 250_000, amount: '2500.00' }, { name: 'Ticket', amountMinor: 250_000, amount: '2500.00' }],
      attempts: [{ reference: paymentReference, method: 'card', statusId: 5, responseCode: '00', feeMinor: 17_500, feeBearer: 'customer', totalMinor: 517_500 }],
      refunds: [{ paymentReference, state: 'succeeded', amountMinor: 100_000, amount: '1000.00' }],
    });
  });

  it('shows a decline with its normalised code, the processor\'s own code and the reason', async () => {
    const reference = await client.newOrder();
    tick();
    expect((await client.payByCard(reference, CARD_DECLINED)).statusCode).toBe(200);
    const declined = (await timelineOf(reference)).find((entry) => entry.type === 'payment_declined');
    expect(declined).toMatchObject({ actor: 'processor', responseCode: '05', rawResponseCode: expect.any(String), reason: 'declined', message: 'Do not honour' });
  });

  it("shows a processor's answer lost on the way back, then the approval its record gave", async () => {
    const reference = await client.newOrder();
    tick();
    expect((await client.payByCard(reference, '4000000000000341')).statusCode).toBe(200);
    clock.advance(3 * 60 * SECOND);
    await app.jobs.runDue();
    const types = (await timelineOf(reference)).map((entry) => entry.type).filter((type) => type !== 'webhook_delivery');
    expect(types).toEqual(['order_created', 'attempt_started', 'fee_quoted', 'processor_answer_unknown', 'payment_approved']);
  });

  it('shows a transfer account issued, money received short then over, with expected, received and accepted amounts', async () => {
    const reference = await client.newOrder({ order: { amount: 5000 } });
    tick();
    const account = JSON.stringify((await client.payByTransfer(reference)).json()).match(/"(\d{10})"/)![1]!;
    tick();
    expect((await client.transfer(account, 2000)).statusCode).toBe(200);
    tick();
    expect((await client.transfer(account, 3500)).statusCode).toBe(200);
    const timeline = await timelineOf(reference);
    expect(timeline.map((entry) => entry.type).filter((type) => type !== 'webhook_delivery')).toEqual([
      'order_created', 'attempt_started', 'fee_quoted', 'transfer_account_issued', 'money_received', 'money_received', 'payment_approved',
    ]);
    expect(timeline.find((entry) => entry.type === 'transfer_account_issued')).toMatchObject({ actor: 'processor', account, expiresAt: expect.stringMatching(/Z$/) });
    const [short, full] = timeline.filter((entry) => entry.type === 'money_received');
    // Bank transfers' fee is the merchant's by default: the customer sends the amount itself.
    expect(short).toMatchObject({ actor: 'customer', expectedMinor: 500_000, receivedMinor: 200_000, acceptedMinor: 200_000, excessMinor: 0, complete: false });
    expect(full).toMatchObject({ expectedMinor: 500_000, receivedMinor: 550_000, acceptedMinor: 500_000, excessMinor: 50_000, complete: true });
    expect(timeline.find((entry) => entry.type === 'fee_quoted')).toMatchObject({ bearer: 'merchant', merchantFeeMinor: 2_500, customerFeeMinor: 0 });
  });

  it('shows an unused transfer account expiring', async () => {
    const reference = await client.newOrder();
    expect((await client.payByTransfer(reference)).statusCode).toBe(200);
    clock.advance(31 * 60 * SECOND);
    await app.jobs.runDue();
    const expired = (await timelineOf(reference)).find((entry) => entry.type === 'attempt_expired');
    expect(expired).toMatchObject({ actor: 'system', reason: 'account-expired' });
  });

  it("shows the merchant's server as the creator of its orders, and its order when a browser used the same reference", async () => {
    const reference = newReference();
    expect((await client.createOrder(orderPayload(reference, { order: { amount: 100 } }))).statusCode).toBe(200);
    const server = await app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': keys.secretKey }, payload: { data: await client.encrypt(orderPayload(reference, { order: { amount: 7000 } })) } });
    expect(server.statusCode, server.body).toBe(200);
    const answer = (await detail(reference)).json().data;
    expect(answer.order).toMatchObject({ origin: 'server', amountMinor: 700_000 });
    expect(answer.timeline[0]).toMatchObject({ type: 'order_created', actor: 'merchant_server', origin: 'server' });
  });

  it('shows a superseded attempt, a declined refund, a refund whose answer was lost, and the reversal when everything went back', async () => {
    const reference = await client.newOrder({ order: { amount: 5000 } });
    expect((await client.payByTransfer(reference)).statusCode).toBe(200);
    tick();
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    const refund = (body: object) => {
      tick();
      return app.inject({ method: 'POST', url: '/checkout/order/refund', headers: { 'api-key': keys.secretKey }, payload: { reference, ...body } });
    };
    // The sandbox declines a refund ending in .05, and loses the answer of one ending in .41.
    expect((await refund({ amount: 100.05 })).statusCode).toBe(200);
    expect((await refund({ amount: 100.41 })).statusCode).toBe(200);
    // Its record is asked again two minutes later: it went through.
    clock.advance(3 * 60 * SECOND);
    await app.jobs.runDue();
    expect((await refund({})).statusCode).toBe(200);
    const timeline = await timelineOf(reference);
    const types = timeline.map((entry) => entry.type).filter((type) => type !== 'webhook_delivery');
    expect(types).toEqual([
      'order_created', 'attempt_started', 'fee_quoted', 'transfer_account_issued', 'attempt_superseded', 'attempt_started', 'fee_quoted', 'payment_approved',
      'refund_requested', 'refund_failed', 'refund_requested', 'refund_answer_unknown', 'refund_succeeded', 'refund_requested', 'refund_succeeded',
      'payment_reversed',
    ]);
    expect(timeline.find((entry) => entry.type === 'attempt_superseded')).toMatchObject({ actor: 'system' });
    expect(timeline.find((entry) => entry.type === 'refund_failed')).toMatchObject({ actor: 'processor', responseCode: '05' });
    expect(timeline.find((entry) => entry.type === 'refund_answer_unknown')).toMatchObject({ actor: 'system', refundReference: expect.stringMatching(/^RFD/) });
    expect(timeline.find((entry) => entry.type === 'payment_reversed')).toMatchObject({ actor: 'processor' });
  });

  it("shows a payment link's page as the creator of its orders, and each failed webhook attempt before the one that succeeded", async () => {
    let failNext = true;
    receiver.answer = () => (failNext ? 503 : 200);
    const link = await app.inject({
      method: 'POST', url: '/checkout/links/create', headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Tickets', Description: 'Two tickets', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 2500 },
    });
    expect(link.statusCode, link.body).toBe(200);
    const linkPath = new URL(link.json().data.paymentLink.paymentLinkUrl).pathname;
    const reference = `LNK-${randomBytes(12).toString('hex').toUpperCase()}`;
    const form = new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '+2348012345678', amount: '', order: reference });
    expect((await app.inject({ method: 'POST', url: linkPath, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() })).statusCode).toBe(303);
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    await app.jobs.runDue();
    failNext = false;
    clock.advance(10 * 60 * SECOND);
    await app.jobs.runDue();
    receiver.answer = () => 200;

    const answer = (await detail(reference)).json().data;
    expect(answer.order).toMatchObject({ origin: 'payment_link', linkReference: expect.any(String) });
    expect(answer.timeline[0]).toMatchObject({ type: 'order_created', actor: 'link_page', origin: 'payment_link', linkReference: answer.order.linkReference });
    const delivery = (answer.timeline as Entry[]).find((entry) => entry.type === 'webhook_delivery');
    expect(delivery).toMatchObject({ eventType: 'order.successful', status: 'succeeded' });
    expect(delivery!.attempts).toMatchObject([{ attempt: 1, statusCode: 503 }, { attempt: 2, statusCode: 200 }]);
  });

  it("shows a subscription started by its first order, and a renewal order made and charged by the system", async () => {
    const reference = newReference('SUBORD');
    expect((await client.createOrder(orderPayload(reference, { payment: { frequencyId: 2, numberOfPayments: 2 } }))).statusCode).toBe(200);
    tick();
    const paid = (await client.payByCard(reference, CARD_3DS_APPROVED)).json();
    tick();
    await client.authenticate(paid.data.paymentDetail.redirectUrl);
    const recurring = (await client.verify(reference)).json().data.recurringPaymentReference as string;
    expect((await timelineOf(reference)).find((entry) => entry.type === 'subscription_started')).toMatchObject({ actor: 'system', subscriptionReference: recurring });

    clock.advance(25 * 3_600 * SECOND);
    await app.jobs.runDue();
    const renewal = (await detail(`${recurring}-2`)).json().data;
    expect(renewal.order).toMatchObject({ subscriptionReference: recurring, state: 'paid' });
    const timeline = (renewal.timeline as Entry[]).filter((entry) => entry.type !== 'webhook_delivery');
    expect(timeline.map((entry) => [entry.type, entry.actor])).toEqual([
      ['order_created', 'system'], ['attempt_started', 'system'], ['fee_quoted', 'system'], ['payment_approved', 'processor'],
    ]);
    expect(timeline[0]).toMatchObject({ origin: 'subscription', subscriptionReference: recurring });
  });

  it('adds notes of 1 to 2000 characters with card numbers masked, and refuses others with VAL400 and a reason', async () => {
    const reference = await client.newOrder();
    const added = await note(reference, { text: 'Refund to card 4242 4242 4242 4242 promised' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data).toMatchObject({ type: 'note', actor: 'merchant_server', text: 'Refund to card **** **** **** **** promised', at: expect.stringMatching(/Z$/) });
    for (const payload of [{ text: '' }, { text: '   ' }, { text: 'x'.repeat(2001) }, {}, { text: 42 }]) {
      const refused = await note(reference, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400', reason: 'invalid_body', message: expect.stringMatching(/text/) });
    }
    expect((await note(reference, { text: 'x'.repeat(2000) })).statusCode).toBe(200);
    const notes = (await timelineOf(reference)).filter((entry) => entry.type === 'note');
    expect(notes).toHaveLength(2);
    expect(JSON.stringify(notes)).not.toContain('4242');
  });

  it('answers NF404 order_not_found for an unknown reference or another merchant\'s order, VAL400 for an impossible one, and only to the secret key', async () => {
    const reference = await client.newOrder();
    expect((await detail('NO-SUCH-ORDER')).json()).toMatchObject({ statusCode: 'NF404', reason: 'order_not_found' });
    expect((await detail('R'.repeat(65))).json()).toMatchObject({ statusCode: 'VAL400', reason: 'invalid_field' });
    expect((await detail(reference, other.secretKey)).json()).toMatchObject({ statusCode: 'NF404', reason: 'order_not_found' });
    expect((await note(reference, { text: 'mine' }, other.secretKey)).json()).toMatchObject({ statusCode: 'NF404', reason: 'order_not_found' });
    expect((await detail(reference, keys.publishableKey)).statusCode).toBe(403);
    expect((await note(reference, { text: 'hello' }, keys.publishableKey)).statusCode).toBe(403);
  });
});
