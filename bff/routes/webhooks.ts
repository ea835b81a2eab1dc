import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as webhooks from '../../shared/contract/webhooks.ts';
import { auditTarget, callerOf } from '../plugins/auth.ts';
import { presentDelivery, presentEndpoint } from '../presenters/webhooks.ts';
import type { WebhookScope } from '../services/webhooks.ts';
import { ok, route } from './register.ts';

const scopeOf = (request: FastifyRequest): WebhookScope => {
  const caller = callerOf(request);
  return { merchantId: caller.merchant.id, mode: caller.mode };
};

/**
 * Webhook endpoints of the caller's merchant and mode (`shared/contract/webhooks.ts`): the secret key, or a member
 * holding `webhooks.write`, with a fresh second factor for every change of an endpoint. Create and rotate answer
 * the signing secret once and ignore `Idempotency-Key` (a stored answer would keep the secret in the clear).
 */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, webhooks.createWebhookEndpoint, async ({ body }, request) => {
    const { endpoint, secret } = await app.webhooks.create(scopeOf(request), body.url, body.eventTypes ?? null);
    auditTarget(request, `webhook:${endpoint.id}`);
    return ok({ ...presentEndpoint(endpoint), secret }, 'Webhook endpoint created successfully');
  });

  route(app, webhooks.listWebhookEndpoints, async (_input, request) => ok((await app.webhooks.list(scopeOf(request))).map(presentEndpoint)));

  route(app, webhooks.updateWebhookEndpoint, async ({ params, body }, request) => {
    auditTarget(request, `webhook:${params.endpointId}`);
    return ok(presentEndpoint(await app.webhooks.update(scopeOf(request), params.endpointId, body)), 'Webhook endpoint updated');
  });

  route(app, webhooks.rotateWebhookSecret, async ({ params, body }, request) => {
    const { endpoint, secret } = await app.webhooks.rotateSecret(scopeOf(request), params.endpointId, body.overlapHours);
    auditTarget(request, `webhook:${endpoint.id} overlap ${body.overlapHours}h`);
    return ok({ ...presentEndpoint(endpoint), secret }, 'Webhook secret rotated successfully');
  });

  route(
    app,
    webhooks.disableWebhookEndpoint,
    async ({ params }, request) => {
      auditTarget(request, `webhook:${params.endpointId}`);
      return ok(presentEndpoint(await app.webhooks.disable(scopeOf(request), params.endpointId)), 'Webhook endpoint disabled');
    },
    { idempotent: true },
  );

  route(app, webhooks.enableWebhookEndpoint, async ({ params }, request) => {
    auditTarget(request, `webhook:${params.endpointId}`);
    return ok(presentEndpoint(await app.webhooks.enable(scopeOf(request), params.endpointId)), 'Webhook endpoint enabled');
  });

  route(app, webhooks.deleteWebhookEndpoint, async ({ params }, request) => {
    await app.webhooks.delete(scopeOf(request), params.endpointId);
    auditTarget(request, `webhook:${params.endpointId}`);
    return ok({ id: params.endpointId, deleted: true as const }, 'Webhook endpoint deleted');
  });

  route(app, webhooks.sendTestWebhook, async ({ params }, request) => ok(presentDelivery(await app.webhooks.sendTest(scopeOf(request), params.endpointId)), 'Test event queued'));

  route(app, webhooks.listWebhookDeliveries, async ({ params, query }, request) =>
    ok((await app.webhooks.deliveries(scopeOf(request), params.endpointId, query.limit, query.status)).map(presentDelivery)),
  );

  route(
    app,
    webhooks.resendWebhookDelivery,
    async ({ params }, request) => ok(presentDelivery(await app.webhooks.resend(scopeOf(request), params.deliveryId)), 'Webhook delivery queued'),
    { idempotent: true },
  );
}

export default fp(routes, { name: 'webhooks' });
