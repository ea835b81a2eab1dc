import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { encryptedBodySchema } from '../../shared/encrypted.ts';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { feePlainSchema, feeResponseSchema } from '../../shared/fees.ts';
import { payOrderPlainSchema, payOrderResponseSchema } from '../../shared/payments.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentPayAnswer } from '../presenters/payments.ts';
import { pathFamily } from './transactpay-paths.ts';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema, 429: errorEnvelopeSchema };

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/order/pay',
    {
      config: { auth: 'any', idempotent: { plain: payOrderPlainSchema } },
      schema: {
        summary: 'Initiate order payment',
        description:
          'Encrypted (PayOrderPlain in components). Answers 00 approved, 02 pending (3-D Secure: follow paymentDetail.redirectUrl; transfer: send the money to bankTransferDetails), or status failed with the ISO 8583 decline code.',
        tags: ['Payments'],
        security: [{ apiKey: [] }],
        body: encryptedBodySchema,
        response: { 200: payOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { order, payment } = await app.payments.pay(caller, await request.decryptPayload(payOrderPlainSchema));
      return presentPayAnswer(order, payment, caller.merchant.name, pathFamily(request));
    },
  );

  app.post(
    '/checkout/order/fee',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Query order fee',
        description: 'Encrypted (FeeQueryPlain in components). With an order reference, the quote is exactly what paying that order charges.',
        tags: ['Payments'],
        security: [{ apiKey: [] }],
        body: encryptedBodySchema,
        response: { 200: feeResponseSchema, ...errors },
      },
    },
    async (request) => ({
      status: 'success' as const,
      statusCode: '00',
      message: 'Operation successful',
      data: await app.fees.quote(callerOf(request), await request.decryptPayload(feePlainSchema)),
    }),
  );
};

export default routes;
