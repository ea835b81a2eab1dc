import { customerDetailSchema, customerSummarySchema, getCustomer, listCustomers } from '../../../shared/contract/customers.ts';
import { getPaymentLink, linkSummarySchema, listPaymentLinkOrders, listPaymentLinks, type LinkSummary } from '../../../shared/contract/links.ts';
import { getSettings } from '../../../shared/contract/settings.ts';
import { cancelSubscription, listSubscriptions, subscriptionSummarySchema } from '../../../shared/contract/subscriptions.ts';
import { listAudit, listMembers, stepUp } from '../../../shared/contract/team.ts';
import { listWebhookDeliveries, listWebhookEndpoints, rotateWebhookSecret } from '../../../shared/contract/webhooks.ts';
import { PERMISSIONS, type Permission } from '../../../shared/contract/permissions.ts';
import type { Endpoint } from '../../../shared/contract/endpoint.ts';
import type { Me } from '../../../dashboard/api/session.ts';
import { ME, ORDERS } from './fixtures.ts';

/**
 * The operations screens' stubbed answers, each checked by its endpoint's own schema (a fixture the contract would
 * refuse fails here, not in a screen), and one `answer(method, url)` that serves them to the component tests and the
 * screenshots script alike.
 */
const envelope = <E extends Endpoint>(endpoint: E, data: unknown) => {
  const body = { status: 'success', statusCode: '00', message: 'OK', data };
  endpoint.success.parse(body);
  return body;
};

/** The owner: every permission. */
export const OWNER: Me & { permissions: Permission[] } = { ...ME, permissions: [...PERMISSIONS] };
/** Support: reads, manages customers, refunds; no links, webhooks, settings, team or audit. */
export const SUPPORT: Me & { permissions: Permission[] } = { ...ME, user: { ...ME.user, role: 'support' }, permissions: ['orders.read', 'customers.manage', 'refunds.create'] };

export const LINKS: LinkSummary[] = [
  linkSummarySchema.parse({
    id: 7, reference: 'Zk3vQm9sT1', name: 'Spring concert tickets', description: 'Two seats, row F.', type: 'MC', active: true, currency: 'NGN',
    amountMinor: 1_500_000, amount: '15000.00', payerLimit: 200, payments: 37, plan: null, url: 'http://127.0.0.1/l/Zk3vQm9sT1', createdAt: '2026-11-20T09:00:00Z',
  }),
  linkSummarySchema.parse({
    id: 6, reference: 'Gym0Membr8', name: 'Gym membership', description: 'Monthly, cancel any time.', type: 'SUB', active: true, currency: 'NGN',
    amountMinor: 2_000_000, amount: '20000.00', payerLimit: 0, payments: 112, plan: { frequencyId: 6, numberOfPayments: null }, url: 'http://127.0.0.1/l/Gym0Membr8', createdAt: '2026-10-02T09:00:00Z',
  }),
  linkSummarySchema.parse({
    id: 5, reference: 'D0nate4ll1', name: 'Donations', description: 'Any amount helps.', type: 'MC', active: false, currency: 'USD',
    amountMinor: null, amount: null, payerLimit: 0, payments: 9, plan: null, url: 'http://127.0.0.1/l/D0nate4ll1', createdAt: '2026-09-14T09:00:00Z',
  }),
];

export const SUBSCRIPTIONS = [
  subscriptionSummarySchema.parse({
    id: 41, reference: 'SUB-41', state: 'active', plan: { frequencyId: 6, frequency: 'Monthly', numberOfPayments: 12 }, amountMinor: 2_000_000, amount: '20000.00', currency: 'NGN',
    customer: { id: 'cus_ada', email: 'ada@example.test', name: 'Ada Obi', mobile: null }, linkReference: 'Gym0Membr8', firstOrderReference: 'ORD-2001',
    paymentsMade: 4, nextChargeAt: '2026-12-02T09:00:00Z', createdAt: '2026-08-02T09:00:00Z', endedAt: null,
  }),
  subscriptionSummarySchema.parse({
    id: 42, reference: 'SUB-42', state: 'past_due', plan: { frequencyId: 3, frequency: 'Weekly', numberOfPayments: null }, amountMinor: 500_000, amount: '5000.00', currency: 'NGN',
    customer: { id: 'cus_bola', email: 'bola@example.test', name: 'Bola Ade', mobile: '+2348099990000' }, linkReference: 'Gym0Membr8', firstOrderReference: 'ORD-2002',
    paymentsMade: 9, nextChargeAt: '2026-11-29T09:00:00Z', createdAt: '2026-09-02T09:00:00Z', endedAt: null,
  }),
  subscriptionSummarySchema.parse({
    id: 43, reference: 'SUB-43', state: 'cancelled', plan: { frequencyId: 10, frequency: 'Yearly', numberOfPayments: null }, amountMinor: 9_900, amount: '99.00', currency: 'USD',
    customer: { id: 'cus_chi', email: null, name: 'Chi Eze', mobile: '08031234567' }, linkReference: null, firstOrderReference: 'ORD-2003',
    paymentsMade: 1, nextChargeAt: null, createdAt: '2026-03-02T09:00:00Z', endedAt: '2026-06-02T09:00:00Z',
  }),
];

