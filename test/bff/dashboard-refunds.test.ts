import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { signedInMember, totpCode } from '../support/team.ts';

const CARD_APPROVED = '5555555555554444';
const MINUTE = 60_000;

/** `POST /checkout/orders/:reference/refunds`: the refund the dashboard calls with a session, and the secret key too. */
describe.each(drivers)('refunds from the dashboard on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    client = new CheckoutClient(app, keys);
  });

  async function paidOrder(amount = 5000): Promise<string> {
    const reference = await client.newOrder({ order: { amount } });
    expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
    return reference;
  }

  const url = (reference: string) => `/checkout/orders/${encodeURIComponent(reference)}/refunds`;

  it('refunds part of an order with the secret key and answers what is left to refund', async () => {
    const reference = await paidOrder();
    const detail = (await app.inject({ method: 'GET', url: `/checkout/orders/${reference}`, headers: { 'api-key': keys.secretKey } })).json().data.order;
    const paidMinor = detail.attempts[0].totalMinor as number;

    const partial = await app.inject({ method: 'POST', url: url(reference), headers: { 'api-key': keys.secretKey }, payload: { amount: 1000, reason: 'Damaged box' } });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json().data).toMatchObject({
      refund: { state: 'succeeded', amountMinor: 100_000, amount: '1000.00', currency: 'NGN', reason: 'Damaged box' },
      refundable: { amountMinor: paidMinor - 100_000, currency: 'NGN' },
    });

    const tooMuch = await app.inject({ method: 'POST', url: url(reference), headers: { 'api-key': keys.secretKey }, payload: { amount: paidMinor } });
    expect(tooMuch.json()).toMatchObject({ statusCode: 'CON409' });

    const rest = await app.inject({ method: 'POST', url: url(reference), headers: { 'api-key': keys.secretKey }, payload: {} });
    expect(rest.json().data).toMatchObject({ refund: { state: 'succeeded', amountMinor: paidMinor - 100_000 }, refundable: { amountMinor: 0 } });

    const timeline = (await app.inject({ method: 'GET', url: `/checkout/orders/${reference}`, headers: { 'api-key': keys.secretKey } })).json().data.timeline as { type: string }[];
    expect(timeline.filter((entry) => entry.type === 'refund_succeeded')).toHaveLength(2);
  });

  it('refuses a publishable key', async () => {
    const reference = await paidOrder();
    const refused = await app.inject({ method: 'POST', url: url(reference), headers: { 'api-key': keys.publishableKey }, payload: {} });
    expect(refused.statusCode).toBe(403);
  });

  it('makes a support member prove a second factor first, then refunds and records it in the audit log', async () => {
    const reference = await paidOrder();
    const { browser: support } = await signedInMember(app, keys.subsidiaryId, 'support');
    const { secret } = await support.enrolTotp(clock);
    clock.advance(6 * MINUTE);

    const first = await support.call('POST', url(reference), { amount: 500 });
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({ statusCode: 'AUTH403', reason: 'step_up_required' });

    expect((await support.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) })).statusCode).toBe(200);
    const refunded = await support.call('POST', url(reference), { amount: 500 });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().data.refund).toMatchObject({ state: 'succeeded', amountMinor: 50_000 });

    // Without the CSRF token the same cookie does nothing.
    const noToken = await support.call('POST', url(reference), { amount: 1 }, { 'x-csrf-token': 'wrong' });
    expect(noToken.json()).toMatchObject({ statusCode: 'AUTH403', reason: 'csrf_token_invalid' });

    const { browser: owner } = await signedInMember(app, keys.subsidiaryId, 'owner');
    const audit = (await owner.call('GET', '/checkout/team/audit')).json().data.items as { action: string; target: string | null }[];
    expect(audit).toContainEqual(expect.objectContaining({ action: 'refund_created', target: expect.stringContaining(`order:${reference}`) }));
  });

  it('refuses a viewer, whatever its second factor', async () => {
    const reference = await paidOrder();
    const { browser: viewer } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    const refused = await viewer.call('POST', url(reference), { amount: 500 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 'AUTH403', reason: 'permission_denied' });
    // It still reads the order.
    expect((await viewer.call('GET', `/checkout/orders/${reference}`)).statusCode).toBe(200);
  });

  it('tells a member what its merchant has set up', async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    const me = (await browser.call('GET', '/checkout/team/me')).json().data;
    expect(me.setup).toMatchObject({ apiKeys: true, webhook: false, firstTestPayment: true });
    expect(typeof me.setup.allowedOrigin).toBe('boolean');
    expect(typeof me.setup.logo).toBe('boolean');
  });
});
