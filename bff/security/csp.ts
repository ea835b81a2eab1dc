/**
 * The Content-Security-Policy of every page: scripts, styles, fetches and frames from our own origin only; no
 * inline script or style, no eval. Images may come from https (merchant logos and link background images).
 */
export function contentSecurityPolicy(options: { frameAncestors?: readonly string[]; formAction?: readonly string[] }): string {
  const frameAncestors = options.frameAncestors && options.frameAncestors.length > 0 ? options.frameAncestors.join(' ') : "'none'";
  const formAction = options.formAction && options.formAction.length > 0 ? options.formAction.join(' ') : "'self'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction}`,
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}
