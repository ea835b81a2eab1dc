import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';

describe.each(drivers)('health, readiness and API documentation on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;

  beforeAll(async () => {
    app = context.app;
  });

  it('reports alive and ready while storage answers', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'success', data: { status: 'ok' } });
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
  });

  it('publishes an OpenAPI document generated from the schemas, and a UI', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/checkout/frequencies',
        '/checkout/links/create',
        '/checkout/keys',
        '/checkout/order/create',
        '/checkout/order/pay',
        '/checkout/order/status',
        '/checkout/order/fee',
        '/checkout/order/event/track',
        '/checkout/order/verify',
        '/checkout/sandbox/transfers',
        '/checkout/3ds/{paymentReference}',
        '/health',
        '/ready',
      ]),
    );
    // The plain payloads that travel encrypted are documented as components too.
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['CreateOrderPlain', 'PayOrderPlain', 'FeeQueryPlain', 'TrackEventPlain']));
    const body = document.paths['/checkout/links/create'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.required).toEqual(expect.arrayContaining(['Name', 'Description', 'PaymentType', 'Currency', 'AuthOption']));
    const ui = await app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
