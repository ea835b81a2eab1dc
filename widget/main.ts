import './components/checkout.ts';
import { preparePaymentLink } from './hosting/payment-link.ts';

/**
 * Entry of the checkout page (widget/checkout.html). The page that serves it puts the checkout's settings in a
 * JSON data block (allowed under a strict CSP: it is never executed); each key is an attribute of <ck-checkout>.
 * Framed by a merchant's page (`embedded`), the rest of the settings come from that page by postMessage; on a
 * payment-link page (`payment-link-id`), the server has made the order, and the page sends the customer on after paying.
 */
const checkout = document.querySelector('ck-checkout');
// This page is the checkout's own: its language and title follow the checkout's locale.
if (checkout) checkout.ownsDocument = true;
const block = document.getElementById('checkout-config');
if (checkout && block?.textContent) {
  let config: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(block.textContent);
    if (parsed && typeof parsed === 'object') config = parsed as Record<string, unknown>;
  } catch {
    // A malformed block leaves the checkout unconfigured; it then says so in its error state.
  }
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === 'string' || typeof value === 'number') checkout.setAttribute(name, String(value));
    else if (value === true) checkout.setAttribute(name, '');
    else if (Array.isArray(value)) checkout.setAttribute(name, JSON.stringify(value));
  }
  if (config['payment-link-id'] !== undefined) preparePaymentLink(checkout, String(config['success-url'] ?? ''));
  if (config['embedded'] === true) {
    const parentOrigin = String(config['parent-origin'] ?? '');
    void import('./hosting/frame-bridge.ts').then(({ connectToParent }) => connectToParent(checkout, parentOrigin));
  }
}
