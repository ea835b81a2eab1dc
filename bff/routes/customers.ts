import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customerSessionRequestSchema, customerSessionResponseSchema } from '../../shared/customers.ts';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { callerOf } from '../plugins/auth.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/customers/sessions',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'Open a customer session (server side, secret key)',
        description:
          'Names a customer your server vouches for and returns a short-lived session for the checkout. Orders created with it show and ' +
          "use that customer's saved cards and may save the card they are paid with; orders without one never see saved cards. Plain body.",
        tags: ['Customers'],
        security: [{ apiKey: [] }],
        body: customerSessionRequestSchema,
        response: { 200: customerSessionResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await app.orders.openCustomerSession(callerOf(request), request.body.customerReference);
      return {
        status: 'success' as const,
        statusCode: '00',
        message: 'Customer session opened',
        data: { customerReference: request.body.customerReference, customerSession: session.token, expiresAt: formatTimestamp(session.expiresAt) },
      };
    },
  );
};

export default routes;
