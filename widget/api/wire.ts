import * as z from 'zod/mini';
import type { ErrorEnvelope as SharedErrorEnvelope } from '../../shared/envelope.ts';
import type { FeeQuote as SharedFeeQuote } from '../../shared/fees.ts';
import type { CreateOrderData as SharedCreateOrderData } from '../../shared/orders.ts';
import type { EncryptionJwk as SharedEncryptionJwk } from '../../shared/keys.ts';
import type { OrderStatusResponse as SharedOrderStatusResponse, PayOrderData as SharedPayOrderData } from '../../shared/payments.ts';

/**
 * The response schemas of shared/ rebuilt with `zod/mini`, for the browser only.
 *
 * Why a mirror: shared/ is written with classic zod, whose schema classes reference every other class, so one
 * import pulls about 31 KB gzipped into the bundle (measured with `vite build`); the same shapes in zod/mini cost
 * about 8 KB and leave room in the 35 KB budget. The mirror cannot drift: the `Same<...>` checks at the end fail
 * `tsc` unless each schema infers exactly the shared type, and the widget tests parse every stubbed answer with
 * the shared schemas before the widget reads it with these.
 */
z.config({ jitless: true }); // no `new Function`: the checkout page runs under a CSP without 'unsafe-eval'

const text = z.string();
const nullableText = z.nullable(z.string());
const nullableNumber = z.nullable(z.number());
const integer = z.number().check(z.int());
const statusId = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(5), z.literal(6)]);

export const errorEnvelope = z.object({
  status: z.literal('failed'),
  statusCode: z.enum(['VAL400', 'AUTH401', 'AUTH403', 'NF404', 'CON409', 'IDEM422', 'RATE429', 'ERR500']),
  message: text,
  requestId: z.optional(text),
});

const subsidiary = z.object({
  id: z.number().check(z.int()),
  name: text,
  country: text.check(z.length(2)),
  supportEmail: text,
  customization: z.nullable(z.array(z.record(z.string(), z.unknown()))),
  logo: z.nullable(text),
});

const orderItem = z.object({ name: text, amount: z.number() });

export const createOrderData = z.object({
  order: z.object({
    reference: text,
    processorReference: text,
    orderPaymentReference: nullableText,
    amount: z.number(),
    fee: z.number(),
    feeRate: z.number(),
    statusId,
    status: text,
    currency: text,
    narration: nullableText,
    paymentLinkId: nullableNumber,
    recurringPaymentId: nullableNumber,
    paymentLinkReference: nullableText,
    recurringPaymentReference: nullableText,
    frequencyId: nullableNumber,
    numberOfPayments: nullableNumber,
  }),
  subsidiary,
  customer: z.object({ email: nullableText, firstName: text, lastName: text, mobile: nullableText, country: nullableText }),
  payment: z.object({
    code: nullableText,
    source: nullableText,
    selectedOption: nullableText,
    accountNumber: nullableText,
    bankProviderName: nullableText,
  }),
  otherPaymentOptions: z.array(z.object({ code: text, name: text, currency: text })),
  savedCards: z.array(z.object({ token: text, brand: text, first6: text, last4: text, expiry: text })),
  canSaveCard: z.boolean(),
  clientToken: z.nullable(z.object({ token: text, expiresAt: text })),
  subsidiaryOrderSummary: z.object({
    orderName: text,
    totalAmount: z.number(),
    reference: text,
    currency: text,
    orderItems: z.array(orderItem),
  }),
});

export const createOrderResponse = z.object({
  status: z.literal('success'),
  statusCode: z.literal('01'),
  message: text,
  data: createOrderData,
});

export const feeQuote = z.object({
  fee: z.number(),
  amount: z.number(),
  subsidiaryFee: z.number(),
  customerFee: z.number(),
  totalChargedAmount: z.number(),
  paymentOption: text,
  currency: text,
  bearer: z.enum(['customer', 'merchant', 'split']),
});

export const feeResponse = z.object({ status: z.literal('success'), statusCode: z.literal('00'), message: text, data: feeQuote });

export const bankTransferDetails = z.object({
  bankAccount: text,
  accountName: text,
  bankName: text,
  amount: z.number(),
  amountPaid: z.number(),
  amountDue: z.number(),
  expiresAt: text,
});

