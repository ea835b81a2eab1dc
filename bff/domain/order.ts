import type { FeeRule } from './fees.ts';
import type { Mode } from './merchant.ts';
import type { StatusId } from './order-state.ts';

export type Customer = { id: number; email: string; firstName: string; lastName: string; mobile: string | null; country: string | null };

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
};

export type PaymentStage = 'processing' | 'authentication' | 'transfer' | 'done';

export type Payment = {
  id: number;
  orderId: number;
  reference: string;
  option: 'C' | 'bank-transfer';
  statusId: StatusId;
  stage: PaymentStage;
  responseCode: string;
  responseMessage: string;
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
  authSession: string | null;
  authAttempts: number;
  transferAccount: string | null;
  transferBank: string | null;
  transferExpiresAt: Date | null;
  receivedMinor: number;
  excessMinor: number;
  createdAt: Date;
  updatedAt: Date;
  confirmedAt: Date | null;
};
