import fp from 'fastify-plugin';
import staticFiles from '@fastify/static';
import path from 'node:path';
import { builtTemplates, WidgetPages, type TemplateSource } from '../pages/checkout-page.ts';

declare module 'fastify' {
  interface FastifyInstance {
    widgetPages: WidgetPages;
  }
}

/**
 * The built widget (dist/widget) under /widget/, with the element manifest and embed.d.ts, and the embed script
 * at /embed.js. In development Vite serves /widget/ itself and hands page templates in through `templates`.
 * Hashed assets are cached for a year; the embed script's URL is stable, so it is cached briefly. The build writes
 * brotli and gzip variants beside each text file, sent to browsers that accept them (with `Vary: Accept-Encoding`).
 */
export default fp<{ distDir: string; cachePages: boolean; templates?: TemplateSource | undefined }>(
  async (app, { distDir, cachePages, templates }) => {
    // The hashed build output: a name never changes content, so no revalidation headers ride on each of its bytes
    // (on a slow network a response's headers cost as much time as its body's).
    await app.register(staticFiles, {
      root: path.join(distDir, 'assets'),
      prefix: '/widget/assets/',
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
    // Everything else under /widget/, and the reply's sendFile (for /embed.js): addresses that stay the same, cached
    // five minutes, then revalidated.
    await app.register(staticFiles, {
      root: distDir,
      prefix: '/widget/',
      index: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        response.header('cache-control', 'public, max-age=300');
        // TypeScript declarations for merchants (embed.d.ts): text, not the MPEG stream `.ts` would map to.
        if (filePath.endsWith('.d.ts')) response.header('content-type', 'text/plain; charset=utf-8');
      },
    });
    app.get('/embed.js', { schema: { hide: true } }, async (_request, reply) =>
      reply.sendFile('embed.js', distDir),
    );
    // Where the gateway's WooCommerce plugin loads its inline script (`https://payment-web-sdk.transactpay.ai/v1/checkout`):
    // the same compatible script, so pointing the plugin here changes only the host.
    app.get('/v1/checkout', { schema: { hide: true } }, async (_request, reply) =>
      reply.sendFile('embed.js', distDir),
    );
    app.decorate('widgetPages', new WidgetPages(templates ?? builtTemplates(distDir, cachePages)));
  },
  { name: 'static' },
);
