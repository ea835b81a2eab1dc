import type { OrderStatus } from '../api/wire.ts';

/** What an order-status answer (protocol.md 4.4 and section 5) means for the screen the customer sees. */
export type StatusMeaning =
  /** `reference`: the order's, the one the merchant sees and the customer quotes (not the payment attempt's). */
  | { kind: 'paid'; amount: number; currency: string; reference: string; confirmedAt: string | null; excess: number }
  /** `received`: money that arrived before the account expired, recorded for refund. */
  | { kind: 'expired'; message: string; received: number }
  | { kind: 'declined'; code: string }
  | { kind: 'reversed'; code: string }
  | { kind: 'awaiting-transfer'; amountDue: number }
  | { kind: 'awaiting-authentication' }
  | { kind: 'unpaid' };

/** The response code of a bank-transfer account that ran out of time. */
export const EXPIRED_TRANSFER_CODE = '04';

/** A pending payment is a transfer when it has an account expiry, and otherwise a card awaiting 3-D Secure. */
export function meaningOf(status: OrderStatus): StatusMeaning {
  const code = status.payment_response_code ?? '';
  switch (status.payment_status) {
    case 5:
      return {
        kind: 'paid',
        amount: status.total_charged_amount,
        currency: status.currency,
        reference: status.order_reference,
        confirmedAt: status.date_payment_confirmed,
        excess: status.excess_amount,
      };
    case 4:
      return code === EXPIRED_TRANSFER_CODE
        ? { kind: 'expired', message: status.payment_response_message ?? 'Account number has expired', received: status.amount_received }
        : { kind: 'declined', code };
    case 6:
      return { kind: 'reversed', code };
    case 2:
      return status.transfer_expires_at !== null
        ? { kind: 'awaiting-transfer', amountDue: status.amount_due }
        : { kind: 'awaiting-authentication' };
    case 1:
      return { kind: 'unpaid' };
  }
}
