import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { orderStatusResponseSchema, payOrderResponseSchema } from '../../shared/payments.ts';

const MINUTE = 60_000;

/** The hosted 3-D Secure page as a customer meets it: wrong codes, abandonment, and the way back to the merchant. */
describe.each(drivers)('3-D Secure authentication on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const context = useTestApp(driver, { clock, overrides: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app, 'Acme Stores'));
  });

  async function startAuthentication(reference: string) {
    const body = payOrderResponseSchema.parse((await client.payByCard(reference, '4242424242424242')).json());
    expect(body.statusCode).toBe('02');
    const url = body.data.paymentDetail.redirectUrl!;
    return { url, path: new URL(url).pathname, paymentReference: body.data.paymentDetail.paymentReference };
  }

  const answer = (path: string, code: string, action = 'approve') =>
    app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ action, code }).toString() });

  it('counts 40 concurrent wrong codes as wrong: exactly one answer declines 05 and sends the customer on, the others come back to the page, and the right code no longer approves', async () => {
    const reference = await client.newOrder();
    const { path, paymentReference } = await startAuthentication(reference);
    const right = app.sandbox.oneTimeCode(paymentReference);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');

    const answers = await Promise.all(Array.from({ length: 40 }, () => answer(path, wrong)));
    expect(answers.every((response) => response.statusCode === 303)).toBe(true);
    const sentOn = answers.filter((response) => response.headers.location !== path);
    expect(sentOn.map((response) => response.headers.location)).toEqual([`https://merchant.test/return?reference=${reference}&status=failed`]);

    const late = await answer(path, right);
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toBe(path);
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('Authentication finished');
    const status = orderStatusResponseSchema.parse((await client.status(reference)).json());
    expect(status).toMatchObject({ is_final_status: true, data: { payment_status: 4, payment_response_code: '05' } });
    const verified = (await client.verify(reference)).json().data;
    expect(verified.orderPayments).toHaveLength(1);
    expect(verified.statusId).toBe(4);
  });

  it('answers a wrong code with a redirect to the page, which shows the attempts left; the right code then goes to the merchant once, and a replay only back to the page', async () => {
    const reference = await client.newOrder();
    const { path, paymentReference } = await startAuthentication(reference);
    const right = app.sandbox.oneTimeCode(paymentReference);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');

    const fresh = await app.inject({ method: 'GET', url: path });
    expect(fresh.body).not.toContain('not correct');
    const first = await answer(path, wrong);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(path);
    const afterFirst = await app.inject({ method: 'GET', url: path });
    expect(afterFirst.statusCode).toBe(200);
    expect(afterFirst.body).toContain('That code is not correct. 2 attempts left.');
    expect(afterFirst.body).toContain('aria-invalid="true"');
    await answer(path, wrong);
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('That code is not correct. 1 attempt left.');

    const approved = await answer(path, right);
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe(`https://merchant.test/return?reference=${reference}&status=successful`);
    for (const replay of [await answer(path, right), await answer(path, wrong), await answer(path, '', 'fail')]) {
      expect(replay.statusCode).toBe(303);
      expect(replay.headers.location).toBe(path);
    }
    const finished = await app.inject({ method: 'GET', url: path });
    expect(finished.body).toContain('Authentication finished');
    expect(finished.body).toContain(`href="https://merchant.test/return?reference=${reference}&amp;status=successful"`);
    expect((await client.status(reference)).json().data).toMatchObject({ payment_status: 5 });
  });

  it('answers addresses that name no payment with the "Payment not found" page, in the customer\'s language', async () => {
    for (const url of ['/checkout/3ds/PAYNOPE', `/checkout/3ds/PAY${'0'.repeat(24)}`, `/checkout/3ds/PAY${'A'.repeat(80)}`]) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(page.body, url).toContain('Payment not found');
      const posted = await answer(url, '123456');
      expect(posted.statusCode, url).toBe(404);
      expect(posted.headers['content-type'], url).toBe('text/html; charset=utf-8');
    }
    const french = await app.inject({ method: 'GET', url: '/checkout/3ds/PAYNOPE', headers: { 'accept-language': 'fr-FR' } });
    expect(french.statusCode).toBe(404);
    expect(french.body).toContain('Paiement introuvable');
  });

  it('expires a 3-D Secure attempt the customer abandons 15 minutes after it started: declined 05, final, and the order can be paid again', async () => {
    const reference = await client.newOrder();
    const { path } = await startAuthentication(reference);
    clock.advance(14 * MINUTE);
    await app.jobs.runDue();
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });

    clock.advance(1 * MINUTE);
    await app.jobs.runDue();
    const status = orderStatusResponseSchema.parse((await client.status(reference)).json());
    expect(status).toMatchObject({
      is_final_status: true,
      requery_needed: false,
      data: { payment_status: 4, payment_response_code: '05', payment_response_message: 'Authentication expired' },
    });
    expect((await client.verify(reference)).json().data).toMatchObject({ statusId: 4, status: 'Failed' });

    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This authentication has expired');
    expect(page.body).not.toContain('data-testid="otp"');
    const code = app.sandbox.oneTimeCode(path.split('/').pop()!);
    const posted = await answer(path, code);
    expect(posted.headers.location).toBe(path);
    expect((await client.status(reference)).json().data.payment_status).toBe(4);

    const again = (await client.payByCard(reference, '5555555555554444')).json();
    expect(again).toMatchObject({ status: 'success', statusCode: '00' });
  });

  it('never ends an attempt by reading it: past its deadline the page says it expired and refuses an answer, and the expiry job ends it', async () => {
    const reference = await client.newOrder();
    const { path, paymentReference } = await startAuthentication(reference);
    clock.advance(16 * MINUTE);
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('This authentication has expired');
    const late = await answer(path, app.sandbox.oneTimeCode(paymentReference));
    expect(late.headers.location).toBe(path);
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });
    await app.jobs.runDue();
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 4, payment_response_code: '05' } });
  });

  it("returns the customer to the payment link's Website after 3-D Secure, keeping its query", async () => {
    const link = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': client.keys.secretKey },
      payload: { Name: 'Concert', Description: 'Two tickets', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH', Amount: 5000, Website: 'https://shop.example.test/thanks?x=1' },
    });
    expect(link.statusCode).toBe(200);
    const linkId = link.json().data.paymentLink.id as number;
    const reference = await client.newOrder({ payment: { RedirectUrl: undefined, paymentlinkid: linkId } });

    const pay = payOrderResponseSchema.parse((await client.payByCard(reference, '5555555555554444')).json());
    expect(pay).toMatchObject({ statusCode: '02', message: 'pending-authenticaion' });
    const back = await client.authenticate(pay.data.paymentDetail.redirectUrl!);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`https://shop.example.test/thanks?x=1&reference=${reference}&status=successful`);
  });
});
