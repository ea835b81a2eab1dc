import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import {
  createWebhookEndpointRequestSchema,
  listDeliveriesQuerySchema,
  webhookDeliveryIdSchema,
  webhookDeliveryListResponseSchema,
  webhookDeliveryResponseSchema,
  webhookEndpointIdSchema,
  webhookEndpointListResponseSchema,
  webhookEndpointResponseSchema,
  webhookEndpointWithSecretResponseSchema,
} from '../../shared/webhooks.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentDelivery, presentEndpoint } from '../presenters/webhooks.ts';
import type { WebhookScope } from '../services/webhooks.ts';

const scopeOf = (request: FastifyRequest): WebhookScope => {
  const caller = callerOf(request);
  return { merchantId: caller.merchant.id, mode: caller.mode };
};

const success = <T>(message: string, data: T) => ({ status: 'success' as const, statusCode: '00', message, data });
const endpointParams = z.object({ endpointId: webhookEndpointIdSchema });
const deliveryParams = z.object({ deliveryId: webhookDeliveryIdSchema });
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };
const TAGS = ['Webhooks'];
const SECURITY = [{ apiKey: [] }];

/**
 * Webhook endpoints of the caller's merchant and mode, secret key only. Create and rotate answer the signing
 * secret once; they ignore `Idempotency-Key`, because a stored answer would keep the secret in the clear.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/webhooks',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'Add a webhook endpoint',
        description:
          'Every later event of this merchant and mode is delivered to the URL, signed with the secret in this answer (shown this once). ' +
          'The URL must name a public internet address (private ones only when the operator allows them); live mode needs https (http only to a loopback address).',
        tags: TAGS,
        security: SECURITY,
        body: createWebhookEndpointRequestSchema,
        response: { 200: webhookEndpointWithSecretResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { endpoint, secret } = await app.webhooks.create(scopeOf(request), request.body.url);
      return success('Webhook endpoint created successfully', { ...presentEndpoint(endpoint), secret });
    },
  );

  app.get(
    '/checkout/webhooks',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'List webhook endpoints',
        description: 'Every endpoint of this merchant and mode, enabled and disabled, oldest first; never their secrets.',
        tags: TAGS,
        security: SECURITY,
        response: { 200: webhookEndpointListResponseSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => success('Operation successful', (await app.webhooks.list(scopeOf(request))).map(presentEndpoint)),
  );

  app.post(
    '/checkout/webhooks/:endpointId/rotate-secret',
    {
      config: { auth: 'secret' },
      schema: {
        summary: "Rotate a webhook endpoint's signing secret",
        description: 'A new secret (in this answer, shown this once) signs every later attempt; the old one stops at once.',
        tags: TAGS,
        security: SECURITY,
        params: endpointParams,
        response: { 200: webhookEndpointWithSecretResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { endpoint, secret } = await app.webhooks.rotateSecret(scopeOf(request), request.params.endpointId);
      return success('Webhook secret rotated successfully', { ...presentEndpoint(endpoint), secret });
    },
  );

  app.post(
    '/checkout/webhooks/:endpointId/disable',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: 'Disable a webhook endpoint',
        description: 'No new deliveries; pending ones end as failed. The endpoint and its log are kept.',
        tags: TAGS,
        security: SECURITY,
        params: endpointParams,
        response: { 200: webhookEndpointResponseSchema, ...errors },
      },
    },
    async (request) => success('Webhook endpoint disabled', presentEndpoint(await app.webhooks.disable(scopeOf(request), request.params.endpointId))),
  );

  app.get(
    '/checkout/webhooks/:endpointId/deliveries',
    {
      config: { auth: 'secret' },
      schema: {
        summary: "List a webhook endpoint's deliveries",
        description: 'The latest deliveries, newest first, each with its log of attempts (status code or error, latency, time).',
        tags: TAGS,
        security: SECURITY,
        params: endpointParams,
        querystring: listDeliveriesQuerySchema,
        response: { 200: webhookDeliveryListResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const deliveries = await app.webhooks.deliveries(scopeOf(request), request.params.endpointId, request.query.limit);
      return success('Operation successful', deliveries.map(presentDelivery));
    },
  );

  app.post(
    '/checkout/webhooks/deliveries/:deliveryId/resend',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: 'Resend a webhook delivery',
        description: 'Sends the same event (same id and body) to the same endpoint again, as a new delivery with its own attempts.',
        tags: TAGS,
        security: SECURITY,
        params: deliveryParams,
        response: { 200: webhookDeliveryResponseSchema, ...errors },
      },
    },
    async (request) => success('Webhook delivery queued', presentDelivery(await app.webhooks.resend(scopeOf(request), request.params.deliveryId))),
  );
};

export default routes;
