import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { sandboxEncryptRequestSchema, sandboxEncryptResponseSchema } from '../../shared/sandbox.ts';
import { simulateTransfer } from '../../shared/contract/sandbox.ts';
import { forbidden } from '../errors.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentTransferArrival } from '../presenters/payments.ts';
import { route } from './register.ts';

/** Sandbox controls, test mode only, secret key: they stand in for the outside world (the customer's bank). */
const routes: FastifyPluginAsyncZod = async (app) => {
  route(
    app,
    simulateTransfer,
    async ({ body }, request) => {
      const caller = callerOf(request);
      if (caller.mode !== 'test') throw forbidden('Simulated transfers exist in test mode only.');
      const { order, payment } = await app.payments.receiveTransfer(caller, body.accountNumber, body.amount);
      const result = presentTransferArrival(order, payment);
      return { status: 'success' as const, statusCode: '00' as const, message: result.message, data: result };
    },
    { idempotent: true },
  );

  app.post(
    '/checkout/sandbox/encrypt',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Encrypt a plain payload for the encrypted endpoints (test mode only)',
        description:
          'For trying the encrypted endpoints from this page: send the plain JSON an endpoint takes (its schema is named in ' +
          "the endpoint's description), copy `data` from the answer, and send that as the endpoint's body with the same key. " +
          "The answer is a JWE (ECDH-ES+A256KW, A256GCM) for this merchant's published key, as the widget makes it; " +
          'the payload is neither stored nor logged. Real clients encrypt themselves (GET /checkout/keys).',
        tags: ['Sandbox'],
        security: [{ apiKey: [] }],
        body: sandboxEncryptRequestSchema,
        response: { 200: sandboxEncryptResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      if (caller.mode !== 'test') throw forbidden('The encryption helper exists in test mode only.');
      const data = await app.payloadKeys.encryptFor(caller.merchant.id, caller.mode, JSON.stringify(request.body));
      if (!data) throw forbidden('This merchant has no encryption key for test mode.');
      return { status: 'success' as const, statusCode: '00', message: 'Encrypted for this merchant', data: { data } };
    },
  );
};

export default routes;
