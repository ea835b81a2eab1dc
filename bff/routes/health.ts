import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, successEnvelope } from '../../shared/envelope.ts';
import { sendServerError } from '../plugins/envelope.ts';

const healthSchema = successEnvelope(z.object({ status: z.literal('ok') }));

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { summary: 'Liveness', tags: ['Operations'], response: { 200: healthSchema } } },
    async () => ({ status: 'success' as const, statusCode: '00', message: 'Alive', data: { status: 'ok' as const } }),
  );

  app.get(
    '/ready',
    {
      schema: {
        summary: 'Readiness: 200 only when storage answers',
        tags: ['Operations'],
        response: { 200: healthSchema, 503: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      if (await app.storage.ping()) {
        return { status: 'success' as const, statusCode: '00', message: 'Ready', data: { status: 'ok' as const } };
      }
      return sendServerError(request, reply, { httpStatus: 503, message: 'Storage is not answering.' });
    },
  );
};

export default routes;
