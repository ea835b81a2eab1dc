import type { PaymentLink } from '../../shared/links.ts';
import { toMajorUnits } from '../../shared/money.ts';
import { PAYMENT_OPTIONS } from '../../shared/orders.ts';
import type { OrderStatusData } from '../../shared/payments.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import type { CreateOrderData } from '../../shared/orders.ts';
import { computeFee } from '../domain/fees.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { CreatedOrder } from '../services/orders.ts';
import { paymentOptionsFor } from '../services/orders.ts';
import { toSubsidiary } from '../services/links.ts';
import type { Order, Payment } from '../domain/order.ts';
import { isFinal, STATUS_NAMES } from '../domain/lifecycle.ts';

/** How orders and payments look on the wire. Pure functions of stored state; no I/O. */
const major = (minor: number, currency: string) => toMajorUnits(minor, currency);
const stamp = (date: Date | null) => (date ? formatTimestamp(date) : null);

/** The attempt that speaks for the order: the successful one if any, else the latest. */
export function representativePayment(payments: readonly Payment[]): Payment | undefined {
  return payments.find((payment) => payment.statusId === 5) ?? payments.at(-1);
}

/** The customer as the wire shows it: camel case, whatever the request's casing was. */
export function presentCustomer(order: Order) {
  const { email, firstName, lastName, mobile, country } = order.customer;
  return { email, firstName, lastName, mobile, country };
}

export function presentOrderPayment(order: Order, payment: Payment) {
  return {
    orderId: order.id,
    orderPaymentReference: payment.reference,
    currency: order.currency,
    statusId: payment.statusId,
    orderPaymentResponseCode: payment.responseCode,
    orderPaymentResponseMessage: payment.responseMessage,
    orderPaymentInstrument: payment.instrument,
    remarks: payment.remarks,
    totalAmount: major(payment.totalMinor, order.currency),
    fee: major(payment.feeMinor, order.currency),
  };
}

export function presentStatus(order: Order, payment: Payment | undefined): { isFinal: boolean; requery: boolean; data: OrderStatusData } {
  const statusId = payment?.statusId ?? order.statusId;
  const currency = order.currency;
  const data: OrderStatusData = {
    payment_reference: payment?.reference ?? null,
    order_reference: order.reference,
    product_id: null,
    subsidiary_id: order.merchantId,
    wallet_id: null,
    customer_id: order.customer.id,
    total_charged_amount: major(payment?.totalMinor ?? order.amountMinor, currency),
    payment_status: statusId,
    currency_id: currency,
    fee: major(payment?.feeMinor ?? 0, currency),
    subsidiary_fee: major(payment?.subsidiaryFeeMinor ?? 0, currency),
    customer_fee: major(payment?.customerFeeMinor ?? 0, currency),
    payment_type: payment ? PAYMENT_OPTIONS[payment.option] : null,
    payment_response_code: payment?.responseCode ?? null,
    payment_response_message: payment?.responseMessage ?? null,
    provider_response_date: stamp(payment?.updatedAt ?? null),
    date_payment_confirmed: stamp(payment?.confirmedAt ?? null),
    narration: order.description,
    remarks: payment?.remarks ?? null,
    parent_transaction_id: null,
    id: order.id,
    created_by: null,
    updated_by: null,
    deleted_by: null,
    date_created: formatTimestamp(order.createdAt),
    date_updated: stamp(payment?.updatedAt ?? order.updatedAt),
    date_deleted: null,
    amount_due: major(payment && payment.stage === 'transfer' ? Math.max(0, payment.totalMinor - payment.receivedMinor) : 0, currency),
    amount_received: major(payment?.option === 'bank-transfer' ? payment.receivedMinor : 0, currency),
    excess_amount: major(payment?.option === 'bank-transfer' ? payment.excessMinor : 0, currency),
    transfer_expires_at: payment?.stage === 'transfer' ? stamp(payment.transferExpiresAt) : null,
  };
  // A payment still awaiting something is not final; an order with no attempt yet is not final either.
  return { isFinal: payment ? isFinal(payment.statusId) : false, requery: payment?.responseCode === '91', data };
}

