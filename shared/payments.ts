import { z } from 'zod';
import { aliased } from './binding.ts';
import { isExpiryYearWritten } from './card.ts';
import { blankToUndefined, optionalText, requiredText, wholeNumber } from './fields.ts';
import { statusIdSchema } from './orders.ts';

/** protocol.md 4.3: initiate order payment, and the shapes of its answers. */
const OPTION_ALIASES: Record<string, 'C' | 'bank-transfer'> = {
  c: 'C',
  card: 'C',
  'bank-transfer': 'bank-transfer',
  banktransfer: 'bank-transfer',
  bt: 'bank-transfer',
};

export const paymentOptionCode = z.preprocess(
  (value) => (typeof value === 'string' ? (OPTION_ALIASES[value.trim().toLowerCase()] ?? value) : value),
  z.enum(['C', 'bank-transfer']),
);

const digitString = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.replace(/[\s-]/g, '') : value),
    z.string().min(1).max(max).regex(/^\d+$/, { message: 'must contain digits only' }),
  );

/** Number and expiry are required for a new card and absent when paying with a saved card's token. */
export const cardPlainSchema = z.object({
  cardnumber: aliased(digitString(19).optional(), 'cardNumber', 'card_number', 'pan'),
  expirymonth: aliased(wholeNumber.pipe(z.number().min(1).max(12)).optional(), 'expiryMonth', 'expiry_month'),
  expiryyear: aliased(
    wholeNumber.pipe(z.number().refine(isExpiryYearWritten, { message: 'must be a two- or four-digit year (39 or 2039)' })).optional(),
    'expiryYear',
    'expiry_year',
  ),
  cvv: digitString(4),
  pin: z.preprocess(blankToUndefined, digitString(6).optional()),
  name: aliased(optionalText(100), 'cardholdername', 'cardHolderName', 'nameOnCard'),
  billingaddress: aliased(
    z
      .object({
        street: optionalText(200),
        city: optionalText(100),
        state: optionalText(100),
        country: optionalText(2),
        zipcode: aliased(optionalText(20), 'zipCode', 'postalcode', 'postalCode'),
      })
      .optional(),
    'billingAddress',
  ),
  save: aliased(z.boolean().optional(), 'saveCard', 'savecard'),
});

export const payOrderPlainSchema = z
  .object({
    reference: requiredText(64),
    paymentoption: aliased(paymentOptionCode, 'paymentOption', 'paymentmethod', 'paymentMethod'),
    country: optionalText(2),
    card: cardPlainSchema.optional(),
    cardToken: aliased(optionalText(64), 'cardtoken', 'savedCardToken', 'token'),
    BankTransfer: aliased(z.object({ bankcode: aliased(optionalText(20), 'bankCode') }).optional(), 'bankTransfer'),
  })
  .meta({
    id: 'PayOrderPlain',
    description: 'The plain payload of initiate payment, sent encrypted in `data`.',
    example: { reference: 'ORDER-1042', paymentoption: 'C', country: 'NG', card: { cardnumber: '4242424242424242', expirymonth: '12', expiryyear: '39', cvv: '123' } },
  });
export type PayOrderPlain = z.infer<typeof payOrderPlainSchema>;

export const orderPaymentSchema = z.object({
  orderId: z.number(),
  orderPaymentReference: z.string(),
  currency: z.string(),
  statusId: statusIdSchema,
  orderPaymentResponseCode: z.string(),
  orderPaymentResponseMessage: z.string(),
  orderPaymentInstrument: z.string().nullable(),
  remarks: z.string(),
  totalAmount: z.number(),
  fee: z.number(),
});

export const bankTransferDetailsSchema = z.object({
  bankAccount: z.string(),
  accountName: z.string(),
  bankName: z.string(),
  bankCode: z.string().describe("the receiving bank's code (CBN style; 999 for the sandbox bank); the iOS SDK reads it"),
  amount: z.number().describe('what the customer must send, in major units'),
  amountPaid: z.number().describe('received so far'),
  amountDue: z.number().describe('still to send'),
  expiresAt: z.string(),
});
export type BankTransferDetails = z.infer<typeof bankTransferDetailsSchema>;

export const payOrderDataSchema = z.object({
  paymentDetail: z.object({
    redirectUrl: z.string().nullable().describe('where the customer authenticates; on the /payment paths "" (never null) when there is nowhere to go'),
    recipientAccount: z.string().nullable(),
    paymentReference: z.string(),
  }),
  bankTransferDetails: bankTransferDetailsSchema.nullable(),
  orderPayment: orderPaymentSchema,
});
export type PayOrderData = z.infer<typeof payOrderDataSchema>;

/**
 * `00` approved, `02` pending (3-D Secure or transfer awaited); a decline is `status: failed` with the ISO 8583
 * code as `statusCode` and the payment in `data`, so clients that test `statusCode === '00'` never mistake it.
 */
export const payOrderResponseSchema = z
  .object({
    status: z.enum(['success', 'failed']),
    statusCode: z.string(),
    message: z.string(),
    data: payOrderDataSchema,
  })
  .meta({ id: 'PayOrderResponse' });
export type PayOrderResponse = z.infer<typeof payOrderResponseSchema>;

/** protocol.md 4.4: order status, snake case, with `status_code` instead of `statusCode`. */
const int = () => z.number().int();

