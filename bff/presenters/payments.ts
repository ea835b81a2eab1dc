import { BANKS } from '../../shared/banks.ts';
import { toMajorUnits } from '../../shared/money.ts';
import type { PayOrderData, PayOrderResponse } from '../../shared/payments.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { RESPONSE_MESSAGES } from '../domain/lifecycle.ts';
import type { Order, Payment } from '../domain/order.ts';
import type { PathFamily } from './path-family.ts';
import { presentOrderPayment } from './orders.ts';

/** The code of the bank an account was opened at, from the bank list the API serves; '' for a bank not in it. */
const bankCodeOf = (name: string | null) => BANKS.find((bank) => bank.name === name)?.bankCode ?? '';

const TRANSFER_AWAITED = 'Awaiting bank transfer: send the exact amount to the account shown before it expires.';
const BEING_CONFIRMED = 'The payment is being confirmed with the processor: check the order status shortly.';

/** The pay answer (protocol.md 4.3): 00 approved, 02 pending (authentication, transfer, or being confirmed), or the decline code. */
export function presentPayAnswer(order: Order, payment: Payment, merchantName: string, family: PathFamily = 'checkout'): PayOrderResponse {
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  const data: PayOrderData = {
    paymentDetail: {
      // The iOS SDK of the TransactPay family decodes a non-optional string here; the ePayClub family keeps null.
      redirectUrl: payment.stage === 'authentication' ? payment.authSession : family === 'transactpay' ? '' : null,
      recipientAccount: payment.transferAccount,
      paymentReference: payment.reference,
    },
    bankTransferDetails:
      payment.option === 'bank-transfer' && payment.transferAccount && payment.transferExpiresAt
        ? {
            bankAccount: payment.transferAccount,
            accountName: merchantName,
            bankName: payment.transferBank ?? '',
            bankCode: bankCodeOf(payment.transferBank),
            amount: major(payment.totalMinor),
            amountPaid: major(payment.receivedMinor),
            amountDue: major(Math.max(0, payment.totalMinor - payment.receivedMinor)),
            expiresAt: formatTimestamp(payment.transferExpiresAt),
          }
        : null,
    orderPayment: presentOrderPayment(order, payment),
  };
  if (payment.statusId === 5) return { status: 'success', statusCode: '00', message: 'Payment successful', data };
  if (payment.stage === 'authentication') return { status: 'success', statusCode: '02', message: RESPONSE_MESSAGES['02'], data };
  if (payment.stage === 'transfer') return { status: 'success', statusCode: '02', message: TRANSFER_AWAITED, data };
  if (payment.stage === 'processing') return { status: 'success', statusCode: '02', message: BEING_CONFIRMED, data };
  return { status: 'failed', statusCode: payment.responseCode, message: payment.responseMessage, data };
}

/** The sandbox's answer to a simulated transfer: what arrived, what is still due, what is recorded for refund. */
export function presentTransferArrival(order: Order, payment: Payment) {
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  const due = Math.max(0, payment.totalMinor - payment.receivedMinor);
  return {
    accountNumber: payment.transferAccount ?? '',
    paymentReference: payment.reference,
    orderReference: order.reference,
    amountExpected: major(payment.totalMinor),
    amountReceived: major(payment.receivedMinor),
    amountDue: payment.statusId === 5 ? 0 : major(due),
    excessAmount: major(payment.excessMinor),
    paymentStatusId: payment.statusId,
    message:
      payment.statusId === 5
        ? payment.excessMinor > 0
          ? `Payment complete. ${major(payment.excessMinor)} ${order.currency} more than due was received and is recorded for refund.`
          : 'Payment complete.'
        : `Partial payment received. ${major(due)} ${order.currency} is still due.`,
  };
}
