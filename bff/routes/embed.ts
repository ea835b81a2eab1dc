import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { frameFormSchema, frameSettingsSchema, FRAME_FORM_FIELDS, type FrameSettings } from '../../shared/embed.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../shared/envelope.ts';
import { createOrderPlainSchema } from '../../shared/orders.ts';
import type { CreateOrderData } from '../../shared/orders.ts';
import type { Caller } from '../domain/merchant.ts';
import { forbidden, invalid, isAppError, rateLimited } from '../errors.ts';
import { refusalPage, say } from '../pages/authentication.ts';
import { localeFrom } from '../pages/i18n.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentCreatedOrder } from '../presenters/orders.ts';
import { isIpv6Origin, isOriginAllowed, normaliseOrigin } from '../security/origins.ts';
import { acceptHtmlForms } from './html-forms.ts';

/**
 * Embedding. embed.js posts a form into its iframe (`POST /checkout/frame`): the frame's own request checks the key
 * and the page's origin, opens the frame session, creates (or finds) the order and answers with the checkout and its
 * first state, framable by that origin only. The frame's address then becomes the session's (`GET
 * /checkout/frame/{token}`), which a reload or the return from 3-D Secure loads. `POST /checkout/embed/sessions`
 * opens a session alone, for clients that frame the checkout by its address.
 */
const FRAME_SESSION_HOURS = 4;

export const embedSessionResponseSchema = successEnvelope(
  z.object({ frameUrl: z.string(), frameOrigin: z.string(), parentOrigin: z.string(), expiresAt: z.string() }),
).meta({ id: 'EmbedSessionResponse' });

/** Line items (at most 100) and the settings travel in the form: more than the pages' 4 KiB. */
const FRAME_FORM_BYTES = 64 * 1024;

const SECRET_KEY_IN_PAGE =
  'A secret key was sent from a web page. Use your publishable key (pk_…) in the embed, keep the secret key on your server, and rotate it (npm run merchant -- rotate-keys): anyone who viewed the page can read it.';

const ipv6Refusal = (parentOrigin: string) => {
  const port = new URL(parentOrigin).port;
  return (
    `The origin ${parentOrigin} cannot embed the checkout: a Content-Security-Policy cannot name an IPv6 address, so the browser would block the frame. ` +
    `Open the page at ${new URL(parentOrigin).protocol}//localhost${port ? `:${port}` : ''} instead.`
  );
};

/** The settings as `<ck-checkout>` attributes (the page's JSON data block), the key being the one checked. */
function settingsConfig(settings: FrameSettings, apiKey: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) if (value !== undefined && value !== '') config[name] = value;
  config['api-key'] = apiKey;
  return config;
}

