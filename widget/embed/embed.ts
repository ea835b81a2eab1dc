import { CheckoutWidgetElement } from './checkout-widget.ts';
import { PaymentCheckout } from './compat.ts';
import { openCheckout } from './open.ts';
import type { CheckoutGlobal } from './types.ts';

/**
 * embed.js: the one script a merchant's page loads (a classic script, so Subresource Integrity applies). The
 * checkout lives where this script came from, unless an `api-base` says otherwise. Loading it twice is harmless.
 */
export type * from './types.ts';
export type { CheckoutEmbedError } from './frame-session.ts';

const script = document.currentScript;
CheckoutWidgetElement.defaultApiBase = script instanceof HTMLScriptElement && script.src ? new URL(script.src).origin : window.location.origin;

if (!customElements.get('checkout-widget')) customElements.define('checkout-widget', CheckoutWidgetElement);
const checkout: CheckoutGlobal = { open: openCheckout };
window.Checkout ??= checkout;
window.CheckoutNS ??= { PaymentCheckout };
