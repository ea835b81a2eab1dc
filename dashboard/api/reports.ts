import type { DataOf } from './client.ts';
import type { ApiClient } from './client.ts';
import type { reportSummary } from '../../shared/contract/reports.ts';

/**
 * Home's figures and where they come from: `GET /checkout/reports/summary?from&to&interval` (contract
 * `reports.summary`), per UTC bucket and in total, per currency. `homeFigures` is the one place that turns that
 * answer into what Home shows. Amounts are minor units (kobo, cents).
 */

export type Interval = 'day' | 'week' | 'month';

/** The answer's `data`. */
export type ReportSummary = DataOf<typeof reportSummary>;

export interface ReportsSource {
  summary(range: { from: Date; to: Date; interval: Interval }, signal?: AbortSignal): Promise<ReportSummary>;
}

export class ReportsUnavailable extends Error {}

/** The reports endpoint through the API client; the contract (and zod) load with the first call, not with the shell. */
export function connectedReports(api: ApiClient): ReportsSource {
  return {
    summary: async ({ from, to, interval }, signal) => {
      const { reportSummary: endpoint } = await import('../../shared/contract/reports.ts');
      await import('./zod-config.ts');
      return api.call(endpoint, { query: { from: from.toISOString(), to: to.toISOString(), interval }, signal });
    },
  };
}

export type Period = 'today' | '7d' | '30d';
export const PERIODS: readonly Period[] = ['today', '7d', '30d'];

/** The range and bucket size of a period, ending now: from local midnight today, or 7 and 30 days by day. */
export function rangeOf(period: Period, now = new Date()): { from: Date; to: Date; interval: Interval } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (period === 'today') return { from: midnight, to: now, interval: 'day' };
  const days = period === '7d' ? 6 : 29;
  return { from: new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate() - days), to: now, interval: 'day' };
}

/** What Home shows for one currency. */
export interface HomeFigures {
  currency: string;
  collected: number;
  /** Every fee: the customer's share and the merchant's. */
  fees: number;
  refunds: number;
  net: number;
  orders: number;
  paidOrders: number;
  /** paidOrders / orders, or null without orders. */
  successRate: number | null;
  abandoned: number;
  /** Success rate by method, 0..1, or null for a method without attempts. */
  successByMethod: { method: string; rate: number | null; attempts: number }[];
  /** The chart's series: bucket start times (seconds) and amounts collected (minor units). */
  volume: { times: number[]; collected: number[] };
}

export function homeFigures(summary: ReportSummary): HomeFigures[] {
  return summary.total.currencies.map((total) => ({
    currency: total.currency,
    collected: total.collected.minor,
    fees: total.fees.total.minor,
    refunds: total.refunded.minor,
    net: total.net.minor,
    orders: total.orders,
    paidOrders: total.paidOrders,
    successRate: total.successRate,
    abandoned: total.abandoned,
    successByMethod: total.byMethod.map((method) => ({ method: method.method, attempts: method.attempts, rate: method.successRate })),
    volume: {
      times: summary.buckets.map((bucket) => Math.floor(new Date(bucket.start).getTime() / 1000)),
      // A bucket without this currency collected nothing in it.
      collected: summary.buckets.map((bucket) => bucket.currencies.find((each) => each.currency === total.currency)?.collected.minor ?? 0),
    },
  }));
}
