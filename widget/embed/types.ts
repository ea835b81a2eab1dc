import type { CheckoutCloseEvent, CheckoutErrorEvent, CheckoutStatus, CheckoutSuccessEvent } from '../events.ts';
import type { CheckoutWidgetElement } from './checkout-widget.ts';
import type { PaymentCheckout } from './compat.ts';
import type { OrderItem } from './protocol.ts';

/**
 * The public types of the embed script (`embed.js`): the `<checkout-widget>` element, `window.Checkout` and the
 * compatibility global `window.CheckoutNS`. The `checkout:*` events are declared in `../events.ts`
 * (GlobalEventHandlersEventMap), so `addEventListener('checkout:success', ...)` is typed on any element.
 */
export type { CheckoutStatus, OrderItem };
export type CheckoutMode = 'inline' | 'modal';
/** `light` by default, whatever the customer's system prefers; `auto` follows it. */
export type CheckoutTheme = 'light' | 'dark' | 'auto';
/** Font stacks of fonts already on the customer's device; nothing is downloaded. */
export type CheckoutFont = 'system' | 'humanist' | 'geometric' | 'rounded' | 'serif';
export type CheckoutDensity = 'comfortable' | 'compact';

/** What `Checkout.open` takes: the order, the customer, and callbacks. */
export interface CheckoutOptions {
  /** Publishable key (`pk_test_…` or `pk_live_…`). */
  apiKey: string;
  /** Your order reference (letters, digits, `. _ ~ : -`); one is made when absent and given back in the result. */
  reference?: string;
  /**
   * In major units, never minor: `5000` with `NGN` is NGN 5,000.00 (not 50.00 in kobo), `5800.5` is NGN 5,800.50.
   * Without it, the order `reference` is resumed.
   */
  amount?: number;
  /** ISO 4217; `NGN` by default. */
  currency?: string;
  description?: string;
  items?: OrderItem[];
  email?: string;
  firstName?: string;
  lastName?: string;
  mobile?: string;
  /** Two letters (`NG`). */
  country?: string;
  /** `en`, `fr`, …; the customer's browser language by default. */
  locale?: string;
  theme?: CheckoutTheme;
  /** Your brand colour, `#rrggbb` or `#rgb`: main buttons, links, selection and focus. Other values are ignored. */
  brandColor?: string;
  /** Corner radius in pixels, 0 to 24. */
  radius?: number;
  font?: CheckoutFont;
  /** `compact`: 40 px inputs and buttons (44 px by default), less space between blocks. */
  density?: CheckoutDensity;
  /** The checkout's address; by default the origin `embed.js` was loaded from. */
  apiBase?: string;
  /** The `clientToken.token` your server got when it created the order with the secret key: pays that order. */
  clientToken?: string;
  /** A customer session your server opened (`POST /checkout/customers/sessions`): saved cards, and saving one. */
  customerSession?: string;
  onSuccess?: (event: CheckoutSuccessEvent) => void;
  onError?: (event: CheckoutErrorEvent) => void;
  onClose?: (event: CheckoutCloseEvent) => void;
}

/**
 * How a modal checkout ended: `success` as soon as the order is paid (the dialog stays open on the receipt until
 * the customer closes it), `closed` when the customer closed it without paying. Verify the order on your server
 * (`POST /checkout/order/verify`) before fulfilling it.
 */
export interface CheckoutResult {
  outcome: 'success' | 'closed';
  reference: string | null;
  status: CheckoutStatus | null;
}

/** `window.Checkout`. */
export interface CheckoutGlobal {
  /** Opens the checkout in a modal dialog; rejects with a `CheckoutEmbedError` when it cannot be shown at all. */
  open(options: CheckoutOptions): Promise<CheckoutResult>;
}

/** The options of the gateway's own front-end integration, accepted as they are. */
export interface PaymentCheckoutOptions {
  apiKey: string;
  /** Accepted for compatibility and not needed: the checkout encrypts with the keys the service publishes. */
  encryptionKey?: string;
  /** In major units, never minor: `2500` with `NGN` is NGN 2,500.00. */
  amount: number | string;
  currency?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  mobile?: string;
  country?: string;
  /** The order reference, when `merchantReference` is not given. */
  reference?: string;
  /** Your order reference; wins over `reference`. */
  merchantReference?: string;
  description?: string;
  /** Once: `successful` when the order is paid, or `failed` when the customer closes after a final failure. */
  onCompleted?: (result: { status: 'successful' | 'failed'; reference: string }) => void;
  onClose?: () => void;
}

declare global {
  interface Window {
    Checkout?: CheckoutGlobal;
    CheckoutNS?: { PaymentCheckout: typeof PaymentCheckout };
  }
  interface HTMLElementTagNameMap {
    'checkout-widget': CheckoutWidgetElement;
  }
}