const routes: FastifyPluginAsyncZod<{ publicBaseUrl: string }> = async (app, { publicBaseUrl }) => {
  const tokens = app.frameTokens;
  const frameOrigin = new URL(publicBaseUrl).origin;
  acceptHtmlForms(app, FRAME_FORM_BYTES);

  /** A frame session for `origin` and its address; `expiresAt` in whole seconds, as the token's `exp` keeps it. */
  const openSession = async (caller: Caller, origin: string) => {
    const now = app.clock.now();
    const expiresAt = Math.floor(now.getTime() / 1000) * 1000 + FRAME_SESSION_HOURS * 3_600_000;
    const token = await tokens.sign({ merchantId: caller.merchant.id, mode: caller.mode, origin, expiresAt }, now);
    return { token, frameUrl: `${publicBaseUrl}/checkout/frame/${token}`, expiresAt };
  };

  /**
   * The order the checkout would create first, made now so the page carries it: the same create the API runs,
   * idempotent on the reference (a reload finds the order it made). Only for settings that name a whole order;
   * otherwise, or when the create is refused, the checkout asks itself and shows the answer as it always does.
   */
  const firstOrder = async (caller: Caller, settings: FrameSettings, frameUrl: string): Promise<CreateOrderData | undefined> => {
    if (!settings.reference || settings.amount === undefined || settings['client-token'] || settings['customer-session']) return undefined;
    const given = (value: string | undefined) => (value?.trim() ? value : undefined);
    // The checkout asks the customer for missing names or e-mail before creating: nothing to make yet.
    if (!given(settings['customer-first-name']) || !given(settings['customer-last-name']) || !given(settings['customer-email'])) return undefined;
    const plain = createOrderPlainSchema.safeParse({
      customer: {
        firstname: settings['customer-first-name'],
        lastname: settings['customer-last-name'],
        mobile: given(settings['customer-mobile']),
        country: given(settings['customer-country']),
        email: settings['customer-email'],
      },
      order: {
        amount: settings.amount,
        reference: settings.reference,
        description: given(settings.description),
        currency: given(settings.currency) ?? 'NGN',
        items: settings.items?.length ? settings.items : undefined,
      },
      payment: { RedirectUrl: frameUrl },
    });
    if (!plain.success) return undefined;
    try {
      return presentCreatedOrder(await app.orders.create(caller, plain.data));
    } catch (error) {
      if (!isAppError(error)) throw error;
      return undefined;
    }
  };

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
        throw forbidden(SECRET_KEY_IN_PAGE);
      }
      const origin = request.headers.origin;
      if (!origin) throw invalid('The Origin header is required.');
      const parentOrigin = normaliseOrigin(origin);
      if (parentOrigin && isIpv6Origin(parentOrigin)) throw forbidden(ipv6Refusal(parentOrigin));
      if (!parentOrigin || !isOriginAllowed(parentOrigin, caller.merchant, caller.mode)) {
        throw forbidden(`The origin ${origin.slice(0, 200)} is not allowed to embed this merchant's checkout.`);
      }
      const { frameUrl, expiresAt } = await openSession(caller, parentOrigin);
      return {
        status: 'success' as const,
        statusCode: '00',
        message: 'Embedding session opened',
        data: { frameUrl, frameOrigin, parentOrigin, expiresAt: new Date(expiresAt).toISOString().slice(0, -1) },
      };
    },
  );

  app.post(
    '/checkout/frame',
    {
      schema: {
        summary: "The checkout app with its first state, posted into its frame by embed.js from the merchant's page (HTML)",
        description:
          "A url-encoded form: `api-key` (publishable), `parent-origin` (the page's origin, which the browser's Origin header must not contradict and the merchant must allow), `settings` (the checkout's settings as JSON) and `modal`. The answer may be framed by that origin only; a refusal is a page that tells the frame's parent why (the envelope's code and message).",
        tags: ['Embedding'],
        body: frameFormSchema,
      },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const form = request.validationError ? undefined : request.body;
      // The page names its origin; the browser's Origin header (absent or `null` under some referrer policies)
      // may not contradict it, and frame-ancestors makes it the origin that really frames the answer.
      const claimed = normaliseOrigin(form?.[FRAME_FORM_FIELDS.parentOrigin] ?? '');
      const sent = request.headers.origin;
      const agrees = sent === undefined || sent === 'null' || normaliseOrigin(sent) === claimed;
      const parentOrigin = claimed && agrees && !isIpv6Origin(claimed) ? claimed : undefined;
      // A refusal is only a message: framable by the page that asked, so its embed can tell the merchant why.
      const refuse = (status: number, code: string, message: string) =>
        reply
          .code(status)
          .pagePolicy({ frameAncestors: parentOrigin ? [parentOrigin] : [] })
          .send(refusalPage(locale, { code, message }, parentOrigin));

      if (!form) return refuse(400, 'VAL400', 'The checkout form is not valid.');
      // The form opens a frame: a browser that says where the answer goes (Fetch Metadata) must say a frame, so no
      // page can open a checkout with settings of its choosing as a page of the checkout's own origin.
      const destination = request.headers['sec-fetch-dest'];
      if (destination !== undefined && destination !== 'iframe' && destination !== 'frame') {
        return refuse(400, 'VAL400', 'The checkout form opens the checkout in a frame of the page that posts it.');
      }
      const key = form[FRAME_FORM_FIELDS.apiKey].trim();
      if (!key) return refuse(401, 'AUTH401', 'The api-key attribute is missing.');
      // The key's own limit, as for an API request carrying it in its header.
      const retryAfter = await app.limitApiKey(request, key);
      if (retryAfter !== undefined) {
        reply.header('retry-after', String(retryAfter));
        return refuse(429, 'RATE429', rateLimited(retryAfter).message);
      }
      const caller = await app.merchants.authenticate(key);
      if (!caller) return refuse(401, 'AUTH401', 'The api-key is not valid.');
      if (caller.merchant.disabled) return refuse(403, 'AUTH403', 'This merchant account is disabled.');
      if (caller.kind === 'secret') return refuse(403, 'AUTH403', SECRET_KEY_IN_PAGE);
      if (claimed && isIpv6Origin(claimed)) return refuse(403, 'AUTH403', ipv6Refusal(claimed));
      if (!parentOrigin || !isOriginAllowed(parentOrigin, caller.merchant, caller.mode)) {
        return refuse(403, 'AUTH403', `The origin ${(sent ?? form[FRAME_FORM_FIELDS.parentOrigin]).slice(0, 200)} is not allowed to embed this merchant's checkout.`);
      }

      const { token, frameUrl } = await openSession(caller, parentOrigin);
      const parsed = frameSettingsSchema.safeParse(parseJson(form[FRAME_FORM_FIELDS.settings]));
      const settings = parsed.success ? parsed.data : {};
      const [order, keys] = await Promise.all([firstOrder(caller, settings, frameUrl), app.payloadKeys.publicJwks(caller.merchant.id, caller.mode)]);
      const page = await app.widgetPages.render('checkout.html', {
        ...settingsConfig(settings, key),
        'parent-origin': parentOrigin,
        embedded: true,
        closable: form[FRAME_FORM_FIELDS.modal] === 'true',
        'frame-session': token,
        'encryption-keys': JSON.stringify(keys),
        ...(order ? { order } : {}),
      });
      if (!page) return reply.code(503).send(say(locale.t.checkoutUnavailable, locale));
      return reply.pagePolicy({ frameAncestors: [parentOrigin], scriptHashes: page.scriptHashes }).send(page.html);
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
      return reply.pagePolicy({ frameAncestors: [claims.origin], scriptHashes: page.scriptHashes }).send(page.html);
    },
  );
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export default routes;
