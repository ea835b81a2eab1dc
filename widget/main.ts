import './components/checkout.ts';
import { provideFirstOrder } from './flow/first-state.ts';
import { preparePaymentLink } from './hosting/payment-link.ts';

/**
 * Entry of the checkout page (widget/checkout.html). The page that serves it puts the checkout's settings in a
 * JSON data block (allowed under a strict CSP: it is never executed); each key is an attribute of <ck-checkout>,
 * except `order`, the order the server already made (the first screen then needs no request), and `frame-session`.
 * Framed by a merchant's page (`embedded`), the settings came in the frame's own request, and later changes come
 * from that page by postMessage; on a payment-link page (`payment-link-id`), the page sends the customer on after paying.
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
  const { order, 'frame-session': session, embedded, ...attributes } = config;
  if (order !== undefined) provideFirstOrder(order);
  const configure = () => {
    for (const [name, value] of Object.entries(attributes)) {
      if (typeof value === 'string' || typeof value === 'number') checkout.setAttribute(name, String(value));
      else if (value === true) checkout.setAttribute(name, '');
      else if (Array.isArray(value)) checkout.setAttribute(name, JSON.stringify(value));
    }
  };
  if (config['payment-link-id'] !== undefined) preparePaymentLink(checkout, String(config['success-url'] ?? ''));
  if (embedded === true) {
    const parentOrigin = String(config['parent-origin'] ?? '');
    // Posted into the frame, the page takes its session's address, which a reload and the return from 3-D Secure
    // load again (GET), and which the order names as its return address.
    if (typeof session === 'string' && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(session)) window.history.replaceState(window.history.state, '', `/checkout/frame/${session}`);
    // Until the settings apply, the checkout waits rather than saying they are missing; opened on its own (not
    // framed), the bridge says so and the checkout shows what it has.
    checkout.embedded = true;
    // The settings apply once the parent listens (the bridge is preloaded with the page), so it hears `checkout:ready`.
    void import('./hosting/frame-bridge.ts').then(({ connectToParent }) => {
      connectToParent(checkout, parentOrigin);
      configure();
    });
  } else {
    configure();
  }
}
