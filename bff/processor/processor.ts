/**
 * What the payment services need from an acquirer. The sandbox implements it with test cards; a real acquirer
 * connector would implement the same calls. Card data passes through `chargeCard` only and is never stored:
 * what comes back is an outcome, and opaque tokens the processor understands.
 */
export type ResponseCode = '00' | '02' | '04' | '05' | '12' | '14' | '51' | '54' | '55' | '91';

export const RESPONSE_MESSAGES: Record<ResponseCode, string> = {
  '00': 'Approved',
  '02': 'pending-authenticaion',
  '04': 'Account number has expired',
  '05': 'Do not honour',
  '12': 'Invalid transaction',
  '14': 'Invalid card number',
  '51': 'Insufficient funds',
  '54': 'Expired card',
  '55': 'Incorrect PIN',
  '91': 'Issuer unavailable, try again',
};

export type CardDetails = {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  pin?: string | undefined;
};

export type Charge = { amountMinor: number; currency: string; reference: string; authenticationRequired: boolean };

export type ChargeOutcome =
  | { kind: 'approved'; cardToken: string }
  | { kind: 'declined'; code: Exclude<ResponseCode, '00' | '02' | '04'> }
  /** The issuer wants the customer to authenticate; `session` is handed back to `completeAuthentication`. */
  | { kind: 'authenticate'; session: string };

export type TransferAccount = { accountNumber: string; bankName: string; bankCode: string };

export interface PaymentProcessor {
  readonly name: string;
  chargeCard(card: CardDetails, charge: Charge): Promise<ChargeOutcome>;
  /** Charges a card saved earlier (by the token an approval returned); the CVV is asked again. */
  chargeSavedCard(cardToken: string, cvv: string, charge: Charge): Promise<ChargeOutcome>;
  /** The customer authenticated (`passed`) or failed/abandoned; the issuer then approves or declines. */
  completeAuthentication(session: string, passed: boolean): Promise<Exclude<ChargeOutcome, { kind: 'authenticate' }>>;
  openTransferAccount(charge: Charge): Promise<TransferAccount>;
  /**
   * The final outcome the processor recorded for a charge (by the charge's reference), or undefined when it has
   * none: the charge never reached it, is unknown to it, or is still waiting for the customer. Asked when an
   * attempt was interrupted between the processor's answer and its recording.
   */
  findOutcome(reference: string): Promise<Exclude<ChargeOutcome, { kind: 'authenticate' }> | undefined>;
}
