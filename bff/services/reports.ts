import { MAX_REPORT_DAYS } from '../../shared/contract/reports.ts';
import { invalid } from '../errors.ts';
import * as figures from '../repositories/reports.ts';
import type { Interval } from '../repositories/reports.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { MerchantScope } from './order-lists.ts';

export type { Interval };

export type MethodFigures = { collectedMinor: number; payments: number; attempts: number; succeeded: number };

/** One currency's figures over a bucket or the whole range; amounts in its minor units, never mixed with another's. */
export type CurrencyFigures = {
  currency: string;
  collectedMinor: number;
  customerFeeMinor: number;
  merchantFeeMinor: number;
  refundedMinor: number;
  orders: number;
  paidOrders: number;
  abandoned: number;
  byMethod: Map<'C' | 'bank-transfer', MethodFigures>;
};

export type Bucket = { start: Date; end: Date; currencies: CurrencyFigures[] };
export type Report = { from: Date; to: Date; interval: Interval; buckets: Bucket[]; total: CurrencyFigures[] };

const DAY_MS = 86_400_000;
/** An order still unpaid an hour after it was made counts as an abandoned checkout. */
const ABANDONED_AFTER_MS = 3_600_000;

/** The start of the UTC bucket `at` falls in, and the start of the next. */
export function bucketStart(at: Date, interval: Interval): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (interval === 'day') return day;
  if (interval === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextBucket(start: Date, interval: Interval): Date {
  if (interval === 'day') return new Date(start.getTime() + DAY_MS);
  if (interval === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

const empty = (currency: string): CurrencyFigures => ({
  currency, collectedMinor: 0, customerFeeMinor: 0, merchantFeeMinor: 0, refundedMinor: 0, orders: 0, paidOrders: 0, abandoned: 0, byMethod: new Map(),
});

/**
 * The merchant's figures over a range: four grouped statements (`../repositories/reports.ts`), folded here into
 * every bucket of the range (empty ones included) and a total, per currency.
 */
export class Reports {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async summary(scope: MerchantScope, range: { from: Date; to: Date; interval: Interval }): Promise<Report> {
    const { from, to, interval } = range;
    if (from >= to) throw invalid('from must be earlier than to.', undefined, 'invalid_date_range');
    if (to.getTime() - from.getTime() > MAX_REPORT_DAYS * DAY_MS) throw invalid(`A report covers at most ${MAX_REPORT_DAYS} days.`, undefined, 'invalid_date_range');
    const on = { ...scope, ...range };
    const abandonedBefore = new Date(this.clock.now().getTime() - ABANDONED_AFTER_MS);
    const collected = await figures.collected(this.storage, on);
    const attempts = await figures.attempts(this.storage, on);
    const orders = await figures.orders(this.storage, on, abandonedBefore);
    const refunded = await figures.refunded(this.storage, on);

    const buckets: Bucket[] = [];
    const byStart = new Map<number, Map<string, CurrencyFigures>>();
    for (let start = bucketStart(from, interval); start < to; start = nextBucket(start, interval)) {
      buckets.push({ start: start < from ? from : start, end: nextBucket(start, interval) > to ? to : nextBucket(start, interval), currencies: [] });
      byStart.set(start.getTime(), new Map());
    }
    const cell = (bucket: Date, currency: string) => {
      const currencies = byStart.get(new Date(bucket).getTime());
      if (!currencies) throw new Error(`a report row fell outside its buckets: ${new Date(bucket).toISOString()}`);
      let found = currencies.get(currency);
      if (!found) currencies.set(currency, (found = empty(currency)));
      return found;
    };
    const method = (figures: CurrencyFigures, option: 'C' | 'bank-transfer') => {
      let found = figures.byMethod.get(option);
      if (!found) figures.byMethod.set(option, (found = { collectedMinor: 0, payments: 0, attempts: 0, succeeded: 0 }));
      return found;
    };
    for (const row of collected) {
      const figures = cell(row.bucket, row.currency);
      figures.collectedMinor += row.collected_minor;
      figures.customerFeeMinor += row.customer_fee_minor;
      figures.merchantFeeMinor += row.merchant_fee_minor;
      const byMethod = method(figures, row.payment_option);
      byMethod.collectedMinor += row.collected_minor;
      byMethod.payments += row.payments;
    }
    for (const row of attempts) {
      const byMethod = method(cell(row.bucket, row.currency), row.payment_option);
      byMethod.attempts += row.attempts;
      byMethod.succeeded += row.succeeded;
    }
    for (const row of orders) {
      const figures = cell(row.bucket, row.currency);
      figures.orders += row.orders;
      figures.paidOrders += row.paid;
      figures.abandoned += row.abandoned;
    }
    for (const row of refunded) cell(row.bucket, row.currency).refundedMinor += row.refunded_minor;

    const totals = new Map<string, CurrencyFigures>();
    [...byStart.values()].forEach((currencies, index) => {
      buckets[index]!.currencies = [...currencies.values()].sort((a, b) => a.currency.localeCompare(b.currency));
      for (const figures of currencies.values()) {
        const sum = totals.get(figures.currency) ?? empty(figures.currency);
        totals.set(figures.currency, sum);
        for (const key of ['collectedMinor', 'customerFeeMinor', 'merchantFeeMinor', 'refundedMinor', 'orders', 'paidOrders', 'abandoned'] as const) sum[key] += figures[key];
        for (const [option, each] of figures.byMethod) {
          const into = method(sum, option);
          into.collectedMinor += each.collectedMinor;
          into.payments += each.payments;
          into.attempts += each.attempts;
          into.succeeded += each.succeeded;
        }
      }
    });
    return { from, to, interval, buckets, total: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)) };
  }
}
