import type { Merchant, Mode } from '../domain/merchant.ts';

/**
 * Which web origins may embed a merchant's checkout: the merchant's allowed origins, and, for test keys,
 * localhost and 127.0.0.1 over http or https on any port (developers' machines). Origins compare exactly (scheme,
 * host, port). What is accepted here must be what `framingSources` can write in CSP frame-ancestors: a CSP source
 * cannot name an IPv6 literal (`[::1]`), so such origins are refused with a message rather than framed and
 * silently blocked by the browser.
 */
const LOCAL_HOSTS = ['localhost', '127.0.0.1'];

export function normaliseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** True for an origin whose host is an IPv6 literal, which no CSP source expression can name. */
export function isIpv6Origin(origin: string): boolean {
  const normalised = normaliseOrigin(origin);
  return normalised !== undefined && new URL(normalised).hostname.startsWith('[');
}

export function isOriginAllowed(origin: string, merchant: Merchant, mode: Mode): boolean {
  const normalised = normaliseOrigin(origin);
  if (!normalised || isIpv6Origin(normalised)) return false;
  if (mode === 'test' && LOCAL_HOSTS.includes(new URL(normalised).hostname)) return true;
  return merchant.allowedOrigins.some((allowed) => normaliseOrigin(allowed) === normalised);
}

/** CSP `frame-ancestors` sources for pages a merchant's checkout shows (the 3-D Secure page in the frame). */
export function framingSources(merchant: Merchant, mode: Mode): string[] {
  const sources = merchant.allowedOrigins.map(normaliseOrigin).filter((origin): origin is string => origin !== undefined && !isIpv6Origin(origin));
  if (mode === 'test') for (const host of LOCAL_HOSTS) sources.push(`http://${host}:*`, `https://${host}:*`);
  return ["'self'", ...sources];
}
