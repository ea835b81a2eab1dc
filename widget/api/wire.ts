import * as v from 'valibot';
import type { ErrorReason } from '../../shared/contract/reasons.ts';
import type { ErrorEnvelope as SharedErrorEnvelope } from '../../shared/envelope.ts';
import type { FeeQuote as SharedFeeQuote } from '../../shared/fees.ts';
import type { CreateOrderData as SharedCreateOrderData } from '../../shared/orders.ts';
import type { EncryptionJwk as SharedEncryptionJwk } from '../../shared/keys.ts';
import type { OrderStatusResponse as SharedOrderStatusResponse, PayOrderData as SharedPayOrderData } from '../../shared/payments.ts';
import type { ResumeOrderData as SharedResumeOrderData } from '../../shared/resume.ts';

/**
 * The response schemas of shared/ rebuilt with valibot, for the browser only.
 *
 * Why a mirror: shared/ is written with classic zod, whose schema classes reference every other class, so one
 * import pulls about 31 KB gzipped into the bundle (measured with `vite build`); the same shapes in zod/mini cost
 * 9 KB, and in valibot, whose every check is a function of its own, about 3 KB. The mirror cannot drift: the
 * `Same<...>` checks at the end fail `tsc` unless each schema infers exactly the shared type, and the widget tests
 * parse every stubbed answer with the shared schemas before the widget reads it with these. Valibot compiles
 * nothing (no `new Function`), so the checkout page's CSP needs no 'unsafe-eval'; `safeInteger` is zod's `int`.
 */
const text = v.string();
const nullableText = v.nullable(v.string());
const nullableNumber = v.nullable(v.number());
const integer = v.pipe(v.number(), v.safeInteger());
const statusId = v.picklist([1, 2, 4, 5, 6]);

export const errorEnvelope = v.object({
  status: v.literal('failed'),
  statusCode: v.picklist(['VAL400', 'AUTH401', 'AUTH403', 'NF404', 'CON409', 'IDEM422', 'RATE429', 'ERR500']),
  message: text,
  // Any text is kept as the reason: the checkout words the reasons it knows and the generic sentence covers the rest,
  // so the closed list (which grows with every API) stays out of the bundle.
  reason: v.optional(v.custom<ErrorReason>((value) => typeof value === 'string')),
  requestId: v.optional(text),
});

const subsidiary = v.object({
  id: v.pipe(v.number(), v.safeInteger()),
  name: text,
  country: v.pipe(text, v.length(2)),
  supportEmail: text,
  customization: v.array(v.record(v.string(), v.unknown())),
  logo: v.nullable(text),
});

const orderItem = v.object({ name: text, amount: v.number() });

