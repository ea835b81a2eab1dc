import type { CkCheckout } from '../components/checkout.ts';

/**
 * The checkout on a payment-link page (`/l/{reference}`): the backend gives it the link's id, the customer (from
 * the form's posted body, never the address) and where to send the customer after paying (the link's Website).
 * The order reference is made here, once per customer and amount in this tab, so posting the same details again
 * picks up the same order; back from 3-D Secure the page gets the order's reference instead. After success the
 * customer goes on to the merchant's site with only `reference` and `status`, as after any hosted payment.
 */
const STORAGE_PREFIX = 'ck-link:';

export function preparePaymentLink(checkout: CkCheckout, successUrl: string): void {
  const linkPrefix = `${STORAGE_PREFIX}${checkout.paymentLinkId}:`;
  if (!checkout.reference) {
    const key = `${linkPrefix}${customerKey(checkout)}`;
    checkout.reference = remembered(key) ?? remember(key, newReference());
  }

  checkout.addEventListener('checkout:success', (event) => {
    forget(linkPrefix, event.reference ?? checkout.reference);
    const target = websiteUrl(successUrl);
    if (!target) return;
    target.searchParams.set('reference', event.reference ?? checkout.reference);
    target.searchParams.set('status', 'successful');
    window.location.assign(target.href);
  });
}

/** The customer's answers, as the backend gave them to the checkout. */
function customerKey(checkout: CkCheckout): string {
  const names = ['amount', 'customer-first-name', 'customer-last-name', 'customer-email', 'customer-mobile'];
  return JSON.stringify(names.map((name) => checkout.getAttribute(name) ?? ''));
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

/** The paid order is no longer one to resume: whichever customer entry of this link kept it goes. */
function forget(linkPrefix: string, reference: string): void {
  try {
    for (const key of Object.keys(window.sessionStorage)) {
      if (key.startsWith(linkPrefix) && window.sessionStorage.getItem(key) === reference) window.sessionStorage.removeItem(key);
    }
  } catch {
    // Nothing was stored.
  }
}
