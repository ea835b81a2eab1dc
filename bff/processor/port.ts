import type { DeclineCode } from '../domain/lifecycle.ts';

/**
 * What the payment services need from an acquirer, shaped for real ones: a charge ends approved, declined (the
 * processor's own code kept beside the normalised one), with an action the customer must take (the processor
 * describes it: a page to send the customer to), or unknown (a timeout, a lost answer: never a decline, since
 * the money may have been taken; the attempt stays processing and a job asks again with `lookup`).
 * Card data passes through `charge` only and is never stored.
 */
export type CardDetails = {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  pin?: string | undefined;
};

/** A new card typed by the customer, or a card the processor tokenised earlier. */
export type Instrument =
  | { kind: 'card'; card: CardDetails }
  /** A saved card: the customer present (`cvv` optional) or the merchant charging it (recurring, no CVV, no 3-D Secure). */
  | { kind: 'token'; token: string; initiator: 'customer' | 'merchant'; cvv?: string | undefined };

export type ChargeRequest = {
  /** The attempt's reference: the processor's key for the charge, for `completeAction` and `lookup`. */
  reference: string;
  amountMinor: number;
  currency: string;
  /** The merchant asks for 3-D Secure (a link's AUTH option). */
  authenticationRequired: boolean;
  /** What the customer's bank shows on its page. */
  merchantName: string;
  instrumentLabel: string;
};

export type Settled =
  | { kind: 'approved'; rawCode: string; cardToken: string | null }
  | { kind: 'declined'; code: DeclineCode; rawCode: string; authenticationFailed?: boolean };

export type ChargeResult =
  | Settled
  /** Send the customer to `url`; `reference` is the processor's handle for the action. */
  | { kind: 'action-required'; action: { type: 'redirect'; url: string; reference: string } }
  | { kind: 'unknown'; detail: string };

/** What the processor's own record says of a charge. */
export type LookupResult = Settled | { kind: 'pending' } | { kind: 'not-found' } | { kind: 'unknown'; detail: string };

export type TransferAccount = { accountNumber: string; bankName: string; bankCode: string };

export type PaymentMethod = 'C' | 'bank-transfer';

/** Money going back to the customer from an earlier charge (or transfer) `chargeReference`, in part or in full. */
export type RefundRequest = {
  /** The refund's own reference: the processor's key for it, for `lookupRefund`; a repeated call refunds once. */
  reference: string;
  chargeReference: string;
  amountMinor: number;
  currency: string;
};

/**
 * A refund ends succeeded (with the processor's reference for it), declined (the normalised ISO 8583 code beside
 * the processor's own), or unknown (a timeout, a lost answer: never taken for a decline, since the money may have
 * gone back; the refund stays processing and the `refund.requery` job asks `lookupRefund`).
 */
export type RefundSettled =
  | { kind: 'succeeded'; processorReference: string; rawCode: string }
  | { kind: 'declined'; code: DeclineCode; rawCode: string };

export type RefundResult = RefundSettled | { kind: 'unknown'; detail: string };

/** What the processor's own record says of a refund. */
export type RefundLookupResult = RefundSettled | { kind: 'pending' } | { kind: 'not-found' } | { kind: 'unknown'; detail: string };

export interface PaymentProcessor {
  readonly name: string;
  /** Whether this processor takes this merchant's payments of this method and currency in this mode. */
  supports(route: { merchantId: number; mode: 'test' | 'live'; method: PaymentMethod; currency: string }): boolean;
  charge(instrument: Instrument, request: ChargeRequest): Promise<ChargeResult>;
  /** The customer came back from the action of charge `reference`: the processor's verdict (unknown if it cannot tell yet). */
  completeAction(reference: string): Promise<ChargeResult>;
  openTransferAccount(request: ChargeRequest): Promise<TransferAccount>;
  lookup(reference: string): Promise<LookupResult>;
  /** Sends money of an approved charge or a received transfer back to the customer. */
  refund(request: RefundRequest): Promise<RefundResult>;
  lookupRefund(reference: string): Promise<RefundLookupResult>;
}
