import { z } from 'zod';
import { aliased } from './binding.ts';
import { successEnvelope } from './envelope.ts';
import { currencyCode, httpUrl, blankToUndefined, optionalFreeText, optionalText, positiveAmount, positiveId, requiredFreeText, requiredText, wholeNumber } from './fields.ts';
import { metadataSchema } from './metadata.ts';
import { subsidiarySchema } from './links.ts';

/** protocol.md 4.2: create order. The plain payload travels encrypted in `data`. */
export const PAYMENT_OPTIONS = {
  C: 'Card Payment',
  'bank-transfer': 'Pay With Bank Transfer',
} as const;
export type PaymentOptionCode = keyof typeof PAYMENT_OPTIONS;
/** `paymentOptionId` in verify's order payments. */
export const PAYMENT_OPTION_IDS: Record<PaymentOptionCode, number> = { C: 1, 'bank-transfer': 2 };

/** Order and order-payment states (protocol.md section 5). 3 is unused by the gateway. */
export const ORDER_STATUS = { 1: 'Initiated', 2: 'Pending', 4: 'Failed', 5: 'Successful', 6: 'Reversed' } as const;
export type OrderStatusId = keyof typeof ORDER_STATUS;
export const statusIdSchema = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(5), z.literal(6)]);
export const isFinalStatus = (statusId: number): boolean => statusId === 4 || statusId === 5 || statusId === 6;

const itemSchema = z.object({ name: requiredFreeText(200), amount: positiveAmount });

export const createOrderPlainSchema = z
  .object({
    customer: z
      .object({
        firstname: aliased(requiredFreeText(100), 'firstName', 'first_name'),
        lastname: aliased(requiredFreeText(100), 'lastName', 'last_name'),
        mobile: aliased(optionalText(20), 'phone', 'phoneNumber'),
        country: optionalText(2),
        email: z.preprocess(blankToUndefined, z.string().trim().pipe(z.email({ message: 'must be a valid e-mail address' })).optional()),
      })
      // A customer is reached by e-mail or by phone: either will do, as the gateway's SDKs allow.
      .refine((customer) => customer.email !== undefined || customer.mobile !== undefined, {
        path: ['email'],
        message: 'is required when customer.mobile is not given',
      }),
    order: z.object({
      amount: positiveAmount,
      reference: requiredText(64).regex(/^[A-Za-z0-9._~:-]+$/, { message: 'may contain only letters, digits and . _ ~ : -' }),
      description: optionalFreeText(500, { multiline: true }),
      currency: currencyCode,
      items: z.array(itemSchema).max(100).optional(),
    }),
    payment: z
      .object({
        RedirectUrl: aliased(z.preprocess(blankToUndefined, httpUrl.optional()), 'redirect_url', 'returnUrl'),
        paymentlinkid: aliased(z.preprocess(blankToUndefined, positiveId.optional()), 'paymentLinkId'),
        frequencyId: z.preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1).max(11)).optional()),
        numberOfPayments: z.preprocess(blankToUndefined, wholeNumber.pipe(z.number().min(1).max(1000)).optional()),
      })
      .optional(),
    paymentMeta: metadataSchema.optional(),
  })
  .meta({
    id: 'CreateOrderPlain',
    description: 'The plain payload of create order, sent encrypted in `data`.',
    example: {
      customer: { firstname: 'Ada', lastname: 'Obi', mobile: '+2348012345678', country: 'NG', email: 'ada@example.com' },
      order: { amount: 12500, reference: 'ORDER-1042', description: 'Two books', currency: 'NGN', items: [{ name: 'Things Fall Apart', amount: 12500 }] },
      payment: { RedirectUrl: 'https://shop.example/return' },
    },
  });
export type CreateOrderPlain = z.infer<typeof createOrderPlainSchema>;

