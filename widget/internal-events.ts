import type { FeeQuote } from './api/wire.ts';
import type { PaymentOutcome } from './flow/outcome.ts';

/**
 * Events between components inside the checkout. They bubble to the shell but are not composed, so they never
 * leave its shadow root: the host page only sees the public `checkout:*` events of events.ts.
 */
abstract class InternalEvent extends Event {
  constructor(type: string) {
    super(type, { bubbles: true, composed: false });
  }
}

export class OptionSelectEvent extends InternalEvent {
  static readonly eventName = 'ck-option-select' as const;
  constructor(readonly code: string) {
    super(OptionSelectEvent.eventName);
  }
}

export class FeeQuotedEvent extends InternalEvent {
  static readonly eventName = 'ck-fee-quoted' as const;
  constructor(readonly quote: FeeQuote) {
    super(FeeQuotedEvent.eventName);
  }
}

export class SavedCardSelectEvent extends InternalEvent {
  static readonly eventName = 'ck-saved-card-select' as const;
  /** `null` means "use a new card". */
  constructor(readonly token: string | null) {
    super(SavedCardSelectEvent.eventName);
  }
}

/**
 * What a payment attempt came to; card data stays in the card form. The name on the card comes along (it is not
 * card data on its own), so "Try again" after a decline does not make the customer type it again.
 */
export class PaymentOutcomeEvent extends InternalEvent {
  static readonly eventName = 'ck-payment-outcome' as const;
  constructor(
    readonly outcome: PaymentOutcome,
    readonly holderName = '',
  ) {
    super(PaymentOutcomeEvent.eventName);
  }
}

export class TransferSentEvent extends InternalEvent {
  static readonly eventName = 'ck-transfer-sent' as const;
  constructor() {
    super(TransferSentEvent.eventName);
  }
}

export class TransferExpiredEvent extends InternalEvent {
  static readonly eventName = 'ck-transfer-expired' as const;
  constructor() {
    super(TransferExpiredEvent.eventName);
  }
}

/** The customer's details the checkout asks for when the merchant did not give them (names as the order API spells them). */
export type CustomerField = 'firstname' | 'lastname' | 'email' | 'mobile';
export type CustomerDetails = Partial<Record<CustomerField, string>>;

export class CustomerDetailsEvent extends InternalEvent {
  static readonly eventName = 'ck-customer-details' as const;
  constructor(readonly details: CustomerDetails) {
    super(CustomerDetailsEvent.eventName);
  }
}

/** The customer pressed the header's close button. */
export class CloseRequestEvent extends InternalEvent {
  static readonly eventName = 'ck-close-request' as const;
  constructor() {
    super(CloseRequestEvent.eventName);
  }
}

declare global {
  interface HTMLElementEventMap {
    'ck-option-select': OptionSelectEvent;
    'ck-fee-quoted': FeeQuotedEvent;
    'ck-saved-card-select': SavedCardSelectEvent;
    'ck-payment-outcome': PaymentOutcomeEvent;
    'ck-transfer-sent': TransferSentEvent;
    'ck-transfer-expired': TransferExpiredEvent;
    'ck-close-request': CloseRequestEvent;
    'ck-customer-details': CustomerDetailsEvent;
  }
}
