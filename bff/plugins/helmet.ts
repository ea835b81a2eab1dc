import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import { contentSecurityPolicy, SWAGGER_UI_STYLE_HASH } from '../security/csp.ts';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Replaces the page's Content-Security-Policy: who may frame it, where its forms may go, and the inline scripts
     * (by hash) its template runs.
     */
    pagePolicy(policy: { frameAncestors?: readonly string[]; formAction?: readonly string[]; scriptHashes?: readonly string[]; embedsFrom?: string }): FastifyReply;
  }
}

/**
 * Security headers on every response (helmet): a strict CSP with no inline script or style (but the scripts a
 * page's template names by hash) and no eval, nosniff, a referrer policy, HSTS. Framing is refused
 * (`frame-ancestors 'none'`) unless a route opens it to the merchant's allowed origins. Resources may be loaded
 * cross-origin (merchants load embed.js from us).
 */
/** The API docs UI (Swagger UI at /docs): its pages, not the OpenAPI document (/docs/json, /docs/yaml). */
function isDocsPage(url: string): boolean {
  const pathname = url.split('?')[0]!;
  return pathname === '/docs' || pathname === '/docs/' || pathname.startsWith('/docs/static/');
}

/** The two policies that do not depend on the request, built once. */
const DEFAULT_POLICY = contentSecurityPolicy({});
const DOCS_POLICY = contentSecurityPolicy({ styleHashes: [SWAGGER_UI_STYLE_HASH] });

export default fp(
  async (app) => {
    await app.register(helmet, {
      // The CSP is set below from one builder, so routes can open framing to a merchant's origins.
      contentSecurityPolicy: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginOpenerPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // CSP frame-ancestors decides framing; X-Frame-Options cannot name the merchant's origins.
      xFrameOptions: false,
    });
    app.addHook('onRequest', async (request, reply) => {
      // A policy governs a document (or a worker); the build's scripts and stylesheets are neither.
      if (request.url.startsWith('/widget/assets/') || request.url.startsWith('/dashboard/assets/')) return;
      reply.header('content-security-policy', isDocsPage(request.url) ? DOCS_POLICY : DEFAULT_POLICY);
    });
    app.decorateReply('pagePolicy', function pagePolicy(this: import('fastify').FastifyReply, policy) {
      return this.header('content-security-policy', contentSecurityPolicy(policy));
    });
  },
  { name: 'helmet' },
);