export const orderSchema = z.object({
  reference: z.string(),
  processorReference: z.string(),
  orderPaymentReference: z.string().nullable(),
  amount: z.number(),
  fee: z.number(),
  feeRate: z.number(),
  statusId: statusIdSchema,
  status: z.string(),
  currency: z.string(),
  narration: z.string().nullable(),
  paymentLinkId: z.number().nullable(),
  recurringPaymentId: z.number().nullable(),
  paymentLinkReference: z.string().nullable(),
  recurringPaymentReference: z.string().nullable(),
  frequencyId: z.number().int().nullable().describe('the subscription plan this order starts: a frequency id (`/checkout/frequencies`), else null'),
  numberOfPayments: z.number().int().nullable().describe('the plan: payments in all, the first included; null until cancelled'),
});

export const customerSchema = z.object({
  email: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  mobile: z.string().nullable(),
  country: z.string().nullable(),
});

export const paymentOptionSchema = z.object({ code: z.string(), name: z.string(), currency: z.string() });

export const savedCardSchema = z.object({
  token: z.string(),
  brand: z.string(),
  first6: z.string(),
  last4: z.string(),
  expiry: z.string().describe('MM/YY'),
});
export type SavedCard = z.infer<typeof savedCardSchema>;

export const orderItemSchema = z.object({ name: z.string(), amount: z.number() });

export const createOrderDataSchema = z.object({
  order: orderSchema,
  subsidiary: subsidiarySchema,
  customer: customerSchema,
  payment: z.object({
    code: z.string().nullable(),
    source: z.string().describe("who created the order: `server` (secret key) or `browser` (publishable key); the iOS SDK's model requires a string"),
    selectedOption: z.string().nullable(),
    accountNumber: z.string().nullable(),
    bankProviderName: z.string().nullable(),
  }),
  otherPaymentOptions: z.array(paymentOptionSchema),
  savedCards: z.array(savedCardSchema).describe("The saved cards of the customer session the order was created with; empty without one."),
  canSaveCard: z.boolean().describe('Whether the card this order is paid with may be saved: only with a customer session.'),
  clientToken: z
    .object({ token: z.string(), expiresAt: z.string() })
    .nullable()
    .describe("To the merchant's server (secret key) only: hand `token` to the checkout (`client-token`) so the browser may see and pay this order."),
  subsidiaryOrderSummary: z.object({
    orderName: z.string(),
    totalAmount: z.number(),
    reference: z.string(),
    currency: z.string(),
    orderItems: z.array(orderItemSchema),
  }),
});
export type CreateOrderData = z.infer<typeof createOrderDataSchema>;

export const createOrderResponseSchema = successEnvelope(createOrderDataSchema, z.literal('01')).meta({ id: 'CreateOrderResponse' });
export type CreateOrderResponse = z.infer<typeof createOrderResponseSchema>;

/** Plain `{"reference"}`: order status, and verify (which is sent in the clear with the secret key). */
export const referencePlainSchema = z
  .object({ reference: aliased(requiredText(64), 'orderReference', 'orderreference') })
  .meta({ id: 'OrderReference', example: { reference: 'ORDER-1042' } });

/**
 * `/payment/order/status` also takes the reference wrapped as the Dart package's `orderStatus` sends it
 * (`{"orderId": {"reference": ...}}`); the reference at the top level wins.
 */
export const transactPayStatusPlainSchema = z
  .object({
    reference: aliased(optionalText(64), 'orderReference', 'orderreference'),
    orderId: aliased(z.object({ reference: aliased(requiredText(64), 'orderReference', 'orderreference') }).optional(), 'orderid'),
  })
  .superRefine((body, context) => {
    if (body.reference === undefined && body.orderId === undefined) context.addIssue({ code: 'custom', path: ['reference'], message: 'is required' });
  })
  .transform((body) => ({ reference: body.reference ?? body.orderId!.reference }))
  .meta({ id: 'TransactPayOrderReference', example: { reference: 'ORDER-1042' } });
