import { toMajorUnits } from '../../shared/money.ts';
import type { RefundAnswerData, RefundData, RefundResponse } from '../../shared/refunds.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { STATUS_NAMES } from '../domain/lifecycle.ts';
import type { Order, Payment } from '../domain/order.ts';
import { refundSources, type Refund } from '../domain/refunds.ts';

/** How refunds look on the wire: the refund answer, verify's `refunds`, refund webhooks. Pure; no I/O. */
const REFUND_STATUS = { processing: 2, failed: 4, succeeded: 5 } as const;

const BEING_CONFIRMED = 'The refund is being confirmed with the processor: verify the order shortly.';

export function presentRefund(refund: Refund, order: Order): RefundData {
  const statusId = REFUND_STATUS[refund.state];
  return {
    refundReference: refund.reference,
    orderReference: order.reference,
    paymentReference: refund.paymentReference,
    amount: toMajorUnits(refund.amountMinor, refund.currency),
    currency: refund.currency,
    reason: refund.reason,
    statusId,
    status: STATUS_NAMES[statusId],
    responseCode: refund.responseCode,
    responseMessage: refund.responseMessage,
    processorReference: refund.processorReference,
    dateCreated: formatTimestamp(refund.createdAt),
    dateUpdated: formatTimestamp(refund.updatedAt),
    dateCompleted: refund.completedAt ? formatTimestamp(refund.completedAt) : null,
  };
}

/** What successful refunds sent back, what may still be refunded, and what the order took that may be refunded. */
export function presentRefundTotals(payments: readonly Payment[], refunds: readonly Refund[], currency: string) {
  const sources = refundSources(payments, refunds);
  const sum = (pick: (source: (typeof sources)[number]) => number) => toMajorUnits(sources.reduce((total, source) => total + pick(source), 0), currency);
  return { amountPaid: sum((source) => source.baseMinor), amountRefunded: sum((source) => source.refundedMinor), amountRefundable: sum((source) => source.remainingMinor) };
}

/** The refund answer: `00` refunded, `02` being confirmed, or `status: failed` with the decline code (nothing went back). */
export function presentRefundAnswer(refund: Refund, order: Order, payments: readonly Payment[], refunds: readonly Refund[]): RefundResponse {
  const data: RefundAnswerData = {
    refund: presentRefund(refund, order),
    order: {
      orderReference: order.reference,
      statusId: order.statusId,
      status: STATUS_NAMES[order.statusId],
      currency: order.currency,
      ...presentRefundTotals(payments, refunds, order.currency),
    },
  };
  if (refund.state === 'succeeded') return { status: 'success', statusCode: '00', message: 'Refund successful', data };
  if (refund.state === 'processing') return { status: 'success', statusCode: '02', message: BEING_CONFIRMED, data };
  return { status: 'failed', statusCode: refund.responseCode ?? '91', message: refund.responseMessage ?? 'Refund failed', data };
}
