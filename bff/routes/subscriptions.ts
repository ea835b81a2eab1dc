import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import {
  cancelRecurringPaymentBodySchema,
  cancelRecurringPaymentResponseSchema,
  linkKeyParamsSchema,
  recurringPaymentParamsSchema,
  subscriptionListResponseSchema,
} from '../../shared/subscriptions.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentSubscription } from '../presenters/subscriptions.ts';
import { acceptEmptyJson } from './links.ts';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };
const security = [{ apiKey: [] }];
const tags = ['Subscriptions'];

/** The merchant's side of subscriptions (secret key): cancel one at the gateway's path, list a link's. */
export default async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  // The Java SDK sends `{"id"}`; other clients send nothing under `Content-Type: application/json`.
  acceptEmptyJson(app);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.patch(
    '/checkout/links/recurringpayment/:id/cancel',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'Cancel a recurring payment (subscription)',
        description:
          'Stops the subscription: no further charge is made, and a charge already sent to the card issuer when it stops is refunded in full if approved (the message says when there was one). `{id}` is its `recurringPaymentId` or `recurringPaymentReference`; a body `{"id"}` is accepted and the path decides. Cancelling again answers the same; a completed one is `CON409`.',
        tags,
        security,
        params: recurringPaymentParamsSchema,
        body: cancelRecurringPaymentBodySchema,
        response: { 200: cancelRecurringPaymentResponseSchema, ...errors, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { chargeOut } = await app.subscriptions.cancel(callerOf(request), request.params.id);
      const message = chargeOut
        ? 'Recurring payment cancelled successfully; a charge already sent to the card issuer is refunded in full if it is approved'
        : 'Recurring payment cancelled successfully';
      return { status: 'success' as const, statusCode: '00', message, data: null };
    },
  );

  typed.get(
    '/checkout/links/:link/subscriptions',
    {
      config: { auth: 'secret' },
      schema: {
        summary: "A payment link's subscriptions",
        description: 'Every subscription started through the link (by its id or reference), oldest first, with its state and schedule.',
        tags,
        security,
        params: linkKeyParamsSchema,
        response: { 200: subscriptionListResponseSchema, ...errors },
      },
    },
    async (request) => ({
      status: 'success' as const,
      statusCode: '00',
      message: 'Subscriptions fetched successfully',
      data: (await app.subscriptions.listForLink(callerOf(request), request.params.link)).map(presentSubscription),
    }),
  );
}
