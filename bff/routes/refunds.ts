import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { refundPlainSchema, refundRequestSchema, refundResponseSchema, type RefundPlain } from '../../shared/refunds.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentRefundAnswer } from '../presenters/refunds.ts';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema, 429: errorEnvelopeSchema };

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/order/refund',
    {
      config: { auth: 'secret', idempotent: { plain: refundPlainSchema, clear: true } },
      schema: {
        summary: 'Refund an order (secret key)',
        description:
          'Sends money of a paid order back to the customer: `{"reference", "amount"?, "reason"?}` in the clear, or encrypted in `data` (RefundOrderPlain in components) as a JWE or the legacy RSA block. ' +
          "Without `amount`, everything left of the order's payment; with it, that much (major units, at most the currency's decimals). " +
          'Refunds never exceed what the order took: asking for more, or refunding an order that was not paid, is CON409. ' +
          'Answers 00 refunded (the order is 6 Reversed once all went back), 02 being confirmed with the processor (verify the order shortly), ' +
          'or status failed with the ISO 8583 decline code (nothing went back). Sends the `refund.succeeded` or `refund.failed` webhook.',
        tags: ['Orders'],
        security: [{ apiKey: [] }],
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { data, reference, amount, reason } = request.body;
      const plain: RefundPlain = data === undefined ? { reference: reference!, amount, reason } : await request.decryptPayload(refundPlainSchema);
      const { refund, order, payments, refunds } = await app.refunds.refund(callerOf(request), plain);
      return presentRefundAnswer(refund, order, payments, refunds);
    },
  );
};

export default routes;
