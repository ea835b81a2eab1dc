import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticationPage, say } from '../pages/authentication.ts';
import { localeFrom, type PageLocale } from '../pages/i18n.ts';
import type { Order, Payment } from '../domain/order.ts';
import { authenticationDeadline, MAX_AUTH_ATTEMPTS } from '../domain/lifecycle.ts';
import { framingSources } from '../security/origins.ts';
import { acceptHtmlForms } from './html-forms.ts';

/**
 * The sandbox issuer's hosted 3-D Secure page (the sandbox processor sends the customer here, the way an acquirer
 * sends them to the card issuer's page). The page, its one-time code and its count of wrong codes are the
 * sandbox's; once the customer has answered, the payment service asks the processor for its verdict. The payment
 * reference in the path is 96 random bits: it is the capability to answer for that payment. Plain HTML; its one
 * script (bff/pages/pages.js) focuses the code field and, inside a checkout frame, reports the page's height.
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

  /**
   * The merchant page whose checkout frame shows this page: the order returns to the frame's own address
   * (`/checkout/frame/{token}`), whose signed token names that page's origin. The page's script reports its height
   * to exactly that origin, so the frame grows with it; a hosted (unframed) checkout has none.
   */
  const framingOrigin = async (order: Order): Promise<string | undefined> => {
    const token = order.redirectUrl && /^\/checkout\/frame\/([\w-]+\.[\w-]+\.[\w-]+)$/.exec(new URL(order.redirectUrl).pathname)?.[1];
    const claims = token ? await app.frameTokens.verify(token, app.clock.now()) : undefined;
    return claims && claims.merchantId === order.merchantId ? claims.origin : undefined;
  };

  const renderPage = async (payment: Payment, order: Order, locale: PageLocale, error?: string) => {
    const merchant = await app.merchants.find(order.merchantId);
    return authenticationPage({
      parentOrigin: await framingOrigin(order),
      merchantName: merchant?.name ?? '',
      amountMinor: payment.totalMinor,
      currency: order.currency,
      instrument: payment.instrument,
      oneTimeCode: app.sandbox.oneTimeCode(payment.reference),
      action: `/checkout/3ds/${payment.reference}`,
      error,
      locale,
    });
  };

  /** The attempt's time is up, whether or not its expiry job has run yet. */
  const expired = (payment: Payment) =>
    payment.reason === 'authentication-expired' ||
    (payment.stage === 'authentication' && authenticationDeadline(payment) <= app.clock.now());

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
      const found = await app.payments.findAttempt(request.params.paymentReference);
      const challenge = found && (await app.sandbox.findChallenge(found.payment.reference));
      if (!found || !challenge) return paymentNotFound(request, reply);
      const { payment, order } = found;
      reply.pagePolicy(await policyFor(order, payment));
      const back = { href: app.payments.returnUrl(order, payment), label: locale.t.returnToMerchant };
      const parentOrigin = await framingOrigin(order);
      if (expired(payment)) return reply.send(say(locale.t.authenticationExpired, locale, back, parentOrigin));
      if (payment.stage !== 'authentication' || challenge.passed !== null) return reply.send(say(locale.t.authenticationFinished, locale, back, parentOrigin));
      const error = challenge.wrongCodes > 0 ? locale.t.authentication.wrongCode(MAX_AUTH_ATTEMPTS - challenge.wrongCodes) : undefined;
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
      const found = await app.payments.findAttempt(request.params.paymentReference);
      if (!found || !(await app.sandbox.findChallenge(found.payment.reference))) return paymentNotFound(request, reply);
      reply.pagePolicy(await policyFor(found.order, found.payment));
      // Past its deadline the page says so; the expiry job ends the attempt (a read or a late answer never does).
      if (found.payment.stage !== 'authentication' || expired(found.payment)) return reply.redirect(pageAddress, 303);
      const answer = await app.sandbox.answerChallenge(found.payment.reference, request.body);
      if (answer.kind !== 'answered') return reply.redirect(pageAddress, 303);
      const result = await app.payments.completeAction(found.payment.reference);
      if (result.kind !== 'finished') return reply.redirect(pageAddress, 303);
      return reply.redirect(app.payments.returnUrl(result.order, result.payment), 303);
    },
  );

};

export default routes;
