import fp from 'fastify-plugin';
import staticFiles from '@fastify/static';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '../errors.ts';
import { dashboardPolicy } from '../security/csp.ts';

/** Development: the dashboard's page from Vite's dev server (hot reload), instead of the build's. */
export type DashboardPageSource = () => Promise<string | undefined>;

/**
 * The merchant dashboard (dashboard/, built into `distDir` by `vite build`) at /dashboard/, on the API's own origin
 * so its calls carry the session cookie and no CORS is needed. Its page is never framed (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY` for browsers that predate CSP 2), runs no inline script, and is never cached: a new build
 * is seen at the next load, and a signed-out browser keeps no copy. Its hashed assets are immutable. In development
 * Vite serves the assets and hands the page in through `page`.
 */
export default fp<{ distDir: string; page?: DashboardPageSource | undefined; cachePage: boolean }>(
  async (app, { distDir, page, cachePage }) => {
    if (!page && existsSync(path.join(distDir, 'assets'))) {
      await app.register(staticFiles, {
        root: path.join(distDir, 'assets'),
        prefix: '/dashboard/assets/',
        index: false,
        wildcard: true,
        preCompressed: true,
        cacheControl: false,
        etag: false,
        lastModified: false,
        acceptRanges: false,
        decorateReply: false,
        setHeaders: (response) => response.header('cache-control', 'public, max-age=31536000, immutable'),
      });
    }
    let cached: string | undefined;
    const readBuilt = async () => {
      if (cached !== undefined) return cached;
      const html = await readFile(path.join(distDir, 'index.html'), 'utf8');
      if (cachePage) cached = html;
      return html;
    };
    const readPage = page ?? readBuilt;
    // Vite's dev client and its error overlay write HTML outside Lit: Trusted Types are enforced on the build only.
    const policy = dashboardPolicy({ trustedTypes: !page });

    app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/', 301));
    app.get('/dashboard/', { schema: { hide: true } }, async (request, reply) => {
      const html = await readPage().catch(() => undefined);
      if (html === undefined) {
        request.log.warn('the dashboard is not built: run `npm run build`');
        throw notFound('The dashboard is not built on this server: run `npm run build`.', 'route_not_found');
      }
      return reply
        .header('content-security-policy', policy)
        .header('x-frame-options', 'DENY')
        .header('cache-control', 'no-store')
        .header('cross-origin-opener-policy', 'same-origin')
        .header('referrer-policy', 'same-origin')
        .header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), publickey-credentials-get=(self), publickey-credentials-create=(self)')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  },
  { name: 'dashboard', dependencies: ['helmet'] },
);
