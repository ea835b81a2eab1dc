import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

/**
 * Fastify builds a request and a reply class for each encapsulation context. The API's endpoints share one, so the
 * framework's functions every request runs through see one shape of object whichever endpoint the traffic is on
 * (docs/decisions.md, "One request and reply shape for the API"). Fastify reports each handler it starts, with its
 * request and reply, on its `fastify.request.handler` tracing channel.
 */
describe('the request and reply objects of the API', () => {
  const context = useTestApp('pglite');
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let client: CheckoutClient;
  const seen: { route: string; request: object; reply: object }[] = [];
  /** Fastify publishes each handler it starts on its tracing channel's start event. */
  const HANDLER_START = 'tracing:fastify.request.handler:start';
  const onHandlerStart = (message: unknown) => {
    const { request, reply, route } = message as { request: object; reply: object; route: { url: string; method: string } };
    seen.push({ route: `${route.method} ${route.url}`, request: Object.getPrototypeOf(request), reply: Object.getPrototypeOf(reply) });
  };

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
    client = new CheckoutClient(app, keys);
    subscribe(HANDLER_START, onHandlerStart);
  });

  afterAll(() => unsubscribe(HANDLER_START, onHandlerStart));

  it('are of one class on every endpoint, whichever module declares it', async () => {
    const reference = await client.newOrder();
    const answers = [
      await app.inject({ method: 'GET', url: '/health' }),
      await app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': keys.publishableKey } }),
      await client.post('/checkout/order/status', { reference }),
      await client.post('/checkout/order/fee', { reference, amount: 5000, paymentoption: 'C' }),
      await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': keys.secretKey }, payload: { reference } }),
      await app.inject({ method: 'GET', url: '/checkout/links/all', headers: { 'api-key': keys.secretKey } }),
    ];
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

    const routes = new Set(seen.map((handled) => handled.route));
    for (const route of ['GET /health', 'GET /checkout/keys', 'POST /checkout/order/create', 'POST /checkout/order/status', 'POST /checkout/order/fee', 'POST /checkout/order/verify', 'GET /checkout/links/all']) {
      expect(routes).toContain(route);
    }
    expect(new Set(seen.map((handled) => handled.request)).size).toBe(1);
    expect(new Set(seen.map((handled) => handled.reply)).size).toBe(1);
  });
});
