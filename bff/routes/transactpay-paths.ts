/**
 * protocol.md 4.11: the TransactPay deployment serves the same API under its own paths. They are aliases, not
 * copies: the server rewrites each one to its `/checkout` twin before routing (`rewriteUrl` in app.ts), so both
 * families run the same route, with the same auth and idempotency scope. `/payment/order/status` is not an alias:
 * the TransactPay clients read another answer there (decisions.md, "Wire compatibility, round 3").
 */
const ALIASES: Readonly<Record<string, string>> = {
  '/payment/order/create': '/checkout/order/create',
  '/payment/order/pay': '/checkout/order/pay',
  '/payment/order/fee': '/checkout/order/fee',
  '/payment/order/verify': '/checkout/order/verify',
  '/payment/order/refund': '/checkout/order/refund',
  '/payment/order/event/track': '/checkout/order/event/track',
  '/payment/banks': '/checkout/banks',
  '/payment/order/save-card': '/checkout/order/save-card',
  '/payment/order/card/tokenized/pay': '/checkout/order/card/tokenized/pay',
  '/payment/paymentlink/info': '/checkout/paymentlink/info',
  '/payment/paymentlink/get-keys': '/checkout/paymentlink/get-keys',
};

/**
 * Which family of paths a request came in by. The aliases share a route; the few answers the TransactPay clients
 * read differently (the payment option codes, a redirect address that is never null) ask this.
 */
import type { PathFamily } from '../presenters/path-family.ts';

export type { PathFamily };

export function pathFamily(request: { originalUrl: string }): PathFamily {
  return request.originalUrl.startsWith('/payment/') ? 'transactpay' : 'checkout';
}

/** The URL a request is routed by: a TransactPay path becomes its `/checkout` twin, query string kept. */
export function routedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const twin = Object.hasOwn(ALIASES, path) ? ALIASES[path] : undefined;
  return twin === undefined ? url : twin + url.slice(path.length);
}
