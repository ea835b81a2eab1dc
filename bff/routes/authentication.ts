import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticationPage, say } from '../pages/authentication.ts';
import { localeFrom, type PageLocale } from '../pages/i18n.ts';
import type { Order, Payment } from '../domain/order.ts';
import { framingSources } from '../security/origins.ts';

/**
 * The hosted 3-D Secure page of the sandbox issuer and the hosted result page. The payment reference in the
 * path is 96 random bits: it is the capability to answer for that payment. Plain HTML forms, no script.
 */
const paramsSchema = z.object({ paymentReference: z.string().regex(/^PAY[0-9A-F]{24}$/, { message: 'is not a payment reference' }) });
const answerSchema = z.object({ action: z.enum(['approve', 'fail']).default('approve'), code: z.string().max(12).default('') });

const routes: FastifyPluginAsyncZod = async (app) => {
  // Browsers post forms url-encoded; this scope parses them with the platform's URLSearchParams.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /**
   * The page may be framed by the merchant's checkout frame (allowed origins), and its form may send the customer
   * on to the order's return address, which a browser checks against form-action through the redirect.
   */
  const policyFor = async (order: Order, payment: Payment) => {
    const merchant = await app.merchants.find(order.merchantId);
    return {
      frameAncestors: merchant ? framingSources(merchant, order.mode) : ["'none'"],
      formAction: ["'self'", new URL(app.payments.returnUrl(order, payment)).origin],
    };
  };

  const renderPage = async (payment: Payment, order: Order, locale: PageLocale, error?: string) => {
    const merchant = await app.merchants.find(order.merchantId);
    return authenticationPage({
      merchantName: merchant?.name ?? '',
      amountMinor: payment.totalMinor,
      currency: order.currency,
      instrument: payment.instrument,
      oneTimeCode: app.payments.oneTimeCode(payment.reference),
      action: `/checkout/3ds/${payment.reference}`,
      error,
      locale,
    });
  };

  app.get(
    '/checkout/3ds/:paymentReference',
    { schema: { summary: '3-D Secure authentication page (HTML, sandbox issuer)', tags: ['Pages'], params: paramsSchema } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const locale = localeFrom(request.headers['accept-language']);
      const found = await app.payments.findForAuthentication(request.params.paymentReference);
      if (!found) return reply.code(404).send(say(locale.t.paymentNotFound, locale));
      const { payment, order } = found;
      reply.pagePolicy(await policyFor(order, payment));
      const back = { href: app.payments.returnUrl(order, payment), label: locale.t.returnToMerchant };
      if (app.deadlines.authenticationExpired(payment)) return reply.send(say(locale.t.authenticationExpired, locale, back));
      if (payment.stage !== 'authentication') return reply.send(say(locale.t.authenticationFinished, locale, back));
      return reply.send(await renderPage(payment, order, locale));
    },
  );

  app.post(
    '/checkout/3ds/:paymentReference',
    { schema: { summary: 'Answer the 3-D Secure challenge (form post)', tags: ['Pages'], params: paramsSchema, body: answerSchema } },
    async (request, reply) => {
      const result = await app.payments.authenticate(request.params.paymentReference, request.body);
      reply.pagePolicy(await policyFor(result.order, result.payment));
      if (result.kind === 'retry') {
        const locale = localeFrom(request.headers['accept-language']);
        return reply
          .code(422)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('vary', 'accept-language')
          .send(await renderPage(result.payment, result.order, locale, locale.t.authentication.wrongCode(result.attemptsLeft)));
      }
      return reply.redirect(app.payments.returnUrl(result.order, result.payment), 303);
    },
  );

  app.get(
    '/checkout/result',
    {
      schema: {
        summary: 'Hosted result page, for orders without a RedirectUrl',
        tags: ['Pages'],
        querystring: z.object({ reference: z.string().max(64).default(''), status: z.string().max(20).default('') }),
      },
    },
    async (request, reply) => {
      const { reference, status } = request.query;
      const locale = localeFrom(request.headers['accept-language']);
      const result = locale.t.result;
      reply.type('text/html; charset=utf-8').header('vary', 'accept-language');
      return say((status === 'successful' ? result.successful : status === 'pending' ? result.pending : result.failed)(reference), locale);
    },
  );
};

export default routes;
