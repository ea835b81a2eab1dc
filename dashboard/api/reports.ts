/**
 * Home's figures and where they come from. The reports endpoint (`GET /checkout/reports/summary?from&to&interval`)
 * is being built beside the dashboard; Home is designed against the answer shape below, and this module is the one
 * place that turns that answer into what Home shows (`homeFigures`). At merge, `ReportsSource` is implemented by a
 * call through `ApiClient.call(contract.reports.summary, …)`, and only `homeFigures` changes if the real answer's
 * shape differs. Amounts are minor units (kobo, cents), as the operations API's `amountMinor`.
 */

export type Interval = 'hour' | 'day';

export interface ReportBucket {
  /** ISO 8601, the bucket's first instant. */
  start: string;
  collected: number;
  fees: number;
  refunds: number;
  net: number;
  /** Orders created in the bucket, and those of them paid. */
  count: number;
  paid: number;
}

export interface ReportTotals {
  collected: number;
  fees: number;
  refunds: number;
  net: number;
  count: number;
  paid: number;
  failed: number;
  /** Orders never paid and now too old to be. */
  abandoned: number;
  pendingTransfers: { count: number; amount: number };
  /** Attempts and successes by payment method. */
  byMethod: Record<string, { attempts: number; succeeded: number }>;
}

/** The assumed answer's `data`: one `{ totals, buckets }` per currency. */
export interface ReportSummary {
  currencies: { currency: string; totals: ReportTotals; buckets: ReportBucket[] }[];
}

export interface ReportsSource {
  summary(range: { from: Date; to: Date; interval: Interval }, signal?: AbortSignal): Promise<ReportSummary>;
}

export class ReportsUnavailable extends Error {}

/** The stand-in until the reports endpoint is wired in. */
export const notConnectedReports: ReportsSource = {
  summary: async () => {
    throw new ReportsUnavailable('reports are not connected');
  },
};

export type Period = 'today' | '7d' | '30d';
export const PERIODS: readonly Period[] = ['today', '7d', '30d'];

/** The range and bucket size of a period, ending now: today by hour (from local midnight), 7 and 30 days by day. */
export function rangeOf(period: Period, now = new Date()): { from: Date; to: Date; interval: Interval } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (period === 'today') return { from: midnight, to: now, interval: 'hour' };
  const days = period === '7d' ? 6 : 29;
  return { from: new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate() - days), to: now, interval: 'day' };
}

/** What Home shows for one currency. */
export interface HomeFigures {
  currency: string;
  collected: number;
  fees: number;
  refunds: number;
  net: number;
  failed: number;
  abandoned: number;
  pendingTransfers: { count: number; amount: number };
  /** Success rate by method, 0..1, or null for a method without attempts. */
  successByMethod: { method: string; rate: number | null; attempts: number }[];
  /** The chart's series: bucket start times (seconds) and amounts collected (minor units). */
  volume: { times: number[]; collected: number[] };
}

export function homeFigures(summary: ReportSummary): HomeFigures[] {
  return summary.currencies.map(({ currency, totals, buckets }) => ({
    currency,
    collected: totals.collected,
    fees: totals.fees,
    refunds: totals.refunds,
    net: totals.net,
    failed: totals.failed,
    abandoned: totals.abandoned,
    pendingTransfers: totals.pendingTransfers,
    successByMethod: Object.entries(totals.byMethod).map(([method, { attempts, succeeded }]) => ({
      method,
      attempts,
      rate: attempts > 0 ? succeeded / attempts : null,
    })),
    volume: {
      times: buckets.map((bucket) => Math.floor(new Date(bucket.start).getTime() / 1000)),
      collected: buckets.map((bucket) => bucket.collected),
    },
  }));
}
