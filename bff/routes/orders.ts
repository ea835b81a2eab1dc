import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encryptedBodySchema } from '../../shared/encrypted.ts';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { trackEventPlainSchema, trackEventResponseSchema } from '../../shared/events.ts';
import { createOrderPlainSchema, createOrderResponseSchema, referencePlainSchema, transactPayStatusPlainSchema } from '../../shared/orders.ts';
import { orderStatusResponseSchema, transactPayStatusResponseSchema } from '../../shared/payments.ts';
import { resumeOrderResponseSchema } from '../../shared/resume.ts';
import { verifyRequestSchema, verifyResponseSchema } from '../../shared/verify.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentCreatedOrder, presentStatus, presentTransactPayStatus, presentVerify, representativePayment } from '../presenters/orders.ts';
import { presentPayAnswer } from '../presenters/payments.ts';
import { pathFamily } from './transactpay-paths.ts';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };
const security = [{ apiKey: [] }];
const encrypted = (plain: z.ZodType) =>
  `Encrypted: \`data\` carries the plain JSON below (schema ${String(z.globalRegistry.get(plain)?.id ?? '')} in components), as a JWE or the legacy RSA block.`;

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/order/create',
    {
      config: { auth: 'any', idempotent: { plain: createOrderPlainSchema } },
      schema: {
        summary: 'Create order',
        description: `${encrypted(createOrderPlainSchema)}\n\nIdempotent on the reference: the same reference with the same details returns the existing order in its current state; other details under a used reference are CON409.`,
        tags: ['Orders'],
        security,
        body: encryptedBodySchema,
        response: { 200: createOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const plain = await request.decryptPayload(createOrderPlainSchema);
      return { status: 'success' as const, statusCode: '01' as const, message: 'Created order successfully', data: presentCreatedOrder(await app.orders.create(callerOf(request), plain), pathFamily(request)) };
    },
  );

  app.post(
    '/checkout/order/status',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Confirm order status (snake case)',
        description: encrypted(referencePlainSchema),
        tags: ['Orders'],
        security,
        body: encryptedBodySchema,
        response: { 200: orderStatusResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { reference } = await request.decryptPayload(referencePlainSchema);
      const found = await app.orders.status(callerOf(request), reference);
      const status = presentStatus(found.order, representativePayment(found.payments), found.refunds);
      return {
        is_final_status: status.isFinal,
        requery_needed: status.requery,
        requery_type: status.requery ? 'status' : null,
        status: 'success' as const,
        status_code: '00' as const,
        message: 'Order Status fetched successfully',
        data: status.data,
      };
    },
  );

  app.post(
    '/checkout/order/resume',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Resume order (the checkout frame, or a client token)',
        description: `${encrypted(referencePlainSchema)}\n\nThe order as its create answer shows it and its latest payment attempt as its pay answer showed it (the bank's page of a card payment awaiting authentication, a transfer's account), or null. With the publishable key, only from the checkout frame (\`checkout-session\`) or with the order's client token.`,
        tags: ['Orders'],
        security,
        body: encryptedBodySchema,
        response: { 200: resumeOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { reference } = await request.decryptPayload(referencePlainSchema);
      const { created, latest } = await app.orders.resume(callerOf(request), reference);
      const payment = latest ? presentPayAnswer(created.order, latest, created.merchant.name) : null;
      return { status: 'success' as const, statusCode: '00', message: 'Order resumed', data: { order: presentCreatedOrder(created), payment } };
    },
  );

  app.post(
    '/payment/order/status',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Confirm order status (the TransactPay mobile SDKs)',
        description:
          `${encrypted(transactPayStatusPlainSchema)}\n\nThe same order as \`/checkout/order/status\`, in the shape the TransactPay deployment's ` +
          "Kotlin and iOS SDKs read: the top-level `status` is the order's status name (`Successful`, `Failed`, ...), and `data` holds " +
          '`isFinalStatus`, `orderSummary` and every attempt in `orderPayments`.',
        tags: ['Orders'],
        security,
        body: encryptedBodySchema,
        response: { 200: transactPayStatusResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { reference } = await request.decryptPayload(transactPayStatusPlainSchema);
      const found = await app.orders.status(callerOf(request), reference);
      return presentTransactPayStatus(found.order, found.payments);
    },
  );

  app.post(
    '/checkout/order/event/track',
    {
      config: { auth: 'any', idempotent: { plain: trackEventPlainSchema } },
      schema: {
        summary: 'Track order event (encrypted only)',
        description: encrypted(trackEventPlainSchema),
        tags: ['Orders'],
        security,
        body: encryptedBodySchema,
        response: { 200: trackEventResponseSchema, ...errors },
      },
    },
    async (request) => {
      const event = await request.decryptPayload(trackEventPlainSchema);
      await app.orders.track(callerOf(request), event);
      return { status: 'success' as const, statusCode: '00' as const, message: 'Event logged successfully', data: null };
    },
  );

  app.post(
    '/checkout/order/verify',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'Verify order (server side, secret key)',
        description: `What a merchant server calls before fulfilling an order: \`{"reference"}\` in the clear, or encrypted in \`data\`. ${encrypted(referencePlainSchema)}`,
        tags: ['Orders'],
        security,
        body: verifyRequestSchema,
        response: { 200: verifyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const reference = request.body.data === undefined ? request.body.reference! : (await request.decryptPayload(referencePlainSchema)).reference;
      const { order, payments, merchant, link, savedCards, refunds } = await app.orders.verify(callerOf(request), reference);
      const data = presentVerify(order, payments, merchant, link ? app.links.present(link, merchant) : null, savedCards, refunds);
      return { status: 'success' as const, statusCode: '00', message: 'Order details fetched successfully', data };
    },
  );
};

export default routes;
