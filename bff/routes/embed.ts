import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, successEnvelope } from '../../shared/envelope.ts';
import { forbidden, invalid } from '../errors.ts';
import { say } from '../pages/authentication.ts';
import { localeFrom } from '../pages/i18n.ts';
import { callerOf } from '../plugins/auth.ts';
import { isIpv6Origin, isOriginAllowed, normaliseOrigin } from '../security/origins.ts';

/**
 * Embedding: the embed script asks for a frame session from the merchant's page (the browser says which
 * origin in the Origin header), and gets a frame URL that only that origin may frame, for a few hours.
 */
const FRAME_SESSION_HOURS = 4;

export const embedSessionResponseSchema = successEnvelope(
  z.object({ frameUrl: z.string(), frameOrigin: z.string(), parentOrigin: z.string(), expiresAt: z.string() }),
).meta({ id: 'EmbedSessionResponse' });

const routes: FastifyPluginAsyncZod<{ publicBaseUrl: string }> = async (app, { publicBaseUrl }) => {
  const tokens = app.frameTokens;
  const frameOrigin = new URL(publicBaseUrl).origin;

  app.post(
    '/checkout/embed/sessions',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Open an embedding session for the page calling it',
        description: "Called by embed.js from the merchant's page. The page's origin must be one the merchant allowed (localhost too for test keys).",
        tags: ['Embedding'],
        security: [{ apiKey: [] }],
        response: { 200: embedSessionResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      // A page is public: a secret key in it (the embed's `api-key` attribute) is already exposed, and must not open a checkout.
      if (caller.kind === 'secret') {
        throw forbidden(
          'A secret key was sent from a web page. Use your publishable key (pk_…) in the embed, keep the secret key on your server, and rotate it (npm run merchant -- rotate-keys): anyone who viewed the page can read it.',
        );
      }
      const origin = request.headers.origin;
      if (!origin) throw invalid('The Origin header is required.');
      const parentOrigin = normaliseOrigin(origin);
      if (parentOrigin && isIpv6Origin(parentOrigin)) {
        const port = new URL(parentOrigin).port;
        throw forbidden(
          `The origin ${parentOrigin} cannot embed the checkout: a Content-Security-Policy cannot name an IPv6 address, so the browser would block the frame. ` +
            `Open the page at ${new URL(parentOrigin).protocol}//localhost${port ? `:${port}` : ''} instead.`,
        );
      }
      if (!parentOrigin || !isOriginAllowed(parentOrigin, caller.merchant, caller.mode)) {
        throw forbidden(`The origin ${origin.slice(0, 200)} is not allowed to embed this merchant's checkout.`);
      }
      const now = app.clock.now();
      // Whole seconds, as the token's `exp` keeps it.
      const expiresAt = Math.floor(now.getTime() / 1000) * 1000 + FRAME_SESSION_HOURS * 3_600_000;
      const token = await tokens.sign({ merchantId: caller.merchant.id, mode: caller.mode, origin: parentOrigin, expiresAt }, now);
      return {
        status: 'success' as const,
        statusCode: '00',
        message: 'Embedding session opened',
        data: { frameUrl: `${publicBaseUrl}/checkout/frame/${token}`, frameOrigin, parentOrigin, expiresAt: new Date(expiresAt).toISOString().slice(0, -1) },
      };
    },
  );

  app.get(
    '/checkout/frame/:token',
    { schema: { summary: 'The checkout app, framed by the page that opened the session (HTML)', tags: ['Embedding'], params: z.object({ token: z.string().max(2048) }) } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const claims = await tokens.verify(request.params.token, app.clock.now());
      const merchant = claims && (await app.merchants.find(claims.merchantId));
      if (!claims || !merchant || merchant.disabled) {
        return reply.code(403).send(say(locale.t.frameExpired, locale));
      }
      // Only the page that opened the session may frame the checkout, and only while the merchant still allows it.
      if (!isOriginAllowed(claims.origin, merchant, claims.mode)) {
        return reply.code(403).send(say(locale.t.frameRefused, locale));
      }
      // The merchant's public keys for the session's mode travel with the page, so the checkout's first request
      // does not wait for a round trip to GET /checkout/keys (a second on a slow mobile network).
      const keys = await app.payloadKeys.publicJwks(merchant.id, claims.mode);
      const page = await app.widgetPages.render('checkout.html', { 'parent-origin': claims.origin, embedded: true, 'encryption-keys': JSON.stringify(keys) });
      if (!page) return reply.code(503).send(say(locale.t.checkoutUnavailable, locale));
      return reply.pagePolicy({ frameAncestors: [claims.origin] }).send(page);
    },
  );
};

export default routes;
