import { listOrders, orderSummarySchema, type OrderSummary } from '../../../shared/contract/orders.ts';
import type { Interval, ReportSummary } from '../../../dashboard/api/reports.ts';
import { getOrder } from '../../../shared/contract/order-detail.ts';
import { reportSummary as reportSummaryEndpoint } from '../../../shared/contract/reports.ts';
import type { Me, SessionApi } from '../../../dashboard/api/session.ts';

/** An order as the list answers it, checked by the contract's own schema. */
export function order(overrides: Partial<OrderSummary> & { reference: string }): OrderSummary {
  return orderSummarySchema.parse({
    origin: 'widget',
    state: 'paid',
    statusId: 5,
    amountMinor: 1_200_000,
    amount: '12000.00',
    currency: 'NGN',
    description: 'Two books',
    customer: { id: 'cus_1', email: 'ada@example.test', name: 'Ada Obi', mobile: '+2348012345678' },
    payment: {
      reference: `PAY-${overrides.reference}`,
      method: 'card',
      cardBrand: 'Mastercard',
      cardLast4: '4444',
      transferAccount: null,
      transferBank: null,
      receivedMinor: 1_200_000,
      feeMinor: 18_000,
      feeBearer: 'merchant',
    },
    linkReference: null,
    subscriptionReference: null,
    createdAt: '2026-11-28T10:00:00Z',
    updatedAt: '2026-11-28T10:01:00Z',
    ...overrides,
  });
}

export const ORDERS: OrderSummary[] = [
  order({ reference: 'ORD-1001' }),
  order({ reference: 'ORD-1002', state: 'failed', statusId: 4, amount: '5000.00', amountMinor: 500_000 }),
  order({
    reference: 'ORD-1003',
    state: 'awaiting_transfer',
    statusId: 2,
    currency: 'USD',
    amount: '40.00',
    amountMinor: 4000,
    customer: { id: 'cus_2', email: null, name: 'Chidi Okeke', mobile: '+2348099990000' },
    payment: { reference: 'PAY-3', method: 'bank_transfer', cardBrand: null, cardLast4: null, transferAccount: '0123456789', transferBank: 'Sandbox Bank', receivedMinor: 0, feeMinor: 0, feeBearer: 'customer' },
  }),
  order({ reference: 'ORD-1004', state: 'pending', statusId: 1, payment: null }),
];

/** The list's answer (the success envelope), checked by the endpoint's schema. */
export function orderPage(items: OrderSummary[], nextCursor: string | null = null): unknown {
  const body = { status: 'success', statusCode: '00', message: 'OK', data: { items, nextCursor } };
  listOrders.success.parse(body);
  return body;
}

export const ME: Me = {
  user: { id: 1, email: 'ada@acme.test', role: 'owner' },
  merchant: { id: 1, name: 'Acme Stores' },
  mode: 'test',
  permissions: ['orders.read', 'customers.manage', 'refunds.create', 'links.write', 'keys.rotate', 'webhooks.write', 'settings.write', 'team.manage', 'audit.read', 'security.manage'],
  csrfToken: 'csrf-token-1',
  twoFactor: { required: false, totp: true, passkeys: [], backupCodesLeft: 10 },
  stepUpUntil: null,
  setup: { apiKeys: true, allowedOrigin: true, webhook: false, firstTestPayment: true, logo: false },
};

/** A session backend stand-in: signed in as `me` (or nobody), recording each call. */
export function fakeSession(me: Me | null = ME, overrides: Partial<SessionApi> = {}): SessionApi & { calls: string[] } {
  const calls: string[] = [];
  let current = me;
  return {
    calls,
    me: async () => (calls.push('me'), current),
    signInWithPassword: async (email) => (calls.push(`password ${email}`), { step: 'second_factor', factors: ['totp', 'backup_code'], passkey: false }),
    verifySecondFactor: async (factor, code) => (calls.push(`${factor} ${code}`), (current = ME)),
    signInWithPasskey: async () => (calls.push('passkey'), (current = ME)),
    acceptInvitation: async (token) => (calls.push(`accept ${token}`), { step: 'signed_in', me: (current = ME) }),
    startTotp: async () => (calls.push('start totp'), TOTP),
    confirmTotp: async (code) => (calls.push(`confirm totp ${code}`), { me: (current = ME), backupCodes: ['7KQ2-M9XD-4TPA', 'H3WB-2NVC-8JRE'] }),
    stepUp: async (proof) => void calls.push(`step-up ${proof.method}`),
    switchMode: async (mode) => (calls.push(`mode ${mode}`), (current = { ...(current ?? ME), mode })),
    signOut: async () => void (calls.push('sign-out'), (current = null)),
    ...overrides,
  };
}

