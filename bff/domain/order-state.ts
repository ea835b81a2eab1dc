/**
 * The one state machine for orders and order payments (protocol.md section 5: 1 Initiated, 2 Pending,
 * 4 Failed, 5 Successful, 6 Reversed). Repositories apply a transition as a single UPDATE guarded by the
 * states it may start from, inside one transaction, so a replayed or racing request changes nothing.
 */
export type StatusId = 1 | 2 | 4 | 5 | 6;

export const STATUS_NAMES: Record<StatusId, string> = { 1: 'Initiated', 2: 'Pending', 4: 'Failed', 5: 'Successful', 6: 'Reversed' };

export type OrderEvent = 'attempt-started' | 'attempt-pending' | 'attempt-failed' | 'paid' | 'reversed';
export type PaymentEvent =
  | 'await-authentication'
  | 'wrong-code'
  | 'answer-authentication'
  | 'await-transfer'
  | 'approve'
  | 'decline'
  | 'expire'
  | 'supersede'
  | 'reverse';

type Transition = { from: readonly StatusId[]; to: StatusId };

/** An order stays payable until it is paid: a failed attempt can be followed by another. */
export const ORDER_TRANSITIONS: Record<OrderEvent, Transition> = {
  'attempt-started': { from: [1, 2, 4], to: 2 },
  'attempt-pending': { from: [1, 2, 4], to: 2 },
  'attempt-failed': { from: [1, 2, 4], to: 4 },
  paid: { from: [1, 2, 4], to: 5 },
  reversed: { from: [5], to: 6 },
};

/** A payment is born Pending (2) and ends exactly once. */
export const PAYMENT_TRANSITIONS: Record<PaymentEvent, Transition> = {
  'await-authentication': { from: [2], to: 2 },
  /** A wrong one-time code: counted atomically; the code that uses up the last try also takes the answer. */
  'wrong-code': { from: [2], to: 2 },
  /** The customer's answer is taken (stage back to processing) by exactly one request, then settled. */
  'answer-authentication': { from: [2], to: 2 },
  'await-transfer': { from: [2], to: 2 },
  approve: { from: [2], to: 5 },
  decline: { from: [2], to: 4 },
  expire: { from: [2], to: 4 },
  supersede: { from: [2], to: 4 },
  reverse: { from: [5], to: 6 },
};

/** Wrong one-time codes allowed on the 3-D Secure page; the last one declines the payment. */
export const MAX_AUTH_ATTEMPTS = 3;

/** A 3-D Secure attempt the customer never finishes expires this long after it was initiated. */
export const AUTHENTICATION_EXPIRY_MS = 15 * 60_000;

/**
 * An attempt still `processing` this long after its last change was interrupted (crash, lost database
 * connection) between the processor's answer and its recording; timed work resolves it. A processor
 * connector must time out its own calls well within this bound.
 */
export const PROCESSING_TIMEOUT_MS = 2 * 60_000;

export const isFinal = (status: StatusId): boolean => status === 4 || status === 5 || status === 6;
