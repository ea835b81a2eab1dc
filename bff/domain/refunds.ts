import type { Payment } from './order.ts';

/**
 * Refunds: money sent back to the customer from one order payment, in full or in part. A refund is `processing` from
 * before the processor is asked until it answers (an answer that never came keeps it there, and the `refund.requery`
 * job asks the processor's record), then `succeeded` or `failed`, once. While processing, its amount is held: it
 * counts against what may still be refunded, so refunds running side by side never exceed what was paid.
 */
export type RefundState = 'processing' | 'succeeded' | 'failed';

export type Refund = {
  id: number;
  reference: string;
  orderId: number;
  paymentId: number;
  paymentReference: string;
  amountMinor: number;
  currency: string;
  reason: string | null;
  state: RefundState;
  responseCode: string | null;
  responseMessage: string | null;
  processorReference: string | null;
  processor: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
};

/**
 * What an attempt took from the customer that may go back: all a successful payment took (for a transfer, what
 * arrived, the excess recorded for refund included), what reached an expired transfer account, or a charge approved
 * after another attempt had paid the order. Nothing for attempts that took no money.
 */
export function refundableBase(payment: Payment): number {
  if (payment.statusId === 5 || payment.statusId === 6) {
    return payment.option === 'bank-transfer' ? Math.max(payment.receivedMinor, payment.totalMinor) : payment.totalMinor;
  }
  if (payment.statusId === 4 && payment.reason === 'account-expired') return payment.receivedMinor;
  if (payment.statusId === 4 && payment.reason === 'already-paid') return payment.totalMinor;
  return 0;
}

/** A payment refunds can draw on, with what its refunds already took (succeeded or still processing). */
export type RefundSource = { payment: Payment; baseMinor: number; takenMinor: number; refundedMinor: number; remainingMinor: number };

/** Refunds that hold money: succeeded, or processing (their amount is reserved until the processor answers). */
export const holdsMoney = (refund: Pick<Refund, 'state'>): boolean => refund.state !== 'failed';

/** The payments of an order that took money, the successful one first, then in the order they were made. */
export function refundSources(payments: readonly Payment[], refunds: readonly Refund[]): RefundSource[] {
  return payments
    .map((payment) => {
      const mine = refunds.filter((refund) => refund.paymentId === payment.id);
      const takenMinor = mine.filter(holdsMoney).reduce((sum, refund) => sum + refund.amountMinor, 0);
      const refundedMinor = mine.filter((refund) => refund.state === 'succeeded').reduce((sum, refund) => sum + refund.amountMinor, 0);
      const baseMinor = refundableBase(payment);
      return { payment, baseMinor, takenMinor, refundedMinor, remainingMinor: Math.max(0, baseMinor - takenMinor) };
    })
    .filter((source) => source.baseMinor > 0)
    .sort((a, b) => rank(a.payment) - rank(b.payment) || a.payment.id - b.payment.id);
}

const rank = (payment: Payment) => (payment.statusId === 5 || payment.statusId === 6 ? 0 : 1);

/** What an order shows of its refunds: refunded (succeeded), and what may still be refunded. */
export function refundTotals(payments: readonly Payment[], refunds: readonly Refund[]): { refundedMinor: number; refundableMinor: number } {
  const sources = refundSources(payments, refunds);
  return {
    refundedMinor: sources.reduce((sum, source) => sum + source.refundedMinor, 0),
    refundableMinor: sources.reduce((sum, source) => sum + source.remainingMinor, 0),
  };
}

/** Where a refund of `amountMinor` (all that is left of the first payment with money, when undefined) draws from. */
export type RefundPlan =
  | { ok: true; source: RefundSource; amountMinor: number }
  | { ok: false; reason: 'nothing-paid' | 'nothing-left' | 'more-than-left' | 'more-than-one-payment'; leftMinor: number; paidMinor: number };

export function planRefund(sources: readonly RefundSource[], amountMinor: number | undefined): RefundPlan {
  const leftMinor = sources.reduce((sum, source) => sum + source.remainingMinor, 0);
  const paidMinor = sources.reduce((sum, source) => sum + source.baseMinor, 0);
  if (sources.length === 0) return { ok: false, reason: 'nothing-paid', leftMinor, paidMinor };
  if (leftMinor === 0) return { ok: false, reason: 'nothing-left', leftMinor, paidMinor };
  if (amountMinor === undefined) {
    const source = sources.find((each) => each.remainingMinor > 0)!;
    return { ok: true, source, amountMinor: source.remainingMinor };
  }
  if (amountMinor > leftMinor) return { ok: false, reason: 'more-than-left', leftMinor, paidMinor };
  const source = sources.find((each) => each.remainingMinor >= amountMinor);
  return source ? { ok: true, source, amountMinor } : { ok: false, reason: 'more-than-one-payment', leftMinor, paidMinor };
}

/** A successful payment whose money went back in full is reversed (status 6), and so is its order. */
export const isFullyRefunded = (source: Pick<RefundSource, 'baseMinor' | 'refundedMinor'>): boolean => source.refundedMinor >= source.baseMinor;