export const payOrderData = z.object({
  paymentDetail: z.object({ redirectUrl: nullableText, recipientAccount: nullableText, paymentReference: text }),
  bankTransferDetails: z.nullable(bankTransferDetails),
  orderPayment: z.object({
    orderId: z.number(),
    orderPaymentReference: text,
    currency: text,
    statusId,
    orderPaymentResponseCode: text,
    orderPaymentResponseMessage: text,
    orderPaymentInstrument: nullableText,
    remarks: text,
    totalAmount: z.number(),
    fee: z.number(),
  }),
});

export const payOrderResponse = z.object({
  status: z.enum(['success', 'failed']),
  statusCode: text,
  message: text,
  data: payOrderData,
});

export const orderStatusResponse = z.object({
  is_final_status: z.boolean(),
  requery_needed: z.boolean(),
  requery_type: nullableText,
  status: z.literal('success'),
  status_code: z.literal('00'),
  message: text,
  data: z.object({
    payment_reference: nullableText,
    order_reference: text,
    product_id: integer,
    subsidiary_id: integer,
    wallet_id: integer,
    customer_id: integer,
    total_charged_amount: z.number(),
    payment_status: statusId,
    currency_id: integer,
    currency: text,
    fee: z.number(),
    subsidiary_fee: z.number(),
    customer_fee: z.number(),
    payment_type: nullableText,
    payment_response_code: nullableText,
    payment_response_message: nullableText,
    provider_response_date: nullableText,
    date_payment_confirmed: nullableText,
    narration: nullableText,
    remarks: nullableText,
    parent_transaction_id: z.nullable(integer),
    id: integer,
    created_by: integer,
    updated_by: integer,
    deleted_by: z.nullable(integer),
    date_created: text,
    date_updated: nullableText,
    date_deleted: nullableText,
    amount_due: z.number(),
    amount_received: z.number(),
    excess_amount: z.number(),
    transfer_expires_at: nullableText,
    amount_refunded: z.number(),
  }),
});

/** GET /checkout/keys: the merchant's public JWKs inside the usual envelope (shared/keys.ts). */
const keyMembers = { kid: text, use: z.literal('enc') };
export const encryptionJwk = z.discriminatedUnion('kty', [
  z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: text, y: text, alg: z.literal('ECDH-ES+A256KW'), ...keyMembers }),
  z.object({ kty: z.literal('RSA'), n: text, e: text, alg: z.literal('RSA-OAEP-256'), ...keyMembers }),
]);

/** The keys a page hands the checkout (the frame page's `encryption-keys`), as GET /checkout/keys lists them. */
export const encryptionJwks = z.array(encryptionJwk);

export const keysResponse = z.object({
  status: z.literal('success'),
  statusCode: z.literal('00'),
  message: text,
  data: z.object({ keys: encryptionJwks }),
});

export const trackEventResponse = z.object({ status: z.literal('success'), statusCode: z.literal('00'), message: text, data: z.null() });

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
export type CreateOrderData = z.infer<typeof createOrderData>;
export type FeeQuote = z.infer<typeof feeQuote>;
export type BankTransferDetails = z.infer<typeof bankTransferDetails>;
export type PayOrderResponse = z.infer<typeof payOrderResponse>;
export type OrderStatusResponse = z.infer<typeof orderStatusResponse>;
export type OrderStatus = OrderStatusResponse['data'];
export type PublicEncryptionKey = z.infer<typeof encryptionJwk>;
export type SavedCard = CreateOrderData['savedCards'][number];

/** Exact type equality: each mirror must infer precisely the shared type, or `tsc` fails here. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
export type MirrorChecks = [
  Assert<Same<ErrorEnvelope, SharedErrorEnvelope>>,
  Assert<Same<CreateOrderData, SharedCreateOrderData>>,
  Assert<Same<FeeQuote, SharedFeeQuote>>,
  Assert<Same<z.infer<typeof payOrderData>, SharedPayOrderData>>,
  Assert<Same<OrderStatusResponse, SharedOrderStatusResponse>>,
  Assert<Same<PublicEncryptionKey, SharedEncryptionJwk>>,
];
