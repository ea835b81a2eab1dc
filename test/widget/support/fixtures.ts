import { createOrderResponseSchema, type CreateOrderData } from '../../../shared/orders.ts';
import { feeResponseSchema, type FeeQuote } from '../../../shared/fees.ts';
import {
  orderStatusResponseSchema,
  payOrderResponseSchema,
  type BankTransferDetails,
  type OrderStatusData,
  type PayOrderResponse,
} from '../../../shared/payments.ts';
import { formatTimestamp } from '../../../shared/timestamps.ts';

/**
 * Answers of the checkout API as the backend sends them. Every builder parses its result with the shared
 * (classic zod) schema, so a fixture that drifts from the contract fails here, not silently in the widget.
 */
export const REFERENCE = 'ORD-1001';

export function orderData(overrides: Partial<CreateOrderData> = {}): CreateOrderData {
  return {
    order: {
      reference: REFERENCE,
      processorReference: 'PRC-7788',
      orderPaymentReference: null,
      amount: 12500,
      fee: 0,
      feeRate: 0,
      statusId: 1,
      status: 'Initiated',
      currency: 'NGN',
      narration: 'Two tickets',
      paymentLinkId: null,
      recurringPaymentId: null,
      paymentLinkReference: null,
      recurringPaymentReference: null,
      frequencyId: null,
      numberOfPayments: null,
    },
    subsidiary: { id: 7, name: 'Kola Books', country: 'NG', supportEmail: 'help@kola.test', customization: [], logo: null },
    customer: { email: 'ada@example.test', firstName: 'Ada', lastName: 'Obi', mobile: '+2348012345678', country: 'NG' },
    payment: { code: null, source: 'browser', selectedOption: null, accountNumber: null, bankProviderName: null },
    otherPaymentOptions: [
      { code: 'C', name: 'Card Payment', currency: 'NGN' },
      { code: 'bank-transfer', name: 'Pay With Bank Transfer', currency: 'NGN' },
    ],
    savedCards: [],
    canSaveCard: true,
    clientToken: null,
    subsidiaryOrderSummary: {
      orderName: `Kola Books Order ${REFERENCE}`,
      totalAmount: 12500,
      reference: REFERENCE,
      currency: 'NGN',
      orderItems: [
        { name: 'Things Fall Apart', amount: 8000 },
        { name: 'Gift wrapping', amount: 4500 },
      ],
    },
    ...overrides,
  };
}

export function createOrderAnswer(data: CreateOrderData = orderData()) {
  return createOrderResponseSchema.parse({ status: 'success', statusCode: '01', message: 'Created order successfully', data });
}

/** The default sandbox rule for NGN cards: 1.5% + NGN 100, borne by the customer. */
export function feeQuote(option: string, overrides: Partial<FeeQuote> = {}): FeeQuote {
  const card = option === 'C';
  const fee = card ? 287.5 : 50;
  return {
    fee,
    amount: 12500,
    subsidiaryFee: card ? 0 : 50,
    customerFee: card ? fee : 0,
    totalChargedAmount: card ? 12500 + fee : 12500,
    paymentOption: option,
    currency: 'NGN',
    bearer: card ? 'customer' : 'merchant',
    ...overrides,
  };
}

export function feeAnswer(quote: FeeQuote) {
  return feeResponseSchema.parse({ status: 'success', statusCode: '00', message: 'Operation successful', data: quote });
}

const orderPayment = (statusId: 2 | 4 | 5, code: string, message: string, instrument: string | null) => ({
  orderId: 41,
  orderPaymentReference: 'PAY-5521',
  currency: 'NGN',
  statusId,
  orderPaymentResponseCode: code,
  orderPaymentResponseMessage: message,
  orderPaymentInstrument: instrument,
  remarks: 'Order payment initiated',
  totalAmount: 12787.5,
  fee: 287.5,
});

export function paidAnswer(): PayOrderResponse {
  return payOrderResponseSchema.parse({
    status: 'success',
    statusCode: '00',
    message: 'Approved',
    data: {
      paymentDetail: { redirectUrl: null, recipientAccount: null, paymentReference: 'PAY-5521' },
      bankTransferDetails: null,
      orderPayment: orderPayment(5, '00', 'Approved', 'Visa ****4242'),
    },
  });
}

