import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describePlan } from '../../shared/plan.ts';
import { loggablePath } from '../../bff/log-serializers.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { cleanPlace, ManualClock, newPlace, startApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { fakeWidgetDir } from '../support/widget-page.ts';

const form = (fields: Record<string, string>) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
/** The plan's words on a page, with the non-breaking spaces money formats carry read as spaces. */
const planOf = (html: string) => /data-testid="plan">(?:<strong>[^<]*<\/strong> )?([^<]*)</.exec(html)?.[1]?.replace(/[\u00a0\u202f]/g, ' ');
const unescape = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"');

describe('subscription pages', () => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: fakeWidgetDir() }, clock);
    keys = await app.merchants.create({ name: 'Gym & Co', country: 'NG', supportEmail: 's@gym.test', allowedOrigins: [] });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  const createLink = async (payload: object) =>
    (
      await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey },
        payload: { Name: 'Membership', Description: 'Gym membership', PaymentType: 'SUB', Currency: 'NGN', AuthOption: 'AUTH', ...payload },
      })
    ).json().data.paymentLink;

  it('says the plan in plain words on a SUB link page, in English and French', async () => {
    const link = await createLink({ Amount: 5000, FrequencyId: 6, NumberOfPayments: 6 });
    const english = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    expect(planOf(english.body)).toBe('NGN 5,000.00 every month, 6 payments, next on 22 December 2026');
    const french = await app.inject({ method: 'GET', url: `/l/${link.reference}`, headers: { 'accept-language': 'fr' } });
    expect(planOf(french.body)).toMatch(/^5 000,00 NGN tous les mois, 6 paiements, prochain le 22 décembre 2026$/u);
    const untilCancelled = await createLink({ Amount: 250, FrequencyId: 3 });
    expect(planOf((await app.inject({ method: 'GET', url: `/l/${untilCancelled.reference}` })).body)).toBe('NGN 250.00 every week, until cancelled, next on 29 November 2026');
  });

  it('words each frequency, one payment and a plan with nothing left to charge', () => {
    const words = (frequencyId: number, numberOfPayments: number | null, next: Date | null, language: 'en' | 'fr' = 'en') =>
      describePlan({ amount: 'USD 10.00', frequencyId, numberOfPayments, next, language });
    expect(words(1, 1, null)).toBe('USD 10.00 every hour, 1 payment');
    expect(words(4, 3, null, 'fr')).toBe('USD 10.00 toutes les 2 semaines, 3 paiements');
    expect(words(11, null, new Date('2027-01-01T00:00:00Z'), 'fr')).toBe("USD 10.00 tous les 2 ans, jusqu'à annulation, prochain le 1 janvier 2027");
  });

  it('shows the subscriber the schedule and a signed cancel link on the order page, which cancels after confirming', async () => {
    const link = await createLink({ Amount: 5000, FrequencyId: 3, NumberOfPayments: 4 });
    const formPage = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    const order = /name="order" value="([^"]+)"/.exec(formPage.body)![1]!;
    const posted = await app.inject({ method: 'POST', url: `/l/${link.reference}`, ...form({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', order }) });
    expect(posted.statusCode).toBe(303);
    const client = new CheckoutClient(app, keys);
    const paid = (await client.payByCard(order, '4242424242424242')).json();
    await client.authenticate(paid.data.paymentDetail.redirectUrl);

    const receipt = await app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(planOf(receipt.body)).toBe('NGN 5,000.00 every week, 4 payments, next on 29 November 2026');
    const cancelHref = unescape(/href="([^"]+)" data-testid="cancel-subscription"/.exec(receipt.body)![1]!);
    const token = new URL(cancelHref, 'http://x').searchParams.get('token')!;
    // The link names the subscription by a signed token only, never by its id or reference.
    const { recurringPaymentId, recurringPaymentReference } = (await client.verify(order)).json().data;
    expect(cancelHref).not.toContain(recurringPaymentReference);
    expect(token.split('.')).toHaveLength(3);

    const confirm = await app.inject({ method: 'GET', url: cancelHref, headers: { 'accept-language': 'fr' } });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Annuler votre abonnement');
    const tampered = await app.inject({ method: 'POST', url: '/checkout/subscriptions/cancel', ...form({ token: `${token.slice(0, -2)}AA` }) });
    expect(tampered.statusCode).toBe(404);
    expect(tampered.body).toContain('Subscription not found');

    const cancelled = await app.inject({ method: 'POST', url: '/checkout/subscriptions/cancel', ...form({ token }) });
    expect(cancelled.statusCode).toBe(303);
    const done = await app.inject({ method: 'GET', url: String(cancelled.headers.location) });
    expect(done.body).toContain('Subscription cancelled');
    const list = (await app.inject({ method: 'GET', url: `/checkout/links/${link.id}/subscriptions`, headers: { 'api-key': keys.secretKey } })).json();
    expect(list.data).toMatchObject([{ id: recurringPaymentId, status: 'cancelled' }]);
    const after = await app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(after.body).not.toContain('data-testid="cancel-subscription"');
  });

  it('keeps a link reference asking for its subscriptions out of log lines, and its id in them', () => {
    expect(loggablePath('/checkout/links/w2oMiUkIt9n_Utc2Thm0Wg/subscriptions')).toBe('/checkout/links/***/subscriptions');
    expect(loggablePath('/checkout/links/42/subscriptions')).toBe('/checkout/links/42/subscriptions');
    expect(loggablePath('/checkout/subscriptions/cancel?token=abc.def.ghi')).toBe('/checkout/subscriptions/cancel');
  });
});