export const CUSTOMERS = [
  customerSummarySchema.parse({
    id: 'cus_ada', email: 'ada@example.test', name: 'Ada Obi', mobile: '+2348012345678', country: 'NG', ordersCount: 6, paidCount: 5,
    totalPaid: [{ currency: 'NGN', amountMinor: 9_800_000, amount: '98000.00' }, { currency: 'USD', amountMinor: 4000, amount: '40.00' }],
    firstOrderAt: '2026-08-02T09:00:00Z', lastOrderAt: '2026-11-27T18:20:00Z',
  }),
  customerSummarySchema.parse({
    id: 'cus_bola', email: 'bola@example.test', name: 'Bola Ade', mobile: null, country: 'NG', ordersCount: 2, paidCount: 1,
    totalPaid: [{ currency: 'NGN', amountMinor: 500_000, amount: '5000.00' }], firstOrderAt: '2026-09-02T09:00:00Z', lastOrderAt: '2026-11-20T10:00:00Z',
  }),
];

export const CUSTOMER = customerDetailSchema.parse({
  ...CUSTOMERS[0],
  orders: { items: ORDERS.slice(0, 2), nextCursor: null },
  subscriptions: [SUBSCRIPTIONS[0]],
  cards: [{ id: 'card_12', brand: 'Mastercard', last4: '4444', expiry: '01/29', savedAt: '2026-08-02T09:00:00Z' }],
});

export const SETTINGS = {
  name: 'Acme Stores', supportEmail: 'help@acme.test', logoUrl: null, brandColor: '#0f766e', allowedOrigins: ['https://shop.acme.test'], mode: 'test',
  publishableKey: 'pk_test_4eC39HqLyjWDarjtT1zdp7dc',
};

export const ENDPOINTS = [
  { id: 'we_AAAAAAAAAAAAAAAAAAAAAA', url: 'https://shop.acme.test/webhooks/checkout', mode: 'test', status: 'enabled', eventTypes: null, createdAt: '2026-11-01T09:00:00Z', secretRotatedAt: '2026-11-27T09:00:00Z', previousSecretUntil: '2026-11-28T09:00:00Z', disabledAt: null },
  { id: 'we_BBBBBBBBBBBBBBBBBBBBBB', url: 'https://erp.acme.test/hooks', mode: 'test', status: 'disabled', eventTypes: ['refund.succeeded', 'refund.failed'], createdAt: '2026-10-01T09:00:00Z', secretRotatedAt: null, previousSecretUntil: null, disabledAt: '2026-11-10T09:00:00Z' },
];

const body = (type: string) => JSON.stringify({ id: 'evt_1', type, createdAt: '2026-11-27T18:20:00Z', data: { reference: 'ORD-1001', amount: 12000, statusId: 5 } });
export const DELIVERIES = [
  {
    id: 'wd_AAAAAAAAAAAAAAAAAAAAAA', endpointId: ENDPOINTS[0]!.id, eventId: 'evt_1', eventType: 'order.successful', status: 'failed',
    attempts: [
      { attempt: 1, startedAt: '2026-11-27T18:20:01Z', outcome: 'failed', statusCode: 500, error: null, latencyMs: 212 },
      { attempt: 2, startedAt: '2026-11-27T18:21:01Z', outcome: 'failed', statusCode: null, error: 'No answer within 10 seconds.', latencyMs: 10000 },
    ],
    request: { body: body('order.successful') }, nextAttemptAt: null, deliverUntil: '2026-11-30T18:20:00Z', resendOf: null, lastError: 'No answer within 10 seconds.',
    createdAt: '2026-11-27T18:20:00Z', completedAt: '2026-11-27T18:21:11Z',
  },
  {
    id: 'wd_BBBBBBBBBBBBBBBBBBBBBB', endpointId: ENDPOINTS[0]!.id, eventId: 'evt_2', eventType: 'webhook.test', status: 'succeeded',
    attempts: [{ attempt: 1, startedAt: '2026-11-27T18:30:01Z', outcome: 'succeeded', statusCode: 204, error: null, latencyMs: 88 }],
    request: { body: body('webhook.test') }, nextAttemptAt: null, deliverUntil: '2026-11-30T18:30:00Z', resendOf: null, lastError: null,
    createdAt: '2026-11-27T18:30:00Z', completedAt: '2026-11-27T18:30:01Z',
  },
];

