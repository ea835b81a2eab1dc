import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describePlan } from '../../shared/plan.ts';
import { say } from '../pages/authentication.ts';
import { html, page } from '../pages/html.ts';
import { localeFrom, type PageLocale } from '../pages/i18n.ts';
import type { SubscriptionRecord } from '../domain/subscription.ts';
import { acceptHtmlForms } from './html-forms.ts';

const tokenQuery = z.object({ token: z.string().max(2048).default('') });
const tokenForm = z.object({ token: z.string().max(2048).default('') });

/**
 * The customer's cancel link (from the receipt on the link's order page): a page that says what stops and asks to
 * confirm, and the form it posts. The signed token in the address names the subscription; nothing else does.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  acceptHtmlForms(app);

  const merchantName = async (subscription: SubscriptionRecord) => (await app.merchants.find(subscription.merchantId))?.name ?? '';

  const confirmPage = (subscription: SubscriptionRecord, merchant: string, token: string, locale: PageLocale) => {
    const words = describePlan({
      amount: locale.money(subscription.amountMinor, subscription.currency),
      frequencyId: subscription.frequencyId,
      numberOfPayments: subscription.paymentsTotal,
      next: subscription.state === 'active' ? subscription.nextDueAt : null,
      language: locale.language,
    });
    const t = locale.t.subscription;
    return page({
      title: t.cancelTitle,
      lang: locale.tag,
      body: html`<main>
<h1>${t.cancelTitle}</h1>
<p class="merchant">${merchant}</p>
<p class="plan" data-testid="plan">${words}</p>
<p>${t.cancelQuestion(merchant)}</p>
<form method="post" action="/checkout/subscriptions/cancel">
<input type="hidden" name="token" value="${token}">
<button type="submit">${t.cancelButton}</button>
</form>
</main>`,
    });
  };

  app.get(
    '/checkout/subscriptions/cancel',
    {
      schema: { summary: "Cancel a subscription (HTML): the customer's confirmation page, from the link on their receipt", tags: ['Pages'], querystring: tokenQuery },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const token = request.validationError ? '' : request.query.token;
      const subscription = token ? await app.subscriptions.fromCancelToken(token) : undefined;
      if (!subscription) return reply.code(404).send(say(locale.t.subscription.notFound, locale));
      const merchant = await merchantName(subscription);
      if (subscription.state === 'cancelled') return reply.send(say(locale.t.subscription.cancelled(merchant), locale));
      if (subscription.state === 'completed') return reply.send(say(locale.t.subscription.alreadyEnded, locale));
      return reply.send(confirmPage(subscription, merchant, token, locale));
    },
  );

  app.post(
    '/checkout/subscriptions/cancel',
    {
      schema: { summary: 'Cancel a subscription (HTML): the confirmation form, with its signed token', tags: ['Pages'], body: tokenForm },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const token = request.validationError ? '' : request.body.token;
      const found = token ? await app.subscriptions.fromCancelToken(token) : undefined;
      if (!found) return reply.code(404).send(say(locale.t.subscription.notFound, locale));
      if (found.state !== 'completed') await app.subscriptions.cancelByToken(token);
      // Post/Redirect/Get: the page that says so stays in the history, never the post.
      return reply.redirect(`/checkout/subscriptions/cancel?token=${encodeURIComponent(token)}`, 303);
    },
  );
};

export default routes;