export const createOrderData = v.object({
  order: v.object({
    reference: text,
    processorReference: text,
    orderPaymentReference: nullableText,
    amount: v.number(),
    fee: v.number(),
    feeRate: v.number(),
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
  customer: v.object({ email: nullableText, firstName: text, lastName: text, mobile: nullableText, country: nullableText }),
  payment: v.object({
    code: nullableText,
    source: text,
    selectedOption: nullableText,
    accountNumber: nullableText,
    bankProviderName: nullableText,
  }),
  otherPaymentOptions: v.array(v.object({ code: text, name: text, currency: text })),
  savedCards: v.array(v.object({ token: text, brand: text, first6: text, last4: text, expiry: text })),
  canSaveCard: v.boolean(),
  clientToken: v.nullable(v.object({ token: text, expiresAt: text })),
  subsidiaryOrderSummary: v.object({
    orderName: text,
    totalAmount: v.number(),
    reference: text,
    currency: text,
    orderItems: v.array(orderItem),
  }),
});

export const createOrderResponse = v.object({
  status: v.literal('success'),
  statusCode: v.literal('01'),
  message: text,
  data: createOrderData,
});

export const feeQuote = v.object({
  fee: v.number(),
  amount: v.number(),
  subsidiaryFee: v.number(),
  customerFee: v.number(),
  totalChargedAmount: v.number(),
  paymentOption: text,
  currency: text,
  bearer: v.picklist(['customer', 'merchant', 'split']),
});

export const feeResponse = v.object({ status: v.literal('success'), statusCode: v.literal('00'), message: text, data: feeQuote });

export const bankTransferDetails = v.object({
  bankAccount: text,
  accountName: text,
  bankName: text,
  bankCode: text,
  amount: v.number(),
  amountPaid: v.number(),
  amountDue: v.number(),
  expiresAt: text,
});

export const payOrderData = v.object({
  paymentDetail: v.object({ redirectUrl: nullableText, recipientAccount: nullableText, paymentReference: text }),
  bankTransferDetails: v.nullable(bankTransferDetails),
  orderPayment: v.object({
    orderId: v.number(),
    orderPaymentReference: text,
    currency: text,
    statusId,
    orderPaymentResponseCode: text,
    orderPaymentResponseMessage: text,
    orderPaymentInstrument: nullableText,
    remarks: text,
    totalAmount: v.number(),
    fee: v.number(),
  }),
});

export const payOrderResponse = v.object({
  status: v.picklist(['success', 'failed']),
  statusCode: text,
  message: text,
  data: payOrderData,
});

export const resumeOrderData = v.object({ order: createOrderData, payment: v.nullable(payOrderResponse) });
export const resumeOrderResponse = v.object({ status: v.literal('success'), statusCode: v.literal('00'), message: text, data: resumeOrderData });

export const orderStatusResponse = v.object({
  is_final_status: v.boolean(),
  requery_needed: v.boolean(),
  requery_type: nullableText,
  status: v.literal('success'),
  status_code: v.literal('00'),
  message: text,
  data: v.object({
    payment_reference: nullableText,
    order_reference: text,
    product_id: integer,
    subsidiary_id: integer,
    wallet_id: integer,
    customer_id: integer,
    total_charged_amount: v.number(),
    payment_status: statusId,
    currency_id: integer,
    currency: text,
    fee: v.number(),
    subsidiary_fee: v.number(),
    customer_fee: v.number(),
    payment_type: nullableText,
    payment_response_code: nullableText,
    payment_response_message: nullableText,
    provider_response_date: nullableText,
    date_payment_confirmed: nullableText,
    narration: nullableText,
    remarks: nullableText,
    parent_transaction_id: v.nullable(integer),
    id: integer,
    created_by: integer,
    updated_by: integer,
    deleted_by: v.nullable(integer),
    date_created: text,
    date_updated: nullableText,
    date_deleted: nullableText,
    amount_due: v.number(),
    amount_received: v.number(),
    excess_amount: v.number(),
    transfer_expires_at: nullableText,
    amount_refunded: v.number(),
  }),
});

/** GET /checkout/keys: the merchant's public JWKs inside the usual envelope (shared/keys.ts). */
const keyMembers = { kid: text, use: v.literal('enc') };
export const encryptionJwk = v.union([
  v.object({ kty: v.literal('EC'), crv: v.literal('P-256'), x: text, y: text, alg: v.literal('ECDH-ES+A256KW'), ...keyMembers }),
  v.object({ kty: v.literal('RSA'), n: text, e: text, alg: v.literal('RSA-OAEP-256'), ...keyMembers }),
]);

/** The keys a page hands the checkout (the frame page's `encryption-keys`), as GET /checkout/keys lists them. */
export const encryptionJwks = v.array(encryptionJwk);

export const keysResponse = v.object({
  status: v.literal('success'),
  statusCode: v.literal('00'),
  message: text,
  data: v.object({ keys: encryptionJwks }),
});

export const trackEventResponse = v.object({ status: v.literal('success'), statusCode: v.literal('00'), message: text, data: v.null() });

export type ErrorEnvelope = v.InferOutput<typeof errorEnvelope>;
export type CreateOrderData = v.InferOutput<typeof createOrderData>;

/** An order answer carried in the page rather than fetched (widget/flow/first-state.ts): read as a network answer is. */
export function readCreateOrderData(candidate: unknown): CreateOrderData | undefined {
  const parsed = v.safeParse(createOrderData, candidate);
  return parsed.success ? parsed.output : undefined;
}
export type FeeQuote = v.InferOutput<typeof feeQuote>;
export type BankTransferDetails = v.InferOutput<typeof bankTransferDetails>;
export type PayOrderResponse = v.InferOutput<typeof payOrderResponse>;
export type OrderStatusResponse = v.InferOutput<typeof orderStatusResponse>;
export type ResumeOrderData = v.InferOutput<typeof resumeOrderData>;
export type OrderStatus = OrderStatusResponse['data'];
export type PublicEncryptionKey = v.InferOutput<typeof encryptionJwk>;
export type SavedCard = CreateOrderData['savedCards'][number];

/** Exact type equality: each mirror must infer precisely the shared type, or `tsc` fails here. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
export type MirrorChecks = [
  Assert<Same<ErrorEnvelope, SharedErrorEnvelope>>,
  Assert<Same<CreateOrderData, SharedCreateOrderData>>,
  Assert<Same<FeeQuote, SharedFeeQuote>>,
  Assert<Same<v.InferOutput<typeof payOrderData>, SharedPayOrderData>>,
  Assert<Same<OrderStatusResponse, SharedOrderStatusResponse>>,
  Assert<Same<ResumeOrderData, SharedResumeOrderData>>,
  Assert<Same<PublicEncryptionKey, SharedEncryptionJwk>>,
];