export const MEMBERS = [
  { id: 1, email: 'ada@acme.test', role: 'owner', status: 'active', twoFactor: { totp: true, passkeys: 1 }, lastSignInAt: '2026-11-28T08:00:00Z', createdAt: '2026-01-02T09:00:00Z' },
  { id: 2, email: 'dev@acme.test', role: 'developer', status: 'active', twoFactor: { totp: true, passkeys: 0 }, lastSignInAt: '2026-11-25T08:00:00Z', createdAt: '2026-03-02T09:00:00Z' },
  { id: 3, email: 'help@acme.test', role: 'support', status: 'invited', twoFactor: { totp: false, passkeys: 0 }, lastSignInAt: null, createdAt: '2026-11-27T09:00:00Z' },
];

export const AUDIT = [
  { id: 9, at: '2026-11-28T08:05:00Z', action: 'webhook_secret_rotated', actor: { id: 1, email: 'ada@acme.test', role: 'owner' }, ip: '203.0.113.7', target: 'webhook:we_AAAAAAAAAAAAAAAAAAAAAA overlap 24h' },
  { id: 8, at: '2026-11-28T08:04:00Z', action: 'step_up', actor: { id: 1, email: 'ada@acme.test', role: 'owner' }, ip: '203.0.113.7', target: null },
  { id: 7, at: '2026-11-28T08:00:00Z', action: 'sign_in', actor: { id: 1, email: 'ada@acme.test', role: 'owner' }, ip: '203.0.113.7', target: null },
  { id: 6, at: '2026-11-27T16:00:00Z', action: 'role_changed', actor: { id: 1, email: 'ada@acme.test', role: 'owner' }, ip: '198.51.100.4', target: 'member:2 developer' },
  { id: 5, at: '2026-11-27T15:00:00Z', action: 'sign_in_failed', actor: { id: null, email: 'unknown@acme.test', role: null }, ip: '192.0.2.55', target: null },
];

/** The answer for a request of the operations screens, or undefined when it is not one of theirs. */
export function operationsAnswer(method: string, url: URL): { status?: number; body: unknown } | undefined {
  const path = url.pathname;
  if (method === 'GET' && path === '/checkout/payment-links') return { body: envelope(listPaymentLinks, { items: LINKS, nextCursor: null }) };
  const link = LINKS.find((each) => path.startsWith(`/checkout/payment-links/${each.reference}`));
  if (method === 'GET' && link && path.endsWith('/orders')) return { body: envelope(listPaymentLinkOrders, { items: ORDERS.slice(0, 3), nextCursor: null }) };
  if (link && method === 'GET') return { body: envelope(getPaymentLink, link) };
  if (link && method === 'POST') return { body: envelope(getPaymentLink, { ...link, active: path.endsWith('/activate') }) };
  if (method === 'GET' && path === '/checkout/subscriptions') return { body: envelope(listSubscriptions, { items: SUBSCRIPTIONS, nextCursor: null }) };
  if (method === 'POST' && /^\/checkout\/subscriptions\/\d+\/cancel$/.test(path)) return { body: envelope(cancelSubscription, { id: Number(path.split('/')[3]), cancelled: true, chargeInFlight: false }) };
  if (method === 'GET' && path === '/checkout/customers') return { body: envelope(listCustomers, { items: CUSTOMERS, nextCursor: null }) };
  if (method === 'GET' && path.startsWith('/checkout/customers/cus_')) return { body: envelope(getCustomer, CUSTOMER) };
  if (method === 'DELETE' && path.includes('/cards/')) return { body: { status: 'success', statusCode: '00', message: 'OK', data: { id: 'card_12', revoked: true } } };
  if (method === 'GET' && path === '/checkout/settings') return { body: envelope(getSettings, SETTINGS) };
  if (method === 'GET' && path === '/checkout/webhooks') return { body: envelope(listWebhookEndpoints, ENDPOINTS) };
  if (method === 'GET' && path.endsWith('/deliveries')) {
    const failed = url.searchParams.get('status') === 'failed';
    return { body: envelope(listWebhookDeliveries, DELIVERIES.filter((delivery) => !failed || delivery.status === 'failed')) };
  }
  if (method === 'POST' && path.endsWith('/rotate-secret')) return { body: envelope(rotateWebhookSecret, { ...ENDPOINTS[0], secret: 'whsec_new-secret-shown-once' }) };
  if (method === 'GET' && path === '/checkout/team/members') return { body: envelope(listMembers, MEMBERS) };
  if (method === 'GET' && path === '/checkout/team/audit') return { body: envelope(listAudit, { items: AUDIT, nextCursor: null }) };
  if (method === 'POST' && path === '/checkout/team/step-up') return { body: envelope(stepUp, { stepUpUntil: '2026-11-28T08:10:00Z', csrfToken: 'csrf-token-2' }) };
  return undefined;
}
