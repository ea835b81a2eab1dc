import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { createLinkRequestSchema, createLinkResponseSchema } from '../../shared/links.ts';
import { callerOf } from '../plugins/auth.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/links/create',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: 'Create a payment link',
        description: 'Creates a hosted payment link. Field names bind case-insensitively. Secret key only.',
        tags: ['Payment links'],
        security: [{ apiKey: [] }],
        body: createLinkRequestSchema,
        response: { 200: createLinkResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      statusCode: '00',
      message: 'Payment details fetched successfully',
      data: await app.links.create(callerOf(request), request.body),
    }),
  );
};

export default routes;
