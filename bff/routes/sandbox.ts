import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { simulateTransferRequestSchema, simulateTransferResponseSchema } from '../../shared/sandbox.ts';
import { forbidden } from '../errors.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentTransferArrival } from '../presenters/payments.ts';

/** Sandbox controls, test mode only, secret key: they stand in for the outside world (the customer's bank). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/sandbox/transfers',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: "Simulate the customer's bank transfer (test mode only)",
        description: 'Money arrives on a temporary account: exact completes the payment, short leaves the rest due, excess completes it and records the excess.',
        tags: ['Sandbox'],
        security: [{ apiKey: [] }],
        body: simulateTransferRequestSchema,
        response: { 200: simulateTransferResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      if (caller.mode !== 'test') throw forbidden('Simulated transfers exist in test mode only.');
      const { order, payment } = await app.payments.receiveTransfer(caller, request.body.accountNumber, request.body.amount);
      const result = presentTransferArrival(order, payment);
      return { status: 'success' as const, statusCode: '00', message: result.message, data: result };
    },
  );
};

export default routes;
