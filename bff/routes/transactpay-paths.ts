/**
 * protocol.md 4.11: the TransactPay deployment serves the same API under its own paths. They are aliases, not
 * copies: the server rewrites each one to its `/checkout` twin before routing (`rewriteUrl` in app.ts), so both
 * families run the same route, with the same auth, idempotency scope and answers.
 */
const ALIASES: Readonly<Record<string, string>> = {
  '/payment/order/create': '/checkout/order/create',
  '/payment/order/pay': '/checkout/order/pay',
  '/payment/order/fee': '/checkout/order/fee',
  '/payment/order/status': '/checkout/order/status',
  '/payment/order/verify': '/checkout/order/verify',
  '/payment/order/refund': '/checkout/order/refund',
  '/payment/order/event/track': '/checkout/order/event/track',
  '/payment/banks': '/checkout/banks',
};

/** The URL a request is routed by: a TransactPay path becomes its `/checkout` twin, query string kept. */
export function routedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const twin = Object.hasOwn(ALIASES, path) ? ALIASES[path] : undefined;
  return twin === undefined ? url : twin + url.slice(path.length);
}
