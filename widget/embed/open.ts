import type { CheckoutOptions, CheckoutResult } from './types.ts';

/** `Checkout.open(options)` option names and the `<checkout-widget>` attributes they set. */
const ATTRIBUTES: Partial<Record<keyof CheckoutOptions, string>> = {
  apiKey: 'api-key',
  apiBase: 'api-base',
  reference: 'reference',
  amount: 'amount',
  currency: 'currency',
  description: 'description',
  email: 'email',
  firstName: 'first-name',
  lastName: 'last-name',
  mobile: 'mobile',
  country: 'country',
  locale: 'locale',
  theme: 'theme',
  clientToken: 'client-token',
  customerSession: 'customer-session',
  brandColor: 'brand-color',
  radius: 'radius',
  font: 'font',
  density: 'density',
};

/**
 * `Checkout.open(options)`: a modal `<checkout-widget>` made for this call, opened at once and removed when it
 * closes. Callbacks and the promise hear the same events the element dispatches.
 */
export function openCheckout(options: CheckoutOptions): Promise<CheckoutResult> {
  const element = document.createElement('checkout-widget');
  element.setAttribute('mode', 'modal');
  const withReference = { ...options, reference: options.reference || newReference() };
  for (const [option, attribute] of Object.entries(ATTRIBUTES)) {
    const value = withReference[option as keyof CheckoutOptions];
    if (value !== undefined && value !== null && value !== '') element.setAttribute(attribute, String(value));
  }
  if (options.items) element.items = options.items;
  if (options.onSuccess) element.addEventListener('checkout:success', options.onSuccess);
  if (options.onError) element.addEventListener('checkout:error', options.onError);
  if (options.onClose) element.addEventListener('checkout:close', options.onClose);
  element.addEventListener('checkout:close', () => queueMicrotask(() => element.remove()));
  document.body.append(element);
  return element.open().catch((error: unknown) => {
    element.remove();
    throw error;
  });
}

/** A reference for callers that leave it to the checkout; it comes back in the result and the events. */
export function newReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `CK-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}