export const AUTH_URL = 'http://localhost:9/checkout/authenticate/PAY-5521';

export function authenticateAnswer(): PayOrderResponse {
  return payOrderResponseSchema.parse({
    status: 'success',
    statusCode: '02',
    message: 'pending-authenticaion',
    data: {
      paymentDetail: { redirectUrl: AUTH_URL, recipientAccount: null, paymentReference: 'PAY-5521' },
      bankTransferDetails: null,
      orderPayment: orderPayment(2, '02', 'pending-authenticaion', 'Mastercard ****4608'),
    },
  });
}

export function declinedAnswer(code = '51', message = 'Insufficient funds'): PayOrderResponse {
  return payOrderResponseSchema.parse({
    status: 'failed',
    statusCode: code,
    message,
    data: {
      paymentDetail: { redirectUrl: null, recipientAccount: null, paymentReference: 'PAY-5521' },
      bankTransferDetails: null,
      orderPayment: orderPayment(4, code, message, 'Visa ****0002'),
    },
  });
}

export function transferDetails(overrides: Partial<BankTransferDetails> = {}): BankTransferDetails {
  return {
    bankAccount: '0123456789',
    accountName: 'Kola Books',
    bankName: 'Sandbox Bank',
    bankCode: '999',
    amount: 12500,
    amountPaid: 0,
    amountDue: 12500,
    expiresAt: formatTimestamp(new Date(Date.now() + 30 * 60_000)),
    ...overrides,
  };
}

export function transferAnswer(details: BankTransferDetails = transferDetails()): PayOrderResponse {
  return payOrderResponseSchema.parse({
    status: 'success',
    statusCode: '02',
    message: 'Awaiting the customer’s bank transfer',
    data: {
      paymentDetail: { redirectUrl: null, recipientAccount: details.bankAccount, paymentReference: 'PAY-5522' },
      bankTransferDetails: details,
      orderPayment: { ...orderPayment(2, '02', 'Awaiting transfer', 'Bank transfer'), totalAmount: details.amount, fee: 0 },
    },
  });
}

export function statusAnswer(overrides: Partial<OrderStatusData> = {}) {
  const data: OrderStatusData = {
    payment_reference: 'PAY-5521',
    order_reference: REFERENCE,
    product_id: 1,
    subsidiary_id: 7,
    wallet_id: 7,
    customer_id: 3,
    total_charged_amount: 12787.5,
    payment_status: 2,
    currency_id: 566,
    currency: 'NGN',
    fee: 287.5,
    subsidiary_fee: 0,
    customer_fee: 287.5,
    payment_type: 'Card Payment',
    payment_response_code: '02',
    payment_response_message: 'pending-authenticaion',
    provider_response_date: null,
    date_payment_confirmed: null,
    narration: 'Two tickets',
    remarks: 'Order payment initiated',
    parent_transaction_id: null,
    id: 41,
    created_by: -1,
    updated_by: -1,
    deleted_by: null,
    date_created: '2026-11-22T10:15:30.123',
    date_updated: null,
    date_deleted: null,
    amount_due: 0,
    amount_received: 0,
    excess_amount: 0,
    transfer_expires_at: null,
    amount_refunded: 0,
    ...overrides,
  };
  const final = data.payment_status === 4 || data.payment_status === 5 || data.payment_status === 6;
  return orderStatusResponseSchema.parse({
    is_final_status: final,
    requery_needed: false,
    requery_type: null,
    status: 'success',
    status_code: '00',
    message: 'Order Status fetched successfully',
    data,
  });
}

export const paidStatus = (overrides: Partial<OrderStatusData> = {}) =>
  statusAnswer({
    payment_status: 5,
    payment_response_code: '00',
    payment_response_message: 'Approved',
    date_payment_confirmed: '2026-11-22T10:17:02.000',
    ...overrides,
  });

export const transferStatus = (overrides: Partial<OrderStatusData> = {}) =>
  statusAnswer({
    payment_reference: 'PAY-5522',
    payment_type: 'Pay With Bank Transfer',
    total_charged_amount: 12500,
    fee: 0,
    customer_fee: 0,
    payment_response_message: 'Awaiting transfer',
    amount_due: 12500,
    transfer_expires_at: formatTimestamp(new Date(Date.now() + 30 * 60_000)),
    ...overrides,
  });
