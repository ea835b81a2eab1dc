import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticationPage, messagePage } from '../pages/authentication.ts';
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
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const found = await app.payments.findForAuthentication(request.params.paymentReference);
      if (!found) return reply.code(404).send(messagePage('Payment not found', 'No payment awaits authentication here.'));
      const { payment, order } = found;
      reply.pagePolicy(await policyFor(order, payment));
      if (app.deadlines.authenticationExpired(payment)) {
        return reply.send(
          messagePage('Authentication expired', 'This authentication has expired: it was not completed in time. Return to the merchant to pay again.', {
            href: app.payments.returnUrl(order, payment),
            label: 'Return to the merchant',
          }),
        );
      }
      if (payment.stage !== 'authentication') {
        return reply.send(
          messagePage('Authentication finished', 'This payment is no longer waiting for authentication.', {
            href: app.payments.returnUrl(order, payment),
            label: 'Return to the merchant',
          }),
        );
      }
      return reply.header('vary', 'accept-language').send(await renderPage(payment, order, localeFrom(request.headers['accept-language'])));
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
      const succeeded = status === 'successful';
      reply.type('text/html; charset=utf-8');
      return messagePage(
        succeeded ? 'Payment successful' : status === 'pending' ? 'Payment pending' : 'Payment not completed',
        succeeded
          ? `Your payment for order ${reference} was successful. You can close this page.`
          : `The payment for order ${reference} did not go through. Return to the merchant to try again.`,
      );
    },
  );
};

export default routes;
