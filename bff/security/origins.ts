import type { Merchant, Mode } from '../domain/merchant.ts';

/**
 * Which web origins may embed a merchant's checkout: the merchant's allowed origins, and, for test keys,
 * localhost and 127.0.0.1 on any port (developers' machines). Origins compare exactly (scheme, host, port).
 */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function normaliseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export function isOriginAllowed(origin: string, merchant: Merchant, mode: Mode): boolean {
  const normalised = normaliseOrigin(origin);
  if (!normalised) return false;
  if (mode === 'test' && LOCAL_HOSTS.has(new URL(normalised).hostname)) return true;
  return merchant.allowedOrigins.some((allowed) => normaliseOrigin(allowed) === normalised);
}

/** CSP `frame-ancestors` sources for pages a merchant's checkout shows (the 3-D Secure page in the frame). */
export function framingSources(merchant: Merchant, mode: Mode): string[] {
  const sources = merchant.allowedOrigins.map(normaliseOrigin).filter((origin): origin is string => Boolean(origin));
  if (mode === 'test') sources.push('http://localhost:*', 'http://127.0.0.1:*', 'https://localhost:*');
  return ["'self'", ...sources];
}
