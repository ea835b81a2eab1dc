import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { FREQUENCIES, frequenciesResponseSchema } from '../../shared/frequencies.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/checkout/frequencies',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Fetch link frequencies',
        description: 'The eleven subscription frequencies a payment link may use, in their fixed order.',
        tags: ['Payment links'],
        security: [{ apiKey: [] }],
        response: { 200: frequenciesResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async () => ({ status: 'success' as const, statusCode: '00', message: 'Operation successful', data: [...FREQUENCIES] }),
  );
};

export default routes;
