import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticationPage, say } from '../pages/authentication.ts';
import { localeFrom, type PageLocale } from '../pages/i18n.ts';
import type { Order, Payment } from '../domain/order.ts';
import { MAX_AUTH_ATTEMPTS } from '../domain/order-state.ts';
import { isAppError } from '../errors.ts';
import { framingSources } from '../security/origins.ts';
import { acceptHtmlForms } from './html-forms.ts';

/**
 * The hosted 3-D Secure page of the sandbox issuer and the hosted result page. The payment reference in the
 * path is 96 random bits: it is the capability to answer for that payment. Plain HTML forms, no script.
 */
const paramsSchema = z.object({ paymentReference: z.string().regex(/^PAY[0-9A-F]{24}$/, { message: 'is not a payment reference' }) });
const answerSchema = z.object({ action: z.enum(['approve', 'fail']).default('approve'), code: z.string().max(12).default('') });

const routes: FastifyPluginAsyncZod = async (app) => {
  acceptHtmlForms(app);

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

  const pageHeaders = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
  /** The page for an address that names no payment: a page for people, never the API's envelope. */
  const paymentNotFound = (request: FastifyRequest, reply: FastifyReply) => {
    const locale = localeFrom(request.headers['accept-language']);
    return pageHeaders(reply).code(404).send(say(locale.t.paymentNotFound, locale));
  };

  /**
   * The page shows the payment as it is now: the form (with the attempts left once a code was wrong), or that the
   * authentication expired or finished. Wrong codes are counted on the payment, so the form post can always answer
   * with a redirect here (Post/Redirect/Get) and no answer of it stays in the browser's history to be sent again.
   */
  app.get(
    '/checkout/3ds/:paymentReference',
    { schema: { summary: '3-D Secure authentication page (HTML, sandbox issuer)', tags: ['Pages'], params: paramsSchema }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return paymentNotFound(request, reply);
      pageHeaders(reply);
      const locale = localeFrom(request.headers['accept-language']);
      const found = await app.payments.findForAuthentication(request.params.paymentReference);
      if (!found) return paymentNotFound(request, reply);
      const { payment, order } = found;
      reply.pagePolicy(await policyFor(order, payment));
      const back = { href: app.payments.returnUrl(order, payment), label: locale.t.returnToMerchant };
      if (app.deadlines.authenticationExpired(payment)) return reply.send(say(locale.t.authenticationExpired, locale, back));
      if (payment.stage !== 'authentication') return reply.send(say(locale.t.authenticationFinished, locale, back));
      const error = payment.authAttempts > 0 ? locale.t.authentication.wrongCode(MAX_AUTH_ATTEMPTS - payment.authAttempts) : undefined;
      return reply.send(await renderPage(payment, order, locale, error));
    },
  );

  /**
   * The answer always redirects: a wrong code back to the page (which counts the attempts left), the answer that
   * finishes the authentication to the return address. A replay once it finished (Back and resubmit, a second
   * tab) goes to the page, which says it is finished, and never sends the customer on to the merchant again.
   */
  app.post(
    '/checkout/3ds/:paymentReference',
    {
      schema: { summary: 'Answer the 3-D Secure challenge (form post)', tags: ['Pages'], params: paramsSchema, body: answerSchema },
      attachValidation: true,
    },
    async (request, reply) => {
      const pageAddress = `/checkout/3ds/${request.params.paymentReference}`;
      if (request.validationError) {
        if (request.validationError.validationContext === 'params') return paymentNotFound(request, reply);
        return reply.redirect(pageAddress, 303);
      }
      let result: Awaited<ReturnType<typeof app.payments.authenticate>>;
      try {
        result = await app.payments.authenticate(request.params.paymentReference, request.body);
      } catch (error) {
        if (isAppError(error) && error.code === 'NF404') return paymentNotFound(request, reply);
        throw error;
      }
      reply.pagePolicy(await policyFor(result.order, result.payment));
      if (result.kind !== 'finished') return reply.redirect(pageAddress, 303);
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
      attachValidation: true,
    },
    async (request, reply) => {
      // An address this page never gives (a value too long, or repeated) shows the page as if it named nothing.
      const { reference, status } = request.validationError ? { reference: '', status: '' } : request.query;
      const locale = localeFrom(request.headers['accept-language']);
      const result = locale.t.result;
      reply.type('text/html; charset=utf-8').header('vary', 'accept-language');
      return say((status === 'successful' ? result.successful : status === 'pending' ? result.pending : result.failed)(reference), locale);
    },
  );
};

export default routes;
