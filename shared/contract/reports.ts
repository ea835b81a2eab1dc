import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { isoDateOrTime, isoTimestamp } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { paymentMethodSchema } from './orders.ts';

/**
 * The merchant's figures over a range (secret key), per UTC bucket and in total, always per currency: amounts in
 * two currencies are never added together.
 */
export const MAX_REPORT_DAYS = 366;
export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;

const amount = z.object({ minor: z.number().int(), amount: z.string() });

export const methodFiguresSchema = z.object({
  method: paymentMethodSchema,
  collected: amount,
  payments: z.number().int().meta({ description: 'Successful attempts confirmed in the period.' }),
  attempts: z.number().int().meta({ description: 'Attempts started in the period.' }),
  successRate: z.number().nullable().meta({ description: 'Of the attempts started in the period, the share that succeeded (0 to 1); null without attempts.' }),
});

export const currencyFiguresSchema = z
  .object({
    currency: z.string(),
    collected: amount.meta({ description: 'What customers paid on successful attempts confirmed in the period: amounts with the fees they bore.' }),
    fees: z.object({ customer: amount, merchant: amount, total: amount }),
    refunded: amount.meta({ description: 'Refunds that succeeded in the period.' }),
    net: amount.meta({ description: 'Collected less every fee and the refunds: what the merchant keeps.' }),
    orders: z.number().int().meta({ description: 'Orders created in the period.' }),
    paidOrders: z.number().int().meta({ description: 'Of those, the ones paid (refunded or reversed since included).' }),
    successRate: z.number().nullable().meta({ description: 'paidOrders / orders; null without orders.' }),
    abandoned: z.number().int().meta({ description: 'Orders created in the period, never paid and not being paid, more than an hour old.' }),
    byMethod: z.array(methodFiguresSchema),
  })
  .meta({ id: 'CurrencyFigures' });
export type CurrencyFigures = z.input<typeof currencyFiguresSchema>;

export const reportQuerySchema = z.object({
  from: isoDateOrTime,
  to: isoDateOrTime,
  interval: z.enum(REPORT_INTERVALS).default('day'),
});
export type ReportQuery = z.output<typeof reportQuerySchema>;

export const reportSummary = endpoint({
  method: 'GET',
  path: '/checkout/reports/summary',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'Collected, fees, refunds and conversion over a range',
  description:
    'Per UTC bucket (`interval` day, week from Monday, or month) and in total, per currency: collected, fees by bearer, refunds, net, orders, ' +
    'paid orders and success rate, per method, and abandoned checkouts. `from` inclusive, `to` exclusive, at most 366 days apart. ' +
    'Example: `GET /checkout/reports/summary?from=2026-11-01&to=2026-12-01&interval=week`.',
  tags: ['Operations'],
  query: reportQuerySchema,
  success: successEnvelope(
    z
      .object({
        from: isoTimestamp,
        to: isoTimestamp,
        interval: z.enum(REPORT_INTERVALS),
        buckets: z.array(z.object({ start: isoTimestamp, end: isoTimestamp, currencies: z.array(currencyFiguresSchema) })),
        total: z.object({ currencies: z.array(currencyFiguresSchema) }),
      })
      .meta({ id: 'ReportSummary' }),
  ),
  errors: ['VAL400'],
});
