/**
 * The one lifecycle of order payments and orders (protocol.md section 5: 1 Initiated, 2 Pending, 4 Failed,
 * 5 Successful, 6 Reversed). A payment's state is its status and its stage together; every change of state is an
 * event of the table below, which names the states it may start from, the state it leads to, and the changes it
 * carries. `planPayment` / `planOrder` are pure; the repositories apply a plan as one UPDATE guarded by the state
 * the row was read in, so a replayed or racing event changes nothing and comes back as a typed conflict.
 */
export type StatusId = 1 | 2 | 4 | 5 | 6;

export const STATUS_NAMES: Record<StatusId, string> = { 1: 'Initiated', 2: 'Pending', 4: 'Failed', 5: 'Successful', 6: 'Reversed' };

export const isFinal = (status: StatusId): boolean => status === 4 || status === 5 || status === 6;

/** What an open attempt waits for: the processor, the customer's bank (3-D Secure), or the customer's money. */
export type PaymentStage = 'processing' | 'authentication' | 'transfer' | 'done';

export type PaymentState = { status: StatusId; stage: PaymentStage };

/** Why an attempt ended without the money: a closed set, never read back from message text. */
export type EndReason =
  | 'declined'
  | 'authentication-failed'
  | 'authentication-expired'
  | 'account-expired'
  | 'superseded'
  | 'interrupted'
  | 'already-paid';

/** ISO 8583 response codes this service gives (protocol.md section 5). */
export type ResponseCode = '00' | '02' | '04' | '05' | '12' | '14' | '51' | '54' | '55' | '91';
export type DeclineCode = Exclude<ResponseCode, '00' | '02' | '04'>;

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

/** The events of a payment, each carrying its own changes. */
export type PaymentEvent =
  /** The processor wants the customer to act (3-D Secure); `action` is the processor's reference for it. */
  | { type: 'authentication-required'; action: string }
  /** The customer came back from the action: the processor is asked for its verdict. */
  | { type: 'authentication-answered' }
  | { type: 'transfer-opened'; account: string; bank: string; expiresAt: Date }
  /** Money arrived on the account but not all of it. */
  | { type: 'transfer-part-received'; receivedMinor: number; remarks: string }
  | { type: 'approved'; rawCode: string; receivedMinor?: number; excessMinor?: number; remarks?: string }
  | { type: 'declined'; code: DeclineCode; rawCode: string; reason: 'declined' | 'authentication-failed' | 'interrupted' | 'already-paid'; remarks?: string }
  | { type: 'expired'; reason: 'authentication-expired' | 'account-expired'; remarks: string }
  | { type: 'superseded' }
  | { type: 'reversed'; remarks: string };

export type PaymentEventType = PaymentEvent['type'];

type Rule = { from: readonly PaymentState[]; to: PaymentState };
const processing: PaymentState = { status: 2, stage: 'processing' };
const authentication: PaymentState = { status: 2, stage: 'authentication' };
const transfer: PaymentState = { status: 2, stage: 'transfer' };
const failed: PaymentState = { status: 4, stage: 'done' };
const successful: PaymentState = { status: 5, stage: 'done' };
const reversed: PaymentState = { status: 6, stage: 'done' };

/** A payment is born Pending in `processing` (before the processor is asked) and ends exactly once. */
export const PAYMENT_TABLE: Record<PaymentEventType, Rule> = {
  'authentication-required': { from: [processing], to: authentication },
  'authentication-answered': { from: [authentication], to: processing },
  'transfer-opened': { from: [processing], to: transfer },
  'transfer-part-received': { from: [transfer], to: transfer },
  approved: { from: [processing, transfer], to: successful },
  declined: { from: [processing], to: failed },
  expired: { from: [authentication, transfer], to: failed },
  superseded: { from: [authentication, transfer], to: failed },
  reversed: { from: [successful], to: reversed },
};

/** Every state a payment can be in, for tests that walk the whole table. */
export const PAYMENT_STATES: readonly PaymentState[] = [processing, authentication, transfer, failed, successful, reversed];

/** The columns an event changes besides status and stage. */
export type PaymentChanges = {
  responseCode?: string;
  responseMessage?: string;
  rawResponseCode?: string | null;
  reason?: EndReason | null;
  remarks?: string;
  authSession?: string | null;
  transferAccount?: string;
  transferBank?: string;
  transferExpiresAt?: Date;
  receivedMinor?: number;
  excessMinor?: number;
  confirmedAt?: Date;
};

export type TransitionConflict = {
  entity: 'payment' | 'order';
  event: string;
  /** The state the row was in; undefined when it was not found or moved on meanwhile. */
  from: PaymentState | StatusId | undefined;
};

