import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { pageTokensCss } from '../../shared/design-tokens.ts';
import { z } from 'zod';
import { maximumAmountMinor, toMajorUnits, toMinorUnits } from '../../shared/money.ts';
import { createOrderPlainSchema, type CreateOrderPlain } from '../../shared/orders.ts';
import { isAppError } from '../errors.ts';
import { messagePage, say } from '../pages/authentication.ts';
import { FAVICON_PATH } from '../pages/html.ts';
import { localeFrom, type PageLocale } from '../pages/i18n.ts';
import { linkFormPage, linkHeader, type LinkFormErrors, type LinkFormValues, type PlanView } from '../pages/link-page.ts';
import { describePlan, nextChargeAt } from '../../shared/plan.ts';
import { linkAvailability, linkPlan, type StoredLink } from '../domain/links.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { Order } from '../domain/order.ts';
import { presentCreatedOrder } from '../presenters/orders.ts';
import { acceptHtmlForms } from './html-forms.ts';

/**
 * A text file of the hosted pages, compressed once when the server starts (brotli at its best, gzip at level 9), as
 * the widget's files are when it is built: a phone on a slow network waits for every byte of a stylesheet before it
 * draws the page. Served in the encoding the browser asks for, or as it is.
 */
function textAsset(type: string, text: string): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const identity = Buffer.from(text, 'utf8');
  const encoded = {
    br: brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
  return (request, reply) => {
    reply.type(type).header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    return encoding ? reply.header('content-encoding', encoding).send(encoded[encoding]) : reply.send(identity);
  };
}

// The design tokens' variables first (shared/design-tokens.ts, the widget's own), then the pages' rules that use them.
const pagesCss = textAsset('text/css; charset=utf-8', `${pageTokensCss()}\n${readFileSync(fileURLToPath(new URL('../pages/pages.css', import.meta.url)), 'utf8')}`);
const pagesJs = textAsset('text/javascript; charset=utf-8', readFileSync(fileURLToPath(new URL('../pages/pages.js', import.meta.url)), 'utf8'));
const favicon = readFileSync(fileURLToPath(new URL('../pages/favicon.svg', import.meta.url)), 'utf8');

/**
 * The customer's answers come in the form's body, never in the address (history, logs, Referer). `order` is the
 * reference the form page made for the order it starts, so the same form sent twice finds the same order.
 */
const linkForm = z.object({
  firstname: z.string().max(100).default(''),
  lastname: z.string().max(100).default(''),
  email: z.string().max(200).default(''),
  mobile: z.string().max(20).default(''),
  amount: z.string().max(20).default(''),
  order: z.string().max(64).default(''),
});

/**
 * The link's address names the customer's order (`order`) once the form has made it, and nothing about the
 * customer: a reload or Back shows that order as it is now. `reference` and `status` are what the 3-D Secure page
 * adds on the way back; the checkout removes them, which leaves `order`.
 */
const linkQuery = z.object({
  order: z.string().max(64).optional(),
  reference: z.string().max(64).optional(),
  status: z.string().max(20).optional(),
  invalid: z.string().max(64).optional(),
});

/**
 * The form's fields the server refused, named in the form's address (`invalid=email,amount`) by the redirect that
 * answers such a post: their names only, never what the customer typed.
 */
const FORM_FIELDS = ['amount', 'firstname', 'lastname', 'email', 'mobile'] as const satisfies readonly (keyof LinkFormValues)[];
const fieldsNamed = (list: string): (keyof LinkFormValues)[] => FORM_FIELDS.filter((name) => list.split(',').includes(name));

/** Payment-link order references: `LNK-` and 96 random bits, unguessable, so an order's address is its own. */
const LINK_ORDER = /^LNK-[0-9A-F]{24}$/;
const newOrderReference = () => `LNK-${randomBytes(12).toString('hex').toUpperCase()}`;

/**
 * An amount as the customer types it: `5,000.50` in English, `5 000,50` in French (commas group thousands in one,
 * mark decimals in the other); a point always marks decimals.
 */
function parseAmount(text: string, locale: PageLocale): number | undefined {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const plain = locale.language === 'fr' ? compact.replace(',', '.') : compact.replace(/,/g, '');
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : undefined;
}

/** Orders keep a description of at most 500 characters; a link's may be longer. */
const orderDescription = (description: string) => (description.length <= 500 ? description : `${description.slice(0, 499)}…`);

