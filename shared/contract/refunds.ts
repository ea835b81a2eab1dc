import { z } from 'zod';
import { currencyCode } from '../fields.ts';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { moneySchema } from './orders.ts';
import { refundStateSchema } from './order-detail.ts';

/** The merchant's refunds (secret key): newest first, filtered, and exported as CSV. */
export const refundSummarySchema = z
  .object({
    reference: z.string(),
    orderReference: z.string(),
    paymentReference: z.string(),
    state: refundStateSchema,
    ...moneySchema.shape,
    reason: z.string().nullable(),
    responseCode: z.string().nullable(),
    responseMessage: z.string().nullable(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'RefundSummary' });
export type RefundSummary = z.infer<typeof refundSummarySchema>;

export const refundFiltersShape = {
  ...listQueryShape,
  state: refundStateSchema.optional(),
  order: z.string().trim().min(1).max(64).optional().meta({ description: "An order's reference: its refunds." }),
  currency: currencyCode.optional(),
};
export const refundListQuerySchema = z.object(refundFiltersShape);
export type RefundListQuery = z.output<typeof refundListQuerySchema>;

export const listRefunds = endpoint({
  method: 'GET',
  path: '/checkout/refunds',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List refunds',
  description:
    'The refunds of this merchant and mode, newest first (by when they were requested), filtered by `state`, `order` reference, `currency` and `from`/`to`; ' +
    'a page of `limit` (at most 100) and the `nextCursor` of the next page. Example: `GET /checkout/refunds?state=failed&from=2026-11-01`.',
  tags: ['Operations'],
  query: refundListQuerySchema,
  success: pageEnvelope(refundSummarySchema, 'RefundPage'),
  errors: ['VAL400'],
});

export const exportRefunds = endpoint({
  method: 'GET',
  path: '/checkout/refunds/export',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'Export refunds as CSV',
  description:
    "Every refund the same filters select, as `text/csv`, streamed newest first. Columns, stable: see the README's \"Finding payments\" section.",
  tags: ['Operations'],
  query: refundListQuerySchema.omit({ limit: true, cursor: true }),
  success: z.string(),
  produces: 'text/csv',
  errors: ['VAL400'],
});