export type Plan<S> = { ok: true; from: S; to: S; changes: PaymentChanges } | { ok: false; conflict: TransitionConflict };

const sameState = (a: PaymentState, b: PaymentState) => a.status === b.status && a.stage === b.stage;

const SUPERSEDED = 'Superseded by a new payment attempt';

function changesOf(event: PaymentEvent, now: Date): PaymentChanges {
  switch (event.type) {
    case 'authentication-required':
      return { authSession: event.action, responseCode: '02', responseMessage: RESPONSE_MESSAGES['02'] };
    case 'authentication-answered':
      return {};
    case 'transfer-opened':
      return { transferAccount: event.account, transferBank: event.bank, transferExpiresAt: event.expiresAt, responseCode: '02', responseMessage: 'Awaiting transfer' };
    case 'transfer-part-received':
      return { receivedMinor: event.receivedMinor, remarks: event.remarks };
    case 'approved':
      return {
        responseCode: '00',
        responseMessage: RESPONSE_MESSAGES['00'],
        rawResponseCode: event.rawCode,
        reason: null,
        remarks: event.remarks ?? 'Payment approved',
        confirmedAt: now,
        ...(event.receivedMinor === undefined ? {} : { receivedMinor: event.receivedMinor }),
        ...(event.excessMinor === undefined ? {} : { excessMinor: event.excessMinor }),
      };
    case 'declined': {
      const message = RESPONSE_MESSAGES[event.code];
      return { responseCode: event.code, responseMessage: message, rawResponseCode: event.rawCode, reason: event.reason, remarks: event.remarks ?? `Payment declined: ${message}` };
    }
    case 'expired':
      return event.reason === 'account-expired'
        ? { responseCode: '04', responseMessage: RESPONSE_MESSAGES['04'], reason: event.reason, remarks: event.remarks }
        : { responseCode: '05', responseMessage: AUTHENTICATION_EXPIRED_MESSAGE, reason: event.reason, remarks: event.remarks };
    case 'superseded':
      return { responseCode: '12', responseMessage: SUPERSEDED, reason: 'superseded', remarks: SUPERSEDED };
    case 'reversed':
      return { remarks: event.remarks };
  }
}

/** The response message of a 3-D Secure attempt the customer never finished in time (code 05). */
export const AUTHENTICATION_EXPIRED_MESSAGE = 'Authentication expired';

/** Where `event` takes a payment in state `from`, with its changes; a conflict when the table does not allow it. */
export function planPayment(from: PaymentState, event: PaymentEvent, now: Date): Plan<PaymentState> {
  const rule = PAYMENT_TABLE[event.type];
  if (!rule.from.some((state) => sameState(state, from))) return { ok: false, conflict: { entity: 'payment', event: event.type, from } };
  return { ok: true, from, to: rule.to, changes: changesOf(event, now) };
}

/** The events of an order. An order stays payable until it is paid: a failed attempt can be followed by another. */
export type OrderEventType = 'attempt-started' | 'attempt-failed' | 'paid' | 'reversed';

export const ORDER_TABLE: Record<OrderEventType, { from: readonly StatusId[]; to: StatusId }> = {
  'attempt-started': { from: [1, 2, 4], to: 2 },
  'attempt-failed': { from: [2], to: 4 },
  paid: { from: [2], to: 5 },
  reversed: { from: [5], to: 6 },
};

export const ORDER_STATES: readonly StatusId[] = [1, 2, 4, 5, 6];

export function planOrder(from: StatusId, event: OrderEventType): { ok: true; from: StatusId; to: StatusId } | { ok: false; conflict: TransitionConflict } {
  const rule = ORDER_TABLE[event];
  if (!rule.from.includes(from)) return { ok: false, conflict: { entity: 'order', event, from } };
  return { ok: true, from, to: rule.to };
}

/** Wrong one-time codes the sandbox issuer allows on its 3-D Secure page; the last one declines the payment. */
export const MAX_AUTH_ATTEMPTS = 3;

/** A 3-D Secure attempt the customer never finishes expires this long after it was initiated. */
export const AUTHENTICATION_EXPIRY_MS = 15 * 60_000;

/** When a 3-D Secure attempt started at `createdAt` expires. */
export const authenticationDeadline = (payment: { createdAt: Date }): Date => new Date(payment.createdAt.getTime() + AUTHENTICATION_EXPIRY_MS);

/**
 * An attempt still `processing` this long after it started is asked about again (a crash between the processor's
 * answer and its recording, or an answer that never came); the processor's record decides.
 */
export const PROCESSING_TIMEOUT_MS = 2 * 60_000;
