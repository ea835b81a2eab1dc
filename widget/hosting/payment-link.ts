import type { CkCheckout } from '../components/checkout.ts';

/**
 * The checkout on a payment-link page (`/l/{reference}?order={order}`): the backend made the order when the
 * customer sent the link's form and gives the checkout its reference, the link's id and the link's Website. A
 * payment completed on this visit (back from the bank's page) sends the customer on to the Website with only
 * `reference` and `status`, as after any hosted payment. A reload or Back shows the receipt instead, so Back from
 * the Website is not sent forward again; its Done goes on to the Website, or, for a link without one, to the hosted
 * result page, which says the payment is complete and the page can be closed.
 */
export function preparePaymentLink(checkout: CkCheckout, successUrl: string): void {
  const revisited = isRevisit();
  checkout.addEventListener('checkout:success', (event) => {
    const website = websiteUrl(successUrl);
    if (website && !revisited) leave(website, event.reference ?? checkout.reference);
  });
  checkout.addEventListener('checkout:close', (event) => {
    if (event.status !== 'Successful') return;
    leave(websiteUrl(successUrl) ?? new URL('/checkout/result', window.location.origin), event.reference ?? checkout.reference);
  });
}

function leave(target: URL, reference: string): void {
  target.searchParams.set('reference', reference);
  target.searchParams.set('status', 'successful');
  window.location.assign(target.href);
}

/** Whether this page was reloaded or reached by Back or Forward, rather than opened by a link, form or redirect. */
function isRevisit(): boolean {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'reload' || navigation?.type === 'back_forward';
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
