import type { CurrencyFigures as WireFigures } from '../../shared/contract/reports.ts';
import type { CurrencyFigures, Report } from '../services/reports.ts';
import { decimal } from './operations.ts';

/** A report's wire shape: every amount in minor units beside its decimal string, rates from 0 to 1 (null without a base). */
const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export function presentFigures(figures: CurrencyFigures): WireFigures {
  const money = (minor: number) => ({ minor, amount: decimal(minor, figures.currency) });
  const fees = figures.customerFeeMinor + figures.merchantFeeMinor;
  return {
    currency: figures.currency,
    collected: money(figures.collectedMinor),
    fees: { customer: money(figures.customerFeeMinor), merchant: money(figures.merchantFeeMinor), total: money(fees) },
    refunded: money(figures.refundedMinor),
    net: money(figures.collectedMinor - fees - figures.refundedMinor),
    orders: figures.orders,
    paidOrders: figures.paidOrders,
    successRate: rate(figures.paidOrders, figures.orders),
    abandoned: figures.abandoned,
    byMethod: [...figures.byMethod.entries()]
      .map(([option, each]) => ({
        method: option === 'C' ? ('card' as const) : ('bank_transfer' as const),
        collected: money(each.collectedMinor),
        payments: each.payments,
        attempts: each.attempts,
        successRate: rate(each.succeeded, each.attempts),
      }))
      .sort((a, b) => a.method.localeCompare(b.method)),
  };
}

export function presentReport(report: Report) {
  return {
    from: report.from.toISOString(),
    to: report.to.toISOString(),
    interval: report.interval,
    buckets: report.buckets.map((bucket) => ({ start: bucket.start.toISOString(), end: bucket.end.toISOString(), currencies: bucket.currencies.map(presentFigures) })),
    total: { currencies: report.total.map(presentFigures) },
  };
}
