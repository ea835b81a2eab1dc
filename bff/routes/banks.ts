import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BANKS, banksResponseSchema } from '../../shared/banks.ts';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/checkout/banks',
    {
      // Either key: the list is public, and the Dart client asks for it from the app with the publishable key.
      config: { auth: 'any' },
      schema: {
        summary: 'Banks',
        description: 'The banks a customer may name when paying by bank transfer (`BankTransfer.bankcode`).',
        tags: ['Payments'],
        security: [{ apiKey: [] }],
        response: { 200: banksResponseSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async () => ({ status: 'success' as const, statusCode: '00', message: 'Operation successful', data: [...BANKS] }),
  );
};

export default routes;