export const TOTP = { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Acme%20Stores:ada%40acme.test?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20Stores' };

const money = (minor: number) => ({ minor, amount: (minor / 100).toFixed(2) });

/** What `GET /checkout/reports/summary` answers for a range: daily buckets and their totals, checked by the contract. */
export function reportSummary(range: { from: Date; interval: Interval } = { from: new Date('2026-11-22T00:00:00Z'), interval: 'day' }): ReportSummary {
  const start = range.from.getTime();
  const daily = [420_000_00, 515_500_00, 380_000_00, 610_250_00, 702_000_00, 455_000_00, 530_000_00];
  const figures = (collected: number, orders: number, paidOrders: number) => ({
    currency: 'NGN',
    collected: money(collected),
    fees: { customer: money(Math.round(collected * 0.005)), merchant: money(Math.round(collected * 0.01)), total: money(Math.round(collected * 0.015)) },
    refunded: money(collected === 3_612_750_00 ? 25_000_00 : 0),
    net: money(Math.round(collected * 0.985)),
    orders,
    paidOrders,
    successRate: orders ? paidOrders / orders : null,
    abandoned: collected === 3_612_750_00 ? 18 : 2,
    byMethod: [
      { method: 'card', collected: money(Math.round(collected * 0.7)), payments: 279, attempts: 300, successRate: 0.93 },
      { method: 'bank_transfer', collected: money(Math.round(collected * 0.3)), payments: 92, attempts: 112, successRate: 92 / 112 },
    ],
  });
  const body = {
    status: 'success',
    statusCode: '00',
    message: 'OK',
    data: {
      from: new Date(start).toISOString(),
      to: new Date(start + daily.length * 86_400_000).toISOString(),
      interval: range.interval,
      buckets: daily.map((value, index) => ({
        start: new Date(start + index * 86_400_000).toISOString(),
        end: new Date(start + (index + 1) * 86_400_000).toISOString(),
        currencies: [figures(value, 60, 54)],
      })),
      total: { currencies: [figures(3_612_750_00, 412, 371)] },
    },
  };
  return reportSummaryEndpoint.success.parse(body).data;
}

/** `GET /checkout/orders/:reference` for one of `ORDERS`: its detail and timeline, checked by the contract. */
export function orderDetailAnswer(summary: OrderSummary): unknown {
  const paid = summary.state === 'paid';
  const card = summary.payment?.method === 'card';
  const at = (minutes: number) => new Date(Date.parse(summary.createdAt) + minutes * 60_000).toISOString();
  const attempt = summary.payment && {
    reference: summary.payment.reference,
    method: summary.payment.method,
    statusId: summary.statusId,
    stage: paid ? 'done' : 'transfer',
    responseCode: paid ? '00' : '09',
    rawResponseCode: null,
    reason: null,
    message: paid ? 'Approved' : 'Awaiting transfer',
    processor: 'sandbox',
    amountMinor: summary.amountMinor,
    feeMinor: summary.payment.feeMinor,
    customerFeeMinor: 0,
    merchantFeeMinor: summary.payment.feeMinor,
    totalMinor: summary.amountMinor,
    feeBearer: summary.payment.feeBearer,
    cardBrand: summary.payment.cardBrand,
    cardLast4: summary.payment.cardLast4,
    transferAccount: summary.payment.transferAccount,
    transferBank: summary.payment.transferBank,
    transferExpiresAt: card ? null : at(30),
    receivedMinor: summary.payment.receivedMinor,
    excessMinor: 0,
    createdAt: at(0),
    confirmedAt: paid ? at(1) : null,
  };
  const refunds = paid
    ? [{ reference: 'RFD1', paymentReference: summary.payment!.reference, state: 'succeeded', amountMinor: 200_000, amount: '2000.00', currency: summary.currency, reason: 'Damaged cover', responseCode: '00', responseMessage: 'Refunded', createdAt: at(60), completedAt: at(60) }]
    : [];
  const refundableMinor = paid ? summary.amountMinor - 200_000 : 0;
  const timeline = [
    { at: at(0), actor: 'widget', type: 'order_created', origin: 'widget', linkReference: null, subscriptionReference: null, amountMinor: summary.amountMinor, amount: summary.amount, currency: summary.currency },
    ...(attempt
      ? [
          { at: at(0), actor: 'customer', type: 'attempt_started', paymentReference: attempt.reference, method: attempt.method },
          { at: at(0), actor: 'system', type: 'fee_quoted', paymentReference: attempt.reference, method: attempt.method, rule: null, bearer: attempt.feeBearer, feeMinor: attempt.feeMinor, customerFeeMinor: 0, merchantFeeMinor: attempt.feeMinor, totalMinor: attempt.totalMinor },
        ]
      : []),
    ...(attempt && !card ? [{ at: at(0), actor: 'system', type: 'transfer_account_issued', paymentReference: attempt.reference, account: attempt.transferAccount, bank: attempt.transferBank, expiresAt: attempt.transferExpiresAt }] : []),
    ...(paid
      ? [
          { at: at(1), actor: 'processor', type: 'payment_approved', paymentReference: attempt!.reference, responseCode: '00', rawResponseCode: null, message: 'Approved' },
          { at: at(1), actor: 'system', type: 'webhook_delivery', deliveryId: 'whd_1', eventId: 'evt_1', eventType: 'payment.succeeded', endpointUrl: 'https://shop.example/hooks', status: 'succeeded', resendOf: null, attempts: [{ attempt: 1, startedAt: at(1), finishedAt: at(1), statusCode: 200, error: null, latencyMs: 84 }] },
          { at: at(60), actor: 'team_member', type: 'refund_requested', refundReference: 'RFD1', paymentReference: attempt!.reference, amountMinor: 200_000, amount: '2000.00', currency: summary.currency, reason: 'Damaged cover' },
          { at: at(60), actor: 'processor', type: 'refund_succeeded', refundReference: 'RFD1', responseCode: '00', message: 'Refunded' },
          { at: at(90), actor: 'team_member', type: 'note', text: 'Customer called: cover torn, refunded 2,000.', author: 'ada@acme.test' },
        ]
      : []),
  ];
  const body = {
    status: 'success',
    statusCode: '00',
    message: 'OK',
    data: {
      order: { ...summary, items: [{ name: 'Summary', amountMinor: summary.amountMinor, amount: summary.amount }], attempts: attempt ? [attempt] : [], refunds, refundable: { amountMinor: refundableMinor, amount: (refundableMinor / 100).toFixed(2), currency: summary.currency } },
      timeline,
    },
  };
  getOrder.success.parse(body);
  return body;
}
