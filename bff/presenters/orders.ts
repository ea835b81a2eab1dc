import type { PaymentLink } from '../../shared/links.ts';
import { toMajorUnits } from '../../shared/money.ts';
import { PAYMENT_OPTION_IDS, PAYMENT_OPTIONS } from '../../shared/orders.ts';
import type { VerifyData } from '../../shared/verify.ts';
import type { SavedCardRow } from '../repositories/payments.ts';
import type { OrderStatusData, TransactPayStatusResponse } from '../../shared/payments.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { currencyId } from '../../shared/currencies.ts';
import { SYSTEM_USER } from '../../shared/catalogue.ts';
import type { CreateOrderData } from '../../shared/orders.ts';
import { computeFee } from '../domain/fees.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { CreatedOrder } from '../services/orders.ts';
import { paymentOptionsFor } from '../services/orders.ts';
import { toSubsidiary } from '../services/links.ts';
import type { PathFamily } from './path-family.ts';
import type { Order, Payment } from '../domain/order.ts';
import { isFinal, STATUS_NAMES } from '../domain/lifecycle.ts';
import type { Refund } from '../domain/refunds.ts';
import { presentRefund, presentRefundTotals } from './refunds.ts';

/** How orders and payments look on the wire. Pure functions of stored state; no I/O. */
const major = (minor: number, currency: string) => toMajorUnits(minor, currency);
const stamp = (date: Date | null) => (date ? formatTimestamp(date) : null);

/** The gateway's product for checkout payments: `product_id` in the status record, `productName` in verify. */
export const COLLECTION_PRODUCT = { id: 1, name: 'Collection' } as const;

/** Stored currencies passed `currencyCode`, which admits only codes with an ISO 4217 number. */
function wireCurrencyId(currency: string): number {
  const id = currencyId(currency);
  if (id === undefined) throw new Error(`currency ${currency} has no ISO 4217 number`);
  return id;
}

/** The attempt that speaks for the order: the successful one (or the one refunded in full) if any, else the latest. */
export function representativePayment(payments: readonly Payment[]): Payment | undefined {
  return payments.find((payment) => payment.statusId === 5 || payment.statusId === 6) ?? payments.at(-1);
}

/** What successful refunds of an order sent back, in minor units. */
const refundedMinor = (refunds: readonly Refund[]) => refunds.filter((refund) => refund.state === 'succeeded').reduce((sum, refund) => sum + refund.amountMinor, 0);

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
    fee: customerFee(payment, order.currency),
  };
}

/**
 * `fee` beside an amount is what the customer paid on top of it, whoever bears the rest: the WooCommerce plugin
 * fulfils when `totalAmountCharged - fee` is the order total, and the Kotlin and Dart apps show `amount + fee` as the
 * total. The merchant's part is `subsidiaryFee`; the whole fee is `customerFee + subsidiaryFee`.
 */
const customerFee = (payment: Payment | undefined, currency: string) => major(payment?.customerFeeMinor ?? 0, currency);

export function presentStatus(order: Order, payment: Payment | undefined, refunds: readonly Refund[]): { isFinal: boolean; requery: boolean; data: OrderStatusData } {
  const statusId = payment?.statusId ?? order.statusId;
  const currency = order.currency;
  const data: OrderStatusData = {
    payment_reference: payment?.reference ?? null,
    order_reference: order.reference,
    product_id: COLLECTION_PRODUCT.id,
    subsidiary_id: order.merchantId,
    wallet_id: order.merchantId,
    customer_id: order.customer.id,
    total_charged_amount: major(payment?.totalMinor ?? order.amountMinor, currency),
    payment_status: statusId,
    currency_id: wireCurrencyId(currency),
    currency,
    fee: customerFee(payment, currency),
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
    created_by: SYSTEM_USER,
    updated_by: SYSTEM_USER,
    deleted_by: null,
    date_created: formatTimestamp(order.createdAt),
    date_updated: stamp(payment?.updatedAt ?? order.updatedAt),
    date_deleted: null,
    amount_due: major(payment && payment.stage === 'transfer' ? Math.max(0, payment.totalMinor - payment.receivedMinor) : 0, currency),
    amount_received: major(payment?.option === 'bank-transfer' ? payment.receivedMinor : 0, currency),
    excess_amount: major(payment?.option === 'bank-transfer' ? payment.excessMinor : 0, currency),
    transfer_expires_at: payment?.stage === 'transfer' ? stamp(payment.transferExpiresAt) : null,
    amount_refunded: major(refundedMinor(refunds), currency),
  };
  // A payment still awaiting something is not final; an order with no attempt yet is not final either.
  return { isFinal: payment ? isFinal(payment.statusId) : false, requery: payment?.responseCode === '91', data };
}

