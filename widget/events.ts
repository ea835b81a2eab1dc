import type { ORDER_STATUS } from '../shared/orders.ts';
import type { ApiErrorCode } from './api/client.ts';

/** An order's status by name (protocol.md section 5). */
export type CheckoutStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** The status names of protocol.md section 5, checked against shared/orders.ts without importing zod at run time. */
export const STATUS_NAMES: typeof ORDER_STATUS = { 1: 'Initiated', 2: 'Pending', 4: 'Failed', 5: 'Successful', 6: 'Reversed' };

export interface CheckoutEventInit {
  reference: string | null;
  status: CheckoutStatus | null;
}

/**
 * The events a host page can listen to. They bubble and are composed, so a listener on `<checkout-widget>` or any
 * of its ancestors hears them. They carry the order reference and status, never card data.
 */
abstract class CheckoutEvent extends Event {
  readonly reference: string | null;
  readonly status: CheckoutStatus | null;

  constructor(type: string, init: CheckoutEventInit) {
    super(type, { bubbles: true, composed: true });
    this.reference = init.reference;
    this.status = init.status;
  }
}

/** The order exists and the customer can pay. */
export class CheckoutReadyEvent extends CheckoutEvent {
  static readonly eventName = 'checkout:ready' as const;
  constructor(init: CheckoutEventInit) {
    super(CheckoutReadyEvent.eventName, init);
  }
}

/** A payment is under way but not final: 3-D Secure started, or a transfer is awaited. */
export class CheckoutPendingEvent extends CheckoutEvent {
  static readonly eventName = 'checkout:pending' as const;
  constructor(
    init: CheckoutEventInit,
    readonly method: 'card' | 'bank-transfer',
  ) {
    super(CheckoutPendingEvent.eventName, init);
  }
}

/** The order is paid (status 5). Verify it on your server before fulfilling. */
export class CheckoutSuccessEvent extends CheckoutEvent {
  static readonly eventName = 'checkout:success' as const;
  constructor(init: CheckoutEventInit) {
    super(CheckoutSuccessEvent.eventName, init);
  }
}

/**
 * Something stopped the payment: a decline (`code` is the ISO 8583 response code), an expired transfer account
 * (`04`), or an error talking to the service (`code` is an envelope code such as `AUTH401`, or `NETWORK`).
 */
export class CheckoutErrorEvent extends CheckoutEvent {
  static readonly eventName = 'checkout:error' as const;
  constructor(
    init: CheckoutEventInit,
    readonly code: ApiErrorCode | string,
    readonly message: string,
  ) {
    super(CheckoutErrorEvent.eventName, init);
  }
}

/** The customer asked to close the checkout (close button, or Done after paying). */
export class CheckoutCloseEvent extends CheckoutEvent {
  static readonly eventName = 'checkout:close' as const;
  constructor(init: CheckoutEventInit) {
    super(CheckoutCloseEvent.eventName, init);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'checkout:ready': CheckoutReadyEvent;
    'checkout:pending': CheckoutPendingEvent;
    'checkout:success': CheckoutSuccessEvent;
    'checkout:error': CheckoutErrorEvent;
    'checkout:close': CheckoutCloseEvent;
  }
}
