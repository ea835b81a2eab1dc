import { listOrders, orderSummarySchema, type OrderSummary } from '../../../shared/contract/orders.ts';
import type { ReportSummary } from '../../../dashboard/api/reports.ts';
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
  user: { email: 'ada@acme.test', name: 'Ada Obi', role: 'owner' },
  merchant: { name: 'Acme Stores' },
  mode: 'test',
  csrfToken: 'csrf-token-1',
  setup: { apiKeys: true, allowedOrigin: true, webhook: false, firstTestPayment: true, logo: false },
};

/** A session backend stand-in: signed in as `me` (or nobody), recording each call. */
export function fakeSession(me: Me | null = ME, overrides: Partial<SessionApi> = {}): SessionApi & { calls: string[] } {
  const calls: string[] = [];
  let current = me;
  return {
    calls,
    me: async () => (calls.push('me'), current),
    signInWithPassword: async (email) => (calls.push(`password ${email}`), { step: 'second_factor', factors: ['totp', 'backup_code'] }),
    verifySecondFactor: async (factor, code) => (calls.push(`${factor} ${code}`), (current = ME)),
    signInWithPasskey: async () => (calls.push('passkey'), (current = ME)),
    acceptInvitation: async (token) => (calls.push(`accept ${token}`), { step: 'signed_in', me: (current = ME) }),
    switchMode: async (mode) => (calls.push(`mode ${mode}`), (current = { ...(current ?? ME), mode })),
    signOut: async () => void (calls.push('sign-out'), (current = null)),
    ...overrides,
  };
}

/** A summary for a range: hourly or daily buckets, with the same totals. */
export function reportSummary(range: { from: Date; interval: 'hour' | 'day' } = { from: new Date('2026-11-22T00:00:00Z'), interval: 'day' }): ReportSummary {
  const start = range.from.getTime();
  const daily = [420_000_00, 515_500_00, 380_000_00, 610_250_00, 702_000_00, 455_000_00, 530_000_00];
  const hourly = [0, 0, 0, 0, 0, 0, 0, 12_000_00, 48_500_00, 95_000_00, 130_250_00, 88_000_00, 102_000_00, 76_500_00];
  const collected = range.interval === 'hour' ? hourly : daily;
  const step = range.interval === 'hour' ? 3_600_000 : 86_400_000;
  return {
    currencies: [
      {
        currency: 'NGN',
        totals: {
          collected: 3_612_750_00,
          fees: 54_191_25,
          refunds: 25_000_00,
          net: 3_533_558_75,
          count: 412,
          paid: 371,
          failed: 23,
          abandoned: 18,
          pendingTransfers: { count: 4, amount: 86_000_00 },
          byMethod: { card: { attempts: 300, succeeded: 279 }, bank_transfer: { attempts: 112, succeeded: 92 } },
        },
        buckets: collected.map((value, index) => ({ start: new Date(start + index * step).toISOString(), collected: value, fees: Math.round(value * 0.015), refunds: 0, net: Math.round(value * 0.985), count: 60, paid: 54 })),
      },
    ],
  };
}
