import { createHash } from 'node:crypto';

/**
 * The one inline `<style>` element Swagger UI's bundle (@fastify/swagger-ui 5.x, served at /docs) inserts; allowed
 * by its hash on the docs pages only, so no page needs 'unsafe-inline'. A new Swagger UI with another style makes
 * the browser report the new hash, and test/e2e/security.test.ts fails until it is written here.
 */
export const SWAGGER_UI_STYLE_HASH = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

/**
 * The Content-Security-Policy of every page: scripts, styles, fetches and frames from our own origin only; no
 * inline script or style unless the page names it by its hash, no eval. Images may come from https (merchant logos
 * and link background images).
 */
export function contentSecurityPolicy(options: {
  frameAncestors?: readonly string[];
  formAction?: readonly string[];
  scriptHashes?: readonly string[];
  styleHashes?: readonly string[];
  /**
   * The checkout's origin, for a page that embeds it as a merchant's page does (the demo shop opened under another
   * name than the checkout's): its embed.js, the form posted into the frame, and the frame.
   */
  embedsFrom?: string;
}): string {
  const frameAncestors = options.frameAncestors && options.frameAncestors.length > 0 ? options.frameAncestors.join(' ') : "'none'";
  const embeds = options.embedsFrom ? [options.embedsFrom] : [];
  const formAction = options.formAction && options.formAction.length > 0 ? [...options.formAction, ...embeds].join(' ') : ["'self'", ...embeds].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...embeds, ...(options.scriptHashes ?? []).map((hash) => `'${hash}'`)].join(' '),
    ["style-src 'self'", ...(options.styleHashes ?? []).map((hash) => `'${hash}'`)].join(' '),
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    ["frame-src 'self'", ...embeds].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction}`,
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const SCRIPT_TYPE = /\btype\s*=\s*["']?([^"'\s]*)/i;
/** The `type`s of a `<script>` the browser runs (none, or empty, is JavaScript); a JSON data block is never run. */
const RUN_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);

/**
 * The hashes (`sha256-…`) of the inline scripts a page runs, each exactly as written, for its `script-src`: a page
 * of our own (the checkout page's small start-up script) is then allowed those and no other inline script.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || !RUN_TYPES.has((SCRIPT_TYPE.exec(attributes)?.[1] ?? '').toLowerCase())) continue;
    hashes.add(`sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
  }
  return [...hashes];
}

/**
 * The merchant dashboard's policy (/dashboard/): stricter than the pages', since it holds a signed-in team member's
 * session. Nothing is allowed by default; scripts, styles, fetches and images from our own origin only (images also
 * as `data:`); no inline script or style at all, no eval; no frames in it and never framed itself; forms post only
 * here. Lit's templates are the page's only HTML sink, so Trusted Types hold every other one shut (`lit-html` is
 * the policy Lit creates).
 */
export function dashboardPolicy(options: { trustedTypes?: boolean } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    // The payment-link builder previews a saved link's own hosted page (`/l/<reference>`) in a sandboxed frame.
    "frame-src 'self'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.trustedTypes === false ? [] : ["require-trusted-types-for 'script'", 'trusted-types lit-html']),
  ].join('; ');
}