/** Pages for people: the payment-link page a customer opens, and the hosted pages' stylesheet. */
const routes: FastifyPluginAsyncZod<{ publicBaseUrl: string; demoPage: boolean }> = async (app, { publicBaseUrl, demoPage }) => {
  app.get('/assets/pages.css', { schema: { hide: true } }, async (request, reply) => pagesCss(request, reply));
  app.get('/assets/pages.js', { schema: { hide: true } }, async (request, reply) => pagesJs(request, reply));
  // The icon every page names (`<link rel="icon">`), also where browsers look for one by default.
  for (const url of [FAVICON_PATH, '/favicon.ico']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(favicon),
    );
  }

  // The demo merchant page publishes the sandbox merchant's test key and makes orders on it: a development aid,
  // off in production unless the operator asks for it (CHECKOUT_DEMO_PAGE=1).
  if (demoPage) app.get('/demo', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/demo/', 301));
  if (demoPage) app.get(
    '/demo/',
    { schema: { summary: 'Demo merchant page wired to the sandbox merchant (HTML)', tags: ['Pages'] } },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const apiKey = await app.merchants.sandboxPublishableKey();
      if (!apiKey) return reply.code(404).send(messagePage('No sandbox merchant', 'Create a merchant with test keys: npm run merchant -- create ...'));
      const demo = await app.widgetPages.render('demo/index.html', { 'api-key': apiKey, 'api-base': publicBaseUrl });
      if (!demo) return reply.code(503).send(messagePage('Demo unavailable', 'The widget has not been built. Run npm run build.'));
      // The shop loads embed.js from the checkout's public address, as a merchant's page does: opened under another
      // name (http://127.0.0.1:port/demo/ when the checkout is http://localhost:port), it embeds the checkout from
      // another site, which is how every merchant embeds it (and how the end-to-end tests run).
      const checkout = new URL(publicBaseUrl).origin;
      const html = demo.html.replace(/(<script\b[^>]*\bsrc=")\/embed\.js"/, (_match, start: string) => `${start}${checkout}/embed.js"`);
      return reply.pagePolicy({ scriptHashes: demo.scriptHashes, embedsFrom: checkout }).send(html);
    },
  );

  // The link form is a plain HTML form, no script.
  acceptHtmlForms(app);

  /** The link and its merchant, or the page that says why the link cannot take a payment now. */
  const openLink = async (reference: string, reply: FastifyReply, locale: PageLocale) => {
    const link = await app.links.findByReference(reference);
    const merchant = link && (await app.merchants.find(link.merchantId));
    if (!link || !merchant) {
      reply.code(404).send(say(locale.t.linkNotFound, locale));
      return undefined;
    }
    return { link, merchant };
  };
  const refusal = (link: StoredLink, merchant: Merchant, locale: PageLocale): { status: number; page: string } | undefined => {
    switch (linkAvailability(link, merchant)) {
      case 'inactive':
        return { status: 410, page: say(locale.t.linkInactive(merchant.name, merchant.supportEmail), locale, undefined, undefined, merchant) };
      case 'used_up':
        return { status: 410, page: say(locale.t.linkUsedUp(merchant.name), locale, undefined, undefined, merchant) };
      case 'open':
        return undefined;
    }
  };
  /** The address of a customer's order of this link: it names the order, never the customer. */
  const orderAddress = (link: StoredLink, reference: string) => `/l/${link.reference}?order=${encodeURIComponent(reference)}`;

  /**
   * The checkout for an order of this link. While the link takes payments the checkout gets the order's details
   * (in the page, not the address) and asks for the order, which the API answers as it is now: a new tab can pay
   * it, a paid one shows its receipt. Once the link is used up only the order's reference is given: the checkout
   * shows where that order is. 3-D Secure returns to the order's own address.
   */
  const checkoutPage = async (link: StoredLink, merchant: Merchant, reply: FastifyReply, order: Order, payable: boolean, locale: PageLocale) => {
    const publishableKey = await app.merchants.publishableKey(merchant.id, link.mode);
    const details = payable
      ? {
          amount: toMajorUnits(order.amountMinor, order.currency),
          'customer-first-name': order.customer.firstName,
          'customer-last-name': order.customer.lastName,
          'customer-email': order.customer.email ?? '',
          'customer-mobile': order.customer.mobile ?? '',
        }
      : {};
    const checkout = await app.widgetPages.render(
      'checkout.html',
      {
        'api-key': publishableKey ?? '',
        currency: order.currency,
        description: order.description ?? '',
        reference: order.reference,
        ...details,
        'payment-link-id': link.id,
        'redirect-url': `${publicBaseUrl}${orderAddress(link, order.reference)}`,
        'success-url': link.website ?? '',
        // The merchant's public keys, and the order as the checkout's create would get it back: its first screen
        // and its first encrypted request ask the API for nothing first.
        'encryption-keys': JSON.stringify(await app.payloadKeys.publicJwks(merchant.id, link.mode)),
        ...(payable ? { order: presentCreatedOrder({ order, merchant, link, savedCards: [], canSaveCard: false, clientToken: undefined }) } : {}),
      },
      linkHeader(link, merchant, locale, await orderPlan(order, locale)),
    );
    if (!checkout) return reply.code(503).send(say(locale.t.checkoutUnavailable, locale));
    return reply.pagePolicy({ formAction: ["'self'"], scriptHashes: checkout.scriptHashes }).send(checkout.html);
  };

  /** What a customer is about to subscribe to on a SUB link: the next charge is a period after today's. */
  const offeredPlan = (link: StoredLink, locale: PageLocale, amountMinor: number | null): PlanView | undefined => {
    const plan = linkPlan(link);
    if (!plan) return undefined;
    const amount = amountMinor === null ? '' : locale.money(amountMinor, link.currency);
    return { words: describePlan({ amount, ...plan, next: nextChargeAt(plan.frequencyId, app.clock.now()) ?? null, language: locale.language }) };
  };

  /** An order's plan: once subscribed, the subscription's own schedule and the customer's cancel link. */
  const orderPlan = async (order: Order, locale: PageLocale): Promise<PlanView | undefined> => {
    if (order.frequencyId === null) return undefined;
    const subscription = await app.subscriptions.ofOrder(order);
    const amount = locale.money(order.amountMinor, order.currency);
    if (!subscription) {
      const next = nextChargeAt(order.frequencyId, app.clock.now()) ?? null;
      return { words: describePlan({ amount, frequencyId: order.frequencyId, numberOfPayments: order.numberOfPayments, next, language: locale.language }) };
    }
    const running = subscription.state === 'active' || subscription.state === 'past_due';
    const words = describePlan({
      amount,
      frequencyId: subscription.frequencyId,
      numberOfPayments: subscription.paymentsTotal,
      next: subscription.state === 'active' ? subscription.nextDueAt : null,
      language: locale.language,
    });
    const cancelHref = running ? `/checkout/subscriptions/cancel?token=${encodeURIComponent(await app.subscriptions.cancelToken(subscription))}` : undefined;
    return { words, cancelHref };
  };

  const blankForm: LinkFormValues = { firstname: '', lastname: '', email: '', mobile: '', amount: '' };

  app.get(
    '/l/:reference',
    {
      schema: {
        summary: "Payment-link page (HTML): the form for the customer, or the checkout of the customer's order (`order`)",
        tags: ['Pages'],
        params: z.object({ reference: z.string().max(64) }),
        querystring: linkQuery,
      },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      // An address no page gives (a reference too long, a value too long or repeated) names no link or no order.
      const invalid = request.validationError?.validationContext;
      if (invalid === 'params') return reply.code(404).send(say(locale.t.linkNotFound, locale));
      const opened = await openLink(request.params.reference, reply, locale);
      if (!opened) return reply;
      if (invalid) return reply.code(404).send(say(locale.t.orderNotFound, locale));
      const { link, merchant } = opened;
      const { order: named, reference: returned, status } = request.query;
      if (named === undefined && returned) {
        // An order whose return address is the bare link (made before orders had their own address) comes back
        // with `reference` only: it goes on to its own address, which survives the checkout removing `reference`.
        const order = await orderOfLink(returned, link, merchant);
        if (order) {
          const back = new URLSearchParams({ reference: order.reference, ...(status ? { status } : {}) });
          return reply.redirect(`${orderAddress(link, order.reference)}&${back.toString()}`, 303);
        }
      }
      const refused = refusal(link, merchant, locale);
      if (named !== undefined) {
        const order = await orderOfLink(named, link, merchant);
        if (!order) {
          return reply.code(404).send(say(locale.t.orderNotFound, locale));
        }
        // A used-up or inactive link still shows its customers their payment; an order never tried is refused.
        if (refused && order.statusId === 1) return reply.code(refused.status).send(refused.page);
        return checkoutPage(link, merchant, reply, order, !refused, locale);
      }
      if (refused) return reply.code(refused.status).send(refused.page);
      const errors: LinkFormErrors = {};
      for (const name of fieldsNamed(request.query.invalid ?? '')) {
        if (name !== 'amount' || link.amountMinor === null) errors[name] = name === 'amount' ? locale.t.errors.amount(link.currency) : locale.t.errors[name];
      }
      // The form (never the checkout after it) may be framed by this origin's own pages: the dashboard previews a
      // link in a sandboxed frame (no scripts, no forms). Any other origin is still refused.
      return reply
        .pagePolicy({ frameAncestors: ["'self'"] })
        .send(linkFormPage(link, merchant, blankForm, errors, newOrderReference(), locale, offeredPlan(link, locale, link.amountMinor)));
    },
  );

  app.post(
    '/l/:reference',
    {
      schema: {
        summary: "Payment-link page (HTML): the customer's details posted by its form; makes the order and answers 303 to its address",
        tags: ['Pages'],
        params: z.object({ reference: z.string().max(64) }),
        body: linkForm,
      },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const invalid = request.validationError;
      if (invalid?.validationContext === 'params') return reply.code(404).send(say(locale.t.linkNotFound, locale));
      // Every other answer is a redirect (Post/Redirect/Get): no answer to a post stays in the browser's history,
      // where Back would offer to send the customer's details again. The form's address says what is wrong.
      const formAddress = `/l/${encodeURIComponent(request.params.reference)}`;
      const redirectWithErrors = (fields: readonly string[]) =>
        reply.redirect(fields.length > 0 ? `${formAddress}?invalid=${fieldsNamed(fields.join(',')).join(',')}` : formAddress, 303);
      if (invalid) {
        const sent = (request.body ?? {}) as Record<string, unknown>;
        return redirectWithErrors(FORM_FIELDS.filter((name) => !linkForm.shape[name].safeParse(sent[name]).success));
      }
      const link = await app.links.findByReference(request.params.reference);
      const merchant = link && (await app.merchants.find(link.merchantId));
      if (!link || !merchant || refusal(link, merchant, locale)) return reply.redirect(formAddress, 303);

      const messages = locale.t.errors;
      const body = request.body;
      const values: LinkFormValues = { firstname: body.firstname.trim(), lastname: body.lastname.trim(), email: body.email.trim(), mobile: body.mobile.trim(), amount: body.amount.trim() };
      const formReference = LINK_ORDER.test(body.order) ? body.order : newOrderReference();
      const errors: LinkFormErrors = {};
      let amountMinor = link.amountMinor;
      if (link.amountMinor === null) {
        const amount = parseAmount(values.amount, locale);
        amountMinor = amount === undefined ? null : (toMinorUnits(amount, link.currency) ?? null);
        if (amountMinor === null || amountMinor <= 0 || amountMinor > maximumAmountMinor(link.currency)) errors.amount = messages.amount(link.currency);
      }
      if (values.mobile && !/^\+?[0-9 ()-]{7,20}$/.test(values.mobile)) errors.mobile = messages.mobile;
      // The order is checked by the API's own schema, so the checkout can later ask for the same order.
      const plainFor = (reference: string) =>
        createOrderPlainSchema.safeParse({
          customer: { firstname: values.firstname, lastname: values.lastname, email: values.email, mobile: values.mobile },
          order: { amount: toMajorUnits(amountMinor ?? 0, link.currency), reference, description: orderDescription(link.description), currency: link.currency },
          payment: { RedirectUrl: `${publicBaseUrl}${orderAddress(link, reference)}`, paymentlinkid: link.id },
        } satisfies CreateOrderPlain);
      const parsed = plainFor(formReference);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = issue.path[0] === 'customer' ? issue.path[1] : undefined;
          if (field === 'firstname' || field === 'lastname' || field === 'email' || field === 'mobile') errors[field] ??= messages[field];
        }
      }
      if (Object.keys(errors).length > 0 || !parsed.success) return redirectWithErrors(Object.keys(errors));

      const caller = { merchant, mode: link.mode, kind: 'publishable' as const };
      let reference = formReference;
      try {
        await app.orders.create(caller, parsed.data);
      } catch (error) {
        if (!isAppError(error) || error.code !== 'CON409') throw error;
        // The link was used up or disabled meanwhile: its page says so. The form's reference is an order with other
        // details (the customer changed them after going Back): a new order.
        if (error.reason === 'link_capacity_reached' || error.reason === 'link_inactive') return reply.redirect(formAddress, 303);
        if (error.reason !== 'order_reference_taken') throw error;
        reference = newOrderReference();
        const retry = plainFor(reference);
        if (!retry.success) throw error;
        await app.orders.create(caller, retry.data);
      }
      return reply.redirect(orderAddress(link, reference), 303);
    },
  );

  /**
   * The order `reference` if a customer started it from this link's page (this merchant, this mode, this link).
   * The page shows the order's customer details, so only the references the page itself made are taken: 96
   * random bits, the order's own capability. An order the merchant made on the link under its own reference
   * (`ORDER-1042`, guessable) is never shown here.
   */
  async function orderOfLink(reference: string, link: StoredLink, merchant: Merchant): Promise<Order | undefined> {
    if (!LINK_ORDER.test(reference)) return undefined;
    try {
      const order = await app.orders.resolve({ merchant, mode: link.mode, kind: 'publishable' }, reference);
      return order.paymentLinkId === link.id ? order : undefined;
    } catch (error) {
      // Not found is an answer; a storage failure is not, and gets the error page, not "Order not found".
      if (isAppError(error) && error.code === 'NF404') return undefined;
      throw error;
    }
  }
};

export default routes;