export function presentVerify(order: Order, payments: readonly Payment[], merchant: Merchant, paymentLink: PaymentLink | null) {
  const payment = representativePayment(payments);
  const currency = order.currency;
  const statusId = order.statusId;
  return {
    orderReference: order.reference,
    paymentReference: payment?.reference ?? null,
    totalAmountCharged: major(payment?.totalMinor ?? order.amountMinor, currency),
    amount: major(order.amountMinor, currency),
    statusId,
    status: STATUS_NAMES[statusId],
    paymentMethod: payment ? PAYMENT_OPTIONS[payment.option] : null,
    paymentResponseCode: payment?.responseCode ?? null,
    paymentResponseMessage: payment?.responseMessage ?? null,
    narration: order.description,
    remarks: payment?.remarks ?? null,
    currencyName: currency,
    fee: major(payment?.feeMinor ?? 0, currency),
    feeRate: payment?.feeRate ?? 0,
    subsidiaryFee: major(payment?.subsidiaryFeeMinor ?? 0, currency),
    customerFee: major(payment?.customerFeeMinor ?? 0, currency),
    dateCreated: formatTimestamp(order.createdAt),
    dateUpdated: stamp(order.updatedAt),
    datePaymentConfirmed: stamp(payment?.confirmedAt ?? null),
    orderPayments: payments.map((each) => ({
      ...presentOrderPayment(order, each),
      paymentOption: each.option,
      dateCreated: formatTimestamp(each.createdAt),
      datePaymentConfirmed: stamp(each.confirmedAt),
      amountReceived: each.option === 'bank-transfer' ? major(each.receivedMinor, currency) : null,
      excessAmount: each.option === 'bank-transfer' ? major(each.excessMinor, currency) : null,
    })),
    customer: presentCustomer(order),
    cardDetails: payments
      .filter((each) => each.cardLast4)
      .map((each) => ({
        cardType: each.cardBrand,
        cardFirstSixDigits: each.cardFirst6,
        cardLastFourDigits: each.cardLast4,
        cardExpiry: each.cardExpiry,
        orderPaymentReference: each.reference,
      })),
    paymentLink,
    subsidiary: { id: merchant.id, name: merchant.name },
  };
}

/** The create-order answer's data (protocol.md 4.2): the order, its merchant and customer, options and saved cards. */
export function presentCreatedOrder({ order, merchant, link, savedCards }: CreatedOrder): CreateOrderData {
  const quote = computeFee(order.feeRules, 'C', order.currency, order.amountMinor);
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  return {
    order: {
      reference: order.reference,
      processorReference: order.processorReference,
      orderPaymentReference: null,
      amount: major(order.amountMinor),
      fee: major(quote.feeMinor),
      feeRate: quote.rate,
      statusId: order.statusId,
      status: STATUS_NAMES[order.statusId],
      currency: order.currency,
      narration: order.description,
      paymentLinkId: link?.id ?? null,
      recurringPaymentId: null,
      paymentLinkReference: link?.reference ?? null,
      recurringPaymentReference: null,
    },
    subsidiary: toSubsidiary(merchant),
    customer: presentCustomer(order),
    payment: { code: null, source: null, selectedOption: null, accountNumber: null, bankProviderName: null },
    otherPaymentOptions: paymentOptionsFor(order.currency),
    savedCards: savedCards.map((card) => ({ token: card.token, brand: card.brand, first6: card.first6, last4: card.last4, expiry: card.expiry })),
    subsidiaryOrderSummary: {
      orderName: `${merchant.name} Order ${order.reference}`,
      totalAmount: major(order.amountMinor),
      reference: order.reference,
      currency: order.currency,
      orderItems: order.items.map((item) => ({ name: item.name, amount: major(item.amountMinor) })),
    },
  };
}
