import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../shared/webhooks.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { signedInMember, totpCode, type TeamBrowser } from '../support/team.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const CARD_APPROVED = '5555555555554444';
const HOUR = 3_600_000;

/**
 * The operations endpoints the dashboard's Links, Subscriptions, Developers and Settings screens call (issue 32 items
 * 5 to 8), through both doors: the merchant's secret key and a signed-in member's session (with the CSRF token, and a
 * fresh second factor where the contract asks one). A role without the permission is refused, a change without the
 * step-up is refused, and another merchant's endpoints, links and subscriptions are not found.
 */
describe.each(drivers)('the dashboard operations endpoints on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const test = useTestApp(driver, { clock });
  const receivers: WebhookReceiver[] = [];
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let owner: TeamBrowser;
  let support: TeamBrowser;

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  /** The secret key's door: the same paths, the merchant's server calling. */
  const withKey = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, key = keys.secretKey) =>
    app.inject({ method, url, headers: { 'api-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

  async function receiver() {
    const started = await new WebhookReceiver(() => 200).start();
    receivers.push(started);
    return started;
  }

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
    other = await createMerchant(app);
    ({ browser: owner } = await signedInMember(app, keys.subsidiaryId, 'owner'));
    ({ browser: support } = await signedInMember(app, keys.subsidiaryId, 'support'));
    const { secret } = await owner.enrolTotp(clock);
    // The next 30-second window: the code that confirmed the enrolment works once.
    clock.advance(30_000);
    const stepped = await owner.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) });
    expect(stepped.statusCode, stepped.body).toBe(200);
  });

  describe('webhook endpoints', () => {
    it('adds, filters, disables, enables and deletes an endpoint from the dashboard, each audited', async () => {
      const target = await receiver();
      const created = await owner.call('POST', '/checkout/webhooks', { url: target.url(), eventTypes: ['refund.succeeded'] });
      expect(created.statusCode, created.body).toBe(200);
      const endpoint = created.json().data as { id: string; secret: string; eventTypes: string[] };
      expect(endpoint).toMatchObject({ eventTypes: ['refund.succeeded'], status: 'enabled', secret: expect.stringMatching(/^whsec_/) });

      const changed = await owner.call('PATCH', `/checkout/webhooks/${endpoint.id}`, { eventTypes: null });
      expect(changed.json().data).toMatchObject({ eventTypes: null });
      expect((await owner.call('POST', `/checkout/webhooks/${endpoint.id}/disable`)).json().data).toMatchObject({ status: 'disabled' });
      expect((await owner.call('POST', `/checkout/webhooks/${endpoint.id}/enable`)).json().data).toMatchObject({ status: 'enabled', disabledAt: null });
      expect((await owner.call('DELETE', `/checkout/webhooks/${endpoint.id}`)).json().data).toEqual({ id: endpoint.id, deleted: true });
      const listed = (await owner.call('GET', '/checkout/webhooks')).json().data as { id: string }[];
      expect(listed.map((each) => each.id)).not.toContain(endpoint.id);
      expect((await owner.call('POST', `/checkout/webhooks/${endpoint.id}/enable`)).statusCode).toBe(404);

      const audit = (await owner.call('GET', '/checkout/team/audit?limit=20')).json().data.items as { action: string; target: string | null }[];
      const actions = audit.filter((entry) => entry.target === `webhook:${endpoint.id}`).map((entry) => entry.action);
      expect(actions).toEqual(expect.arrayContaining(['webhook_endpoint_created', 'webhook_endpoint_changed', 'webhook_endpoint_disabled', 'webhook_endpoint_enabled', 'webhook_endpoint_deleted']));
    });

    it('holds every new URL to the destination guard, on create and on change', async () => {
      const refused = await withKey('POST', '/checkout/webhooks', { url: 'http://169.254.169.254/latest/meta-data' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain('cloud metadata');
      const target = await receiver();
      const { id } = (await withKey('POST', '/checkout/webhooks', { url: target.url() })).json().data as { id: string };
      const changed = await withKey('PATCH', `/checkout/webhooks/${id}`, { url: 'http://169.254.169.254/hook' });
      expect(changed.statusCode).toBe(400);
      expect((await withKey('GET', '/checkout/webhooks')).json().data.find((each: { id: string }) => each.id === id).url).toBe(target.url());
      await withKey('DELETE', `/checkout/webhooks/${id}`);
    });

    it('delivers only the event types an endpoint takes, and a test event to that endpoint alone', async () => {
      const all = await receiver();
      const refundsOnly = await receiver();
      const every = (await withKey('POST', '/checkout/webhooks', { url: all.url() })).json().data as { id: string };
      const filtered = (await withKey('POST', '/checkout/webhooks', { url: refundsOnly.url(), eventTypes: ['refund.succeeded'] })).json().data as { id: string };
      const client = new CheckoutClient(app, keys);
      const reference = await client.newOrder();
      expect((await client.payByCard(reference, CARD_APPROVED)).json()).toMatchObject({ statusCode: '00' });
      const deliveriesOf = async (id: string, query = '') => (await withKey('GET', `/checkout/webhooks/${id}/deliveries${query}`)).json().data as { eventType: string; status: string; request: { body: string } }[];
      expect((await deliveriesOf(every.id)).map((delivery) => delivery.eventType)).toContain('order.successful');
      expect(await deliveriesOf(filtered.id)).toEqual([]);

      const sent = await owner.call('POST', `/checkout/webhooks/${filtered.id}/test`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().data).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
      await app.jobs.runDue();
      expect(refundsOnly.received.map((request) => JSON.parse(request.body).type)).toEqual(['webhook.test']);
      expect(all.received.map((request) => JSON.parse(request.body).type)).not.toContain('webhook.test');
      const [delivered] = await deliveriesOf(filtered.id);
      expect(delivered).toMatchObject({ status: 'succeeded' });
      // What was sent, byte for byte, for the log's "request".
      expect(delivered!.request.body).toBe(refundsOnly.received[0]!.body);
      expect(await deliveriesOf(filtered.id, '?status=failed')).toEqual([]);
      await withKey('DELETE', `/checkout/webhooks/${every.id}`);
      await withKey('DELETE', `/checkout/webhooks/${filtered.id}`);
    });

    it("refuses a support member, a change without a fresh second factor, and another merchant's endpoint", async () => {
      const target = await receiver();
      expect((await support.call('GET', '/checkout/webhooks')).json()).toMatchObject({ statusCode: 'AUTH403', reason: 'permission_denied' });
      expect((await support.call('POST', '/checkout/webhooks', { url: target.url() })).json()).toMatchObject({ reason: 'permission_denied' });

      const { browser: developer } = await signedInMember(app, keys.subsidiaryId, 'developer');
      expect((await developer.call('GET', '/checkout/webhooks')).statusCode).toBe(200);
      expect((await developer.call('POST', '/checkout/webhooks', { url: target.url() })).json()).toMatchObject({ statusCode: 'AUTH403', reason: 'step_up_required' });

      const theirs = (await withKey('POST', '/checkout/webhooks', { url: target.url() }, other.secretKey)).json().data as { id: string };
      for (const [method, path] of [['GET', `/checkout/webhooks/${theirs.id}/deliveries`], ['POST', `/checkout/webhooks/${theirs.id}/test`], ['POST', `/checkout/webhooks/${theirs.id}/enable`], ['DELETE', `/checkout/webhooks/${theirs.id}`]] as const) {
        expect((await owner.call(method, path)).statusCode, `${method} ${path}`).toBe(404);
        expect((await withKey(method, path)).statusCode, `${method} ${path} with a key`).toBe(404);
      }
    });
  });

  describe('payment links', () => {
    const body = { Name: 'Spring sale', Description: 'Two tickets.', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'AUTH', Amount: '5000', Limit: 10 };

    it('creates, edits, disables and activates a link with a session and with the secret key', async () => {
      const created = await owner.call('POST', '/checkout/payment-links', body);
      expect(created.statusCode, created.body).toBe(200);
      const link = created.json().data as { id: number; reference: string; url: string };
      expect(created.json().data).toMatchObject({ name: 'Spring sale', type: 'MC', amount: '5000.00', payerLimit: 10, active: true, url: expect.stringContaining(`/l/${link.reference}`) });
      expect((await owner.call('PATCH', `/checkout/payment-links/${link.reference}`, { Name: 'Summer sale', Amount: '7500.50' })).json().data).toMatchObject({ name: 'Summer sale', amount: '7500.50' });
      expect((await owner.call('POST', `/checkout/payment-links/${link.id}/disable`)).json().data).toMatchObject({ active: false });
      expect((await withKey('POST', `/checkout/payment-links/${link.id}/activate`)).json().data).toMatchObject({ active: true });
      const sub = await withKey('POST', '/checkout/payment-links', { ...body, PaymentType: 'SUB', Limit: undefined, FrequencyId: 6, NumberOfPayments: 12 });
      expect(sub.json().data).toMatchObject({ type: 'SUB', plan: { frequencyId: 6, numberOfPayments: 12 } });
    });

    it("refuses a support member and cannot reach another merchant's link", async () => {
      expect((await support.call('POST', '/checkout/payment-links', body)).json()).toMatchObject({ reason: 'permission_denied' });
      const theirs = (await withKey('POST', '/checkout/payment-links', body, other.secretKey)).json().data as { id: number; reference: string };
      expect((await owner.call('POST', `/checkout/payment-links/${theirs.id}/disable`)).statusCode).toBe(404);
      expect((await withKey('PATCH', `/checkout/payment-links/${theirs.reference}`, { Name: 'Mine now' })).statusCode).toBe(404);
    });
  });

  describe('subscriptions', () => {
    it("needs customers.manage and a fresh second factor to cancel, and finds no other merchant's subscription", async () => {
      const { browser: viewer } = await signedInMember(app, keys.subsidiaryId, 'viewer');
      expect((await viewer.call('POST', '/checkout/subscriptions/1/cancel')).json()).toMatchObject({ reason: 'permission_denied' });
      expect((await support.call('POST', '/checkout/subscriptions/1/cancel')).json()).toMatchObject({ reason: 'step_up_required' });
      expect((await owner.call('POST', '/checkout/subscriptions/999999/cancel')).statusCode).toBe(404);
      expect((await withKey('POST', '/checkout/subscriptions/999999/cancel')).statusCode).toBe(404);
    });
  });

  describe('settings', () => {
    it('reads and changes the branding and allowed origins, with a session or the secret key', async () => {
      const read = await support.call('GET', '/checkout/settings');
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().data).toMatchObject({ mode: 'test', publishableKey: keys.publishableKey, brandColor: null });

      const changed = await owner.call('PATCH', '/checkout/settings', { name: 'Acme Stores', supportEmail: 'help@acme.test', brandColor: '#0A7D5A', logoUrl: 'https://acme.test/logo.png' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().data).toMatchObject({ name: 'Acme Stores', supportEmail: 'help@acme.test', brandColor: '#0a7d5a', logoUrl: 'https://acme.test/logo.png' });
      expect((await withKey('PATCH', '/checkout/settings', { brandColor: null, logoUrl: null })).json().data).toMatchObject({ brandColor: null, logoUrl: null, name: 'Acme Stores' });

      const origins = await owner.call('PUT', '/checkout/settings/allowed-origins', { origins: ['https://shop.acme.test/', 'https://shop.acme.test'] });
      expect(origins.json().data.allowedOrigins).toEqual(['https://shop.acme.test']);
      expect((await withKey('PUT', '/checkout/settings/allowed-origins', { origins: ['http://[::1]:8080'] })).statusCode).toBe(400);
      expect((await withKey('GET', '/checkout/settings', undefined, other.secretKey)).json().data.allowedOrigins).not.toContain('https://shop.acme.test');
    });

    it('refuses a support member and a change without a fresh second factor', async () => {
      expect((await support.call('PATCH', '/checkout/settings', { name: 'Hijacked' })).json()).toMatchObject({ reason: 'permission_denied' });
      const { browser: admin } = await signedInMember(app, keys.subsidiaryId, 'admin');
      expect((await admin.call('PUT', '/checkout/settings/allowed-origins', { origins: [] })).json()).toMatchObject({ reason: 'step_up_required' });
    });
  });

  describe('the sandbox transfer', () => {
    it('simulates a transfer from the dashboard in test mode, and refuses a support member', async () => {
      const client = new CheckoutClient(app, keys);
      const reference = await client.newOrder({ order: { amount: 12000 } });
      const paid = (await client.payByTransfer(reference)).json();
      const account = String(paid.data?.accountNumber ?? paid.data?.transferDetails?.accountNumber ?? JSON.stringify(paid).match(/"(\d{10})"/)?.[1]);
      expect((await support.call('POST', '/checkout/sandbox/transfers', { accountNumber: account, amount: 5000 })).json()).toMatchObject({ reason: 'permission_denied' });
      const short = await owner.call('POST', '/checkout/sandbox/transfers', { accountNumber: account, amount: 5000 });
      expect(short.statusCode, short.body).toBe(200);
      expect(short.json().data).toMatchObject({ orderReference: reference, amountReceived: 5000 });
    });
  });
  // Last: it moves the app's clock a day on, past every session's step-up.
  describe('webhook secret rotation', () => {
    it('signs with the old secret too, as a second v1, until the overlap after a rotation ends', async () => {
      const target = await receiver();
      const created = (await withKey('POST', '/checkout/webhooks', { url: target.url() })).json().data as { id: string; secret: string };
      const rotated = await owner.call('POST', `/checkout/webhooks/${created.id}/rotate-secret`, { overlapHours: 24 });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const { secret, previousSecretUntil } = rotated.json().data as { secret: string; previousSecretUntil: string };
      expect(previousSecretUntil).toBe(formatTimestamp(new Date(clock.now().getTime() + 24 * HOUR)));

      await withKey('POST', `/checkout/webhooks/${created.id}/test`);
      await app.jobs.runDue();
      const first = target.received.at(-1)!;
      const header = String(first.headers[SIGNATURE_HEADER]);
      expect(header.match(/v1=/g)).toHaveLength(2);
      expect(verifyWebhookSignature(first.body, header, secret, { now: clock.now() })).toBe(true);
      expect(verifyWebhookSignature(first.body, header, created.secret, { now: clock.now() })).toBe(true);

      clock.advance(25 * HOUR);
      await withKey('POST', `/checkout/webhooks/${created.id}/test`);
      await app.jobs.runDue();
      const later = target.received.at(-1)!;
      const laterHeader = String(later.headers[SIGNATURE_HEADER]);
      expect(laterHeader.match(/v1=/g)).toHaveLength(1);
      expect(verifyWebhookSignature(later.body, laterHeader, created.secret, { now: clock.now() })).toBe(false);
      // Without a body the overlap is the default, 24 hours; 0 ends it at once.
      expect((await withKey('POST', `/checkout/webhooks/${created.id}/rotate-secret`)).json().data.previousSecretUntil).toBe(formatTimestamp(new Date(clock.now().getTime() + 24 * HOUR)));
      expect((await withKey('POST', `/checkout/webhooks/${created.id}/rotate-secret`, { overlapHours: 0 })).json().data.previousSecretUntil).toBeNull();
      await withKey('DELETE', `/checkout/webhooks/${created.id}`);
    });

  });
});