/** The order status the TransactPay mobile SDKs read at `/payment/order/status` (shared/payments.ts). */
export function presentTransactPayStatus(order: Order, payments: readonly Payment[]): TransactPayStatusResponse {
  const payment = representativePayment(payments);
  const statusId = payment?.statusId ?? order.statusId;
  const currency = order.currency;
  return {
    status: STATUS_NAMES[statusId],
    statusCode: '00',
    message: 'Order Status fetched successfully',
    data: {
      isFinalStatus: payment ? isFinal(payment.statusId) : false,
      requeryNeeded: payment?.responseCode === '91',
      requeryType: payment?.responseCode === '91' ? 'status' : null,
      orderSummary: {
        id: order.id,
        paymentReference: payment?.reference ?? null,
        orderReference: order.reference,
        totalChargedAmount: major(payment?.totalMinor ?? order.amountMinor, currency),
        fee: customerFee(payment, currency),
        subsidiaryFee: major(payment?.subsidiaryFeeMinor ?? 0, currency),
        statusId,
        status: STATUS_NAMES[statusId],
        paymentType: payment ? PAYMENT_OPTIONS[payment.option] : null,
        currencyId: wireCurrencyId(currency),
        currency,
        paymentResponseCode: payment?.responseCode ?? null,
        paymentResponseMessage: payment?.responseMessage ?? null,
        providerResponseDate: stamp(payment?.updatedAt ?? null),
        datePaymentConfirmed: stamp(payment?.confirmedAt ?? null),
        dateCreated: formatTimestamp(order.createdAt),
        narration: order.description ?? '',
        remarks: payment?.remarks ?? null,
      },
      orderPayments: payments.map((each) => ({
        orderId: order.id,
        orderPaymentReference: each.reference,
        paymentOptionId: PAYMENT_OPTION_IDS[each.option],
        statusId: each.statusId,
        orderPaymentResponseCode: each.responseCode,
        orderPaymentResponseMessage: each.responseMessage,
        orderPaymentInstrument: each.instrument,
        remarks: each.remarks,
        // The charge is known to the processor by the payment reference (the sandbox's book is keyed by it).
        providerReference: each.reference,
        providerResponseCode: each.rawResponseCode ?? each.responseCode,
        paymentUrl: each.stage === 'authentication' ? (each.authSession ?? '') : '',
        externalReference: order.reference,
        authOption: each.option === 'C' ? order.authOption : null,
        order: null,
        id: each.id,
        dateCreated: formatTimestamp(each.createdAt),
        dateUpdated: formatTimestamp(each.updatedAt),
        dateDeleted: null,
        createdBy: SYSTEM_USER,
        updatedBy: SYSTEM_USER,
        deletedBy: null,
      })),
    },
  };
}

/** The customer as verify shows it: the gateway's members (`customerId`, `emailAddress`, ...) beside the create answer's. */
function presentVerifiedCustomer(order: Order) {
  const { id, email, firstName, lastName, mobile, country } = order.customer;
  // A numeric string: the Flutter SDK types it String (an integer throws there), and Jackson reads "12" into the
  // Java SDK's Integer, so one value satisfies both.
  return { customerId: String(id), firstName, lastName, emailAddress: email, mobileNumber: mobile, countryShortName: country, email, mobile, country };
}

/** `MM/YY` as the gateway splits it: two-digit month, two-digit year. */
function expiryParts(expiry: string | null): { month: string | null; year: string | null } {
  const match = expiry ? /^(\d{2})\/(\d{2})$/.exec(expiry) : null;
  return { month: match?.[1] ?? null, year: match?.[2] ?? null };
}

