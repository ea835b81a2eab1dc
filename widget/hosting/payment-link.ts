import type { CkCheckout } from '../components/checkout.ts';

/**
 * The checkout on a payment-link page (`/l/{reference}?order={order}`): the backend made the order when the
 * customer sent the link's form and gives the checkout its reference, the link's id and the link's Website. A
 * payment completed on this visit (back from the bank's page) sends the customer on to the Website with only
 * `reference` and `status`, as after any hosted payment. A reload, Back, or an order opened already paid (a new
 * tab, a bookmark) shows the receipt instead, so the customer is not sent to the Website a second time; its Done
 * goes on to the Website, or, for a link without one, to the hosted result page, which says the payment is
 * complete and the page can be closed.
 */
export function preparePaymentLink(
  checkout: CkCheckout,
  successUrl: string,
  navigate: (href: string) => void = (href) => window.location.assign(href),
): void {
  // Read before the checkout removes them: the bank's page sends the customer back with `reference` and `status`.
  const backFromBank = new URLSearchParams(window.location.search).has('status');
  let paidBefore = isRevisit();
  checkout.addEventListener('checkout:ready', (event) => {
    // Opened already paid (a new tab, a bookmark), not paid on this visit.
    if (event.status === 'Successful' && !backFromBank) paidBefore = true;
  });
  checkout.addEventListener('checkout:success', (event) => {
    const website = websiteUrl(successUrl);
    if (website && !paidBefore) leave(website, event.reference ?? checkout.reference, navigate);
  });
  checkout.addEventListener('checkout:close', (event) => {
    if (event.status !== 'Successful') return;
    leave(websiteUrl(successUrl) ?? new URL('/checkout/result', window.location.origin), event.reference ?? checkout.reference, navigate);
  });
}

function leave(target: URL, reference: string, navigate: (href: string) => void): void {
  target.searchParams.set('reference', reference);
  target.searchParams.set('status', 'successful');
  navigate(target.href);
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