export const orderStatusDataSchema = z.object({
  payment_reference: z.string().nullable(),
  order_reference: z.string(),
  product_id: int().describe('1: Collection, the checkout product'),
  subsidiary_id: int(),
  wallet_id: int().describe("the merchant's settlement wallet: one per merchant, numbered as the merchant"),
  customer_id: int(),
  total_charged_amount: z.number(),
  payment_status: statusIdSchema,
  currency_id: int().describe('ISO 4217 numeric code (NGN 566, USD 840)'),
  currency: z.string().describe('ISO 4217 code of currency_id'),
  fee: z.number(),
  subsidiary_fee: z.number(),
  customer_fee: z.number(),
  payment_type: z.string().nullable(),
  payment_response_code: z.string().nullable(),
  payment_response_message: z.string().nullable(),
  provider_response_date: z.string().nullable(),
  date_payment_confirmed: z.string().nullable(),
  narration: z.string().nullable(),
  remarks: z.string().nullable(),
  parent_transaction_id: int().nullable(),
  id: int(),
  created_by: int().describe('-1: the system'),
  updated_by: int().describe('-1: the system'),
  deleted_by: int().nullable(),
  date_created: z.string(),
  date_updated: z.string().nullable(),
  date_deleted: z.string().nullable(),
  amount_due: z.number().describe('for a transfer still awaited: what remains to send'),
  amount_received: z.number().describe('for a bank transfer: what has arrived so far'),
  excess_amount: z.number().describe('for a bank transfer: what arrived beyond the amount due, recorded for refund'),
  transfer_expires_at: z.string().nullable(),
  amount_refunded: z.number().describe('what successful refunds sent back to the customer (the order is 6 Reversed once all is refunded)'),
});
export type OrderStatusData = z.infer<typeof orderStatusDataSchema>;

export const orderStatusResponseSchema = z
  .object({
    is_final_status: z.boolean(),
    requery_needed: z.boolean(),
    requery_type: z.string().nullable(),
    status: z.literal('success'),
    status_code: z.literal('00'),
    message: z.string(),
    data: orderStatusDataSchema,
  })
  .meta({ id: 'OrderStatusResponse' });
export type OrderStatusResponse = z.infer<typeof orderStatusResponseSchema>;

/**
 * The order status as the TransactPay deployment's mobile SDKs read it at `/payment/order/status` (the ePayClub
 * shape above stays at `/checkout/order/status`): the Kotlin SDK polls until the top-level `status` is
 * `Successful` or `Failed` (the order's status name, not the envelope's `success`), and the iOS SDK decodes
 * `statusCode`, `data.isFinalStatus`, `data.orderSummary` and `data.orderPayments`, every member typed as below.
 */
export const transactPayOrderSummarySchema = z.object({
  id: int(),
  paymentReference: z.string().nullable().describe('null only before any payment attempt'),
  orderReference: z.string(),
  totalChargedAmount: z.number(),
  fee: z.number().describe("the customer's part of the fee (what totalChargedAmount adds to the amount)"),
  subsidiaryFee: z.number().describe("the merchant's part of the fee"),
  statusId: statusIdSchema,
  status: z.string(),
  paymentType: z.string().nullable().describe('null only before any payment attempt'),
  currencyId: int().describe('ISO 4217 numeric code (NGN 566, USD 840)'),
  currency: z.string(),
  paymentResponseCode: z.string().nullable().describe('null only before any payment attempt'),
  paymentResponseMessage: z.string().nullable().describe('null only before any payment attempt'),
  providerResponseDate: z.string().nullable(),
  datePaymentConfirmed: z.string().nullable(),
  dateCreated: z.string(),
  narration: z.string(),
  remarks: z.string().nullable().describe('null only before any payment attempt'),
});

export const transactPayOrderPaymentSchema = z.object({
  orderId: int(),
  orderPaymentReference: z.string(),
  paymentOptionId: int().describe('1 card, 2 bank transfer'),
  statusId: statusIdSchema,
  orderPaymentResponseCode: z.string(),
  orderPaymentResponseMessage: z.string(),
  orderPaymentInstrument: z.string().nullable(),
  remarks: z.string(),
  providerReference: z.string().describe('the reference the processor knows the charge by'),
  providerResponseCode: z.string().describe("the processor's own code"),
  paymentUrl: z.string().describe('the authentication page while 3-D Secure is awaited, else ""'),
  externalReference: z.string().describe("the merchant's order reference"),
  authOption: z.string().nullable(),
  order: z.string().nullable(),
  id: int().nullable(),
  dateCreated: z.string().nullable(),
  dateUpdated: z.string().nullable(),
  dateDeleted: z.string().nullable(),
  createdBy: int().nullable(),
  updatedBy: int().nullable(),
  deletedBy: int().nullable(),
});

export const transactPayStatusResponseSchema = z
  .object({
    status: z.string().describe('the order status name: Initiated, Pending, Failed, Successful or Reversed'),
    statusCode: z.literal('00'),
    message: z.string(),
    data: z.object({
      isFinalStatus: z.boolean(),
      requeryNeeded: z.boolean(),
      requeryType: z.string().nullable(),
      orderSummary: transactPayOrderSummarySchema,
      orderPayments: z.array(transactPayOrderPaymentSchema).describe('every attempt, oldest first'),
    }),
  })
  .meta({ id: 'TransactPayOrderStatusResponse' });
export type TransactPayStatusResponse = z.infer<typeof transactPayStatusResponseSchema>;