export function presentVerify(
  order: Order,
  payments: readonly Payment[],
  merchant: Merchant,
  paymentLink: PaymentLink | null,
  savedCards: readonly SavedCardRow[],
  refunds: readonly Refund[],
): VerifyData {
  const payment = representativePayment(payments);
  const currency = order.currency;
  const statusId = order.statusId;
  const totals = presentRefundTotals(payments, refunds, currency);
  const savedToken = (each: Payment) =>
    savedCards.find((card) => card.first6 === each.cardFirst6 && card.last4 === each.cardLast4 && card.expiry === each.cardExpiry)?.token ?? null;
  return {
    orderReference: order.reference,
    paymentReference: payment?.reference ?? null,
    productName: COLLECTION_PRODUCT.name,
    totalAmountCharged: major(payment?.totalMinor ?? order.amountMinor, currency),
    amount: major(order.amountMinor, currency),
    statusId,
    status: STATUS_NAMES[statusId],
    paymentMethod: payment ? PAYMENT_OPTIONS[payment.option] : null,
    paymentResponseCode: payment?.responseCode ?? null,
    paymentResponseMessage: payment?.responseMessage ?? null,
    narration: order.description,
    remarks: payment?.remarks ?? null,
    currencyId: wireCurrencyId(currency),
    currencyName: currency,
    paymentLinkId: paymentLink?.id ?? null,
    paymentLinkReference: paymentLink?.reference ?? null,
    recurringPaymentId: order.subscriptionId,
    recurringPaymentReference: order.subscriptionReference,
    recurringPeriod: order.recurringPeriod,
    fee: customerFee(payment, currency),
    feeRate: payment?.feeRate ?? 0,
    subsidiaryFee: major(payment?.subsidiaryFeeMinor ?? 0, currency),
    customerFee: major(payment?.customerFeeMinor ?? 0, currency),
    dateCreated: formatTimestamp(order.createdAt),
    dateUpdated: stamp(order.updatedAt),
    datePaymentConfirmed: stamp(payment?.confirmedAt ?? null),
    orderPayments: payments.map((each) => ({
      ...presentOrderPayment(order, each),
      paymentOptionId: PAYMENT_OPTION_IDS[each.option],
      paymentOption: each.option,
      status: STATUS_NAMES[each.statusId],
      responseCode: each.responseCode,
      responseMessage: each.responseMessage,
      dateCreated: formatTimestamp(each.createdAt),
      dateUpdated: formatTimestamp(each.updatedAt),
      datePaymentConfirmed: stamp(each.confirmedAt),
      amountReceived: each.option === 'bank-transfer' ? major(each.receivedMinor, currency) : null,
      excessAmount: each.option === 'bank-transfer' ? major(each.excessMinor, currency) : null,
    })),
    customer: presentVerifiedCustomer(order),
    cardDetails: payments
      .filter((each) => each.cardLast4)
      .map((each) => {
        const expiry = expiryParts(each.cardExpiry);
        return {
          orderPaymentId: each.id,
          status: each.statusId === 5,
          country: null,
          cardToken: savedToken(each),
          cardExpiryMonth: expiry.month,
          cardExpiryYear: expiry.year,
          cardType: each.cardBrand,
          cardIssuer: null,
          cardFirstSixDigits: each.cardFirst6,
          cardLastFourDigits: each.cardLast4,
          dateCreated: formatTimestamp(each.createdAt),
          appEnvironmentId: order.mode === 'test' ? (1 as const) : (2 as const),
          cardExpiry: each.cardExpiry,
          orderPaymentReference: each.reference,
        };
      }),
    paymentLink,
    amountRefunded: totals.amountRefunded,
    amountRefundable: totals.amountRefundable,
    refunds: refunds.map((refund) => presentRefund(refund, order)),
    subsidiary: { id: merchant.id, name: merchant.name },
    orderOrigin: order.createdBy,
  };
}

/**
 * The code an option is offered under on each path family: the TransactPay iOS SDK knows bank transfer only as
 * `BANK-TRANSFER` (its Kotlin and Dart clients send codes of their own and never read the list); the ePayClub
 * family keeps `bank-transfer`. Pay accepts every spelling on both.
 */
const offeredCode = (code: string, family: PathFamily) => (family === 'transactpay' && code === 'bank-transfer' ? 'BANK-TRANSFER' : code);

/** The create-order answer's data (protocol.md 4.2): the order, its merchant and customer, options and saved cards. */
export function presentCreatedOrder({ order, merchant, link, savedCards, canSaveCard, clientToken }: CreatedOrder, family: PathFamily = 'checkout'): CreateOrderData {
  const quote = computeFee(order.feeRules, 'C', order.currency, order.amountMinor);
  const major = (minor: number) => toMajorUnits(minor, order.currency);
  return {
    order: {
      reference: order.reference,
      processorReference: order.processorReference,
      orderPaymentReference: null,
      amount: major(order.amountMinor),
      fee: major(quote.customerFeeMinor),
      feeRate: quote.rate,
      statusId: order.statusId,
      status: STATUS_NAMES[order.statusId],
      currency: order.currency,
      narration: order.description,
      paymentLinkId: link?.id ?? null,
      recurringPaymentId: order.subscriptionId,
      paymentLinkReference: link?.reference ?? null,
      recurringPaymentReference: order.subscriptionReference,
      frequencyId: order.frequencyId,
      numberOfPayments: order.numberOfPayments,
    },
    subsidiary: toSubsidiary(merchant),
    customer: presentCustomer(order),
    payment: { code: null, source: order.createdBy, selectedOption: null, accountNumber: null, bankProviderName: null },
    otherPaymentOptions: paymentOptionsFor(order.currency, order.frequencyId !== null).map((option) => ({ ...option, code: offeredCode(option.code, family) })),
    savedCards: savedCards.map((card) => ({ token: card.token, brand: card.brand, first6: card.first6, last4: card.last4, expiry: card.expiry })),
    canSaveCard,
    clientToken: clientToken ? { token: clientToken.token, expiresAt: formatTimestamp(clientToken.expiresAt) } : null,
    subsidiaryOrderSummary: {
      orderName: `${merchant.name} Order ${order.reference}`,
      totalAmount: major(order.amountMinor),
      reference: order.reference,
      currency: order.currency,
      orderItems: order.items.map((item) => ({ name: item.name, amount: major(item.amountMinor) })),
    },
  };
}
