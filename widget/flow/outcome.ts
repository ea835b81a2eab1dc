import type { BankTransferDetails, PayOrderResponse } from '../api/wire.ts';

/** The five things a pay answer can mean to the customer (protocol.md 4.3). */
export type PaymentOutcome =
  | { kind: 'paid'; paymentReference: string; amount: number; currency: string }
  | { kind: 'authenticate'; redirectUrl: string; paymentReference: string }
  | { kind: 'transfer'; details: BankTransferDetails; paymentReference: string }
  /** The processor has not answered yet: the server asks it again, and the checkout polls the status. */
  | { kind: 'confirming'; paymentReference: string }
  | { kind: 'declined'; code: string; message: string };

export function outcomeOf(answer: PayOrderResponse): PaymentOutcome {
  const { paymentDetail, bankTransferDetails, orderPayment } = answer.data;
  if (answer.status === 'success' && answer.statusCode === '02') {
    if (bankTransferDetails) {
      return { kind: 'transfer', details: bankTransferDetails, paymentReference: paymentDetail.paymentReference };
    }
    if (paymentDetail.redirectUrl) {
      return { kind: 'authenticate', redirectUrl: paymentDetail.redirectUrl, paymentReference: paymentDetail.paymentReference };
    }
    return { kind: 'confirming', paymentReference: paymentDetail.paymentReference };
  }
  if (answer.status === 'success' && answer.statusCode === '00' && orderPayment.statusId === 5) {
    return {
      kind: 'paid',
      paymentReference: paymentDetail.paymentReference,
      amount: orderPayment.totalAmount,
      currency: orderPayment.currency,
    };
  }
  return { kind: 'declined', code: orderPayment.orderPaymentResponseCode || answer.statusCode, message: answer.message };
}
