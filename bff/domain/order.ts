import type { FeeRule } from './fees.ts';
import type { Mode } from './merchant.ts';
import type { EndReason, PaymentStage, StatusId } from './lifecycle.ts';

/** Reached by e-mail or mobile number: at least one of them is set. */
export type Customer = { id: number; email: string | null; firstName: string; lastName: string; mobile: string | null; country: string | null };

/** Who created an order: the merchant's server (secret key) or a browser (publishable key). Each has its own reference space. */
export type OrderOrigin = 'server' | 'browser';

export type Order = {
  id: number;
  merchantId: number;
  mode: Mode;
  reference: string;
  processorReference: string;
  customer: Customer;
  amountMinor: number;
  currency: string;
  description: string | null;
  items: { name: string; amountMinor: number }[];
  redirectUrl: string | null;
  paymentLinkId: number | null;
  frequencyId: number | null;
  numberOfPayments: number | null;
  authOption: 'AUTH' | 'NOAUTH';
  feeRules: FeeRule[];
  statusId: StatusId;
  createdAt: Date;
  updatedAt: Date;
  createdBy: OrderOrigin;
  /** The customer the merchant vouched for with a customer session, whose saved cards the order may use and add to. */
  shopperId: number | null;
  /** The subscription (recurring payment) this order started or charges; null for a one-off order. */
  subscriptionId: number | null;
  subscriptionReference: string | null;
  /** For a recurring charge, the period it pays (2, 3, ...); null for the order that started the subscription. */
  recurringPeriod: number | null;
};

export type { PaymentStage };

export type Payment = {
  id: number;
  orderId: number;
  reference: string;
  option: 'C' | 'bank-transfer';
  statusId: StatusId;
  stage: PaymentStage;
  responseCode: string;
  responseMessage: string;
  /** The processor's own code, beside the normalised `responseCode`. */
  rawResponseCode: string | null;
  /** Why the attempt ended without the money; null while open and on success. */
  reason: EndReason | null;
  /** The processor that handled the attempt (`ProcessorRegistry.byName`). */
  processor: string;
  remarks: string;
  amountMinor: number;
  feeMinor: number;
  customerFeeMinor: number;
  subsidiaryFeeMinor: number;
  totalMinor: number;
  feeRate: number;
  instrument: string | null;
  cardBrand: string | null;
  cardFirst6: string | null;
  cardLast4: string | null;
  cardExpiry: string | null;
  saveCard: boolean;
  /** The processor's handle for the action the customer was sent to (3-D Secure). */
  authSession: string | null;
  transferAccount: string | null;
  transferBank: string | null;
  transferExpiresAt: Date | null;
  receivedMinor: number;
  excessMinor: number;
  createdAt: Date;
  updatedAt: Date;
  confirmedAt: Date | null;
};
