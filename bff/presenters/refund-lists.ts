import type { RefundSummary } from '../../shared/contract/refunds.ts';
import type { RefundListRow } from '../repositories/refund-search.ts';
import { csvField, decimal } from './operations.ts';

/** A refund as the operations API lists it, and its line of the CSV export. */
export function presentRefundSummary(row: RefundListRow): RefundSummary {
  return {
    reference: row.reference,
    orderReference: row.order_reference,
    paymentReference: row.payment_reference,
    state: row.state,
    amountMinor: row.amount_minor,
    amount: decimal(row.amount_minor, row.currency),
    currency: row.currency,
    reason: row.reason,
    responseCode: row.response_code,
    responseMessage: row.response_message,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at === null ? null : row.completed_at.toISOString(),
  };
}

/** The export's columns, in this order, whatever else the API gains (the README lists them). */
export const REFUND_CSV_COLUMNS = [
  'created_at', 'reference', 'order_reference', 'payment_reference', 'state', 'currency', 'amount', 'reason', 'response_code', 'response_message', 'completed_at',
] as const;

export function refundCsvLine(row: RefundListRow): string {
  const refund = presentRefundSummary(row);
  const values: Record<(typeof REFUND_CSV_COLUMNS)[number], string | null> = {
    created_at: refund.createdAt,
    reference: refund.reference,
    order_reference: refund.orderReference,
    payment_reference: refund.paymentReference,
    state: refund.state,
    currency: refund.currency,
    amount: refund.amount,
    reason: refund.reason,
    response_code: refund.responseCode,
    response_message: refund.responseMessage,
    completed_at: refund.completedAt,
  };
  return `${REFUND_CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}
