import type { CkCheckout } from '../components/checkout.ts';

/**
 * The checkout on a payment-link page (`/l/{reference}`): the backend gives it the link's id, the customer and
 * where to send the customer after paying (the link's Website). The order reference is made here, once per
 * customer and amount in this tab, so a reload picks up the same order; after success the customer goes on to
 * the merchant's site with `reference` and `status`, as after any hosted payment.
 */
const STORAGE_PREFIX = 'ck-link:';

export function preparePaymentLink(checkout: CkCheckout, successUrl: string): void {
  const key = `${STORAGE_PREFIX}${checkout.paymentLinkId}:${customerQuery()}`;
  if (!checkout.reference) checkout.reference = remembered(key) ?? remember(key, newReference());

  checkout.addEventListener('checkout:success', (event) => {
    forget(key);
    const target = websiteUrl(successUrl);
    if (!target) return;
    target.searchParams.set('reference', event.reference ?? checkout.reference);
    target.searchParams.set('status', 'successful');
    window.location.assign(target.href);
  });
}

/** The customer's answers on this page, without the parameters the 3-D Secure return adds. */
function customerQuery(): string {
  const query = new URLSearchParams(window.location.search);
  query.delete('reference');
  query.delete('status');
  query.sort();
  return query.toString();
}

/** 24 random hex digits: unguessable enough that two customers of one link never collide. */
function newReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `LNK-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** Only web addresses: a link's Website is merchant input and must never become a script URL. */
function websiteUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function remembered(key: string): string | undefined {
  try {
    return window.sessionStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function remember(key: string, reference: string): string {
  try {
    window.sessionStorage.setItem(key, reference);
  } catch {
    // Without storage a reload starts a new order, which is still correct.
  }
  return reference;
}

function forget(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // Nothing was stored.
  }
}
