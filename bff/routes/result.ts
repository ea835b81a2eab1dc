import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { say } from '../pages/authentication.ts';
import { localeFrom } from '../pages/i18n.ts';

/** The hosted result page, where a customer lands after paying an order that has no RedirectUrl of its own. */
const routes: FastifyPluginAsyncZod = async (app) => {
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
