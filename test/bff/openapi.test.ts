import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { useTestApp } from '../support/app.ts';
import { customerSessionRequestSchema } from '../../shared/customers.ts';
import { trackEventPlainSchema } from '../../shared/events.ts';
import { feePlainSchema } from '../../shared/fees.ts';
import { createLinkRequestSchema, editLinkRequestSchema } from '../../shared/links.ts';
import { createOrderPlainSchema, referencePlainSchema } from '../../shared/orders.ts';
import { payOrderPlainSchema } from '../../shared/payments.ts';
import { simulateTransferRequestSchema } from '../../shared/sandbox.ts';
import { verifyRequestSchema } from '../../shared/verify.ts';
import { createWebhookEndpointRequestSchema } from '../../shared/webhooks.ts';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Record<string, unknown>> } };

/** The OpenAPI document at /docs/json tells a client what the API really accepts and answers. */
describe('the OpenAPI document', () => {
  const context = useTestApp('pglite');
  let document: Document;

  beforeAll(async () => {
    const response = await context.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json() as Document;
  });

  it('describes the payment link request as clients may send it', () => {
    const request = document.components.schemas.CreatePaymentLinkRequest!;
    expect(request.additionalProperties).not.toBe(false);
    const properties = request.properties as Record<string, Record<string, unknown>>;
    expect(properties.Currency).toMatchObject({ type: 'string' });
    for (const field of ['Amount', 'Limit']) {
      const types = (properties[field]!.anyOf as { type: string }[]).map((option) => option.type);
      expect(types.sort()).toEqual(['number', 'string']);
    }
    expect(document.paths['/checkout/links/create']!.post!.responses['200']).toBeDefined();
  });

  it('documents the rate limit on every encrypted order endpoint', () => {
    for (const path of ['/checkout/order/create', '/checkout/order/status', '/checkout/order/event/track', '/checkout/order/fee', '/checkout/order/pay']) {
      expect(Object.keys(document.paths[path]!.post!.responses), path).toContain('429');
    }
  });

  it('documents the envelope errors every route can give', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const codes = Object.keys(operation.responses);
        expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['405', '500']));
        if (method === 'post') expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['400', '413', '415']));
      }
    }
    expect(document.paths['/checkout/order/verify']!.post!.responses['500']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('documents the Idempotency-Key header, IDEM422 and the running CON409 on every route that changes something, and on no read', () => {
    type Parameter = { in: string; name: string; required: boolean; schema: Record<string, unknown> };
    const operation = (path: string) => document.paths[path]!.post! as Operation & { parameters?: Parameter[] };
    for (const path of ['/checkout/order/create', '/checkout/order/pay', '/checkout/order/event/track', '/checkout/order/refund', '/checkout/links/create', '/checkout/sandbox/transfers']) {
      const header = operation(path).parameters?.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
      expect(header, path).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      expect(Object.keys(operation(path).responses), path).toEqual(expect.arrayContaining(['409', '422']));
      expect(operation(path).responses['422']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      expect((operation(path).responses['409'] as { description: string }).description, path).toContain('Idempotency-Key is still running');
    }
    for (const path of ['/checkout/order/status', '/checkout/order/fee', '/checkout/order/verify']) {
      expect(operation(path).parameters ?? [], path).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
      expect(Object.keys(operation(path).responses), path).not.toContain('422');
    }
  });

  it('documents the refund: the body plain or encrypted, the plain payload, the refund answer and the refusals', () => {
    const operation = document.paths['/checkout/order/refund']!.post! as Operation & { security?: unknown[]; description?: string };
    expect(operation.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '422']));
    expect(operation.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/RefundOrderResponse' });
    expect(Object.keys(document.components.schemas.RefundOrderRequest!.properties as object).sort()).toEqual(['amount', 'data', 'reason', 'reference']);
    expect(document.components.schemas.RefundOrderPlain!.required).toEqual(['reference']);
    expect(operation.description).toContain('RefundOrderPlain');
    expect(document.paths['/checkout/order/verify']!.post!.responses['200']).toBeDefined();
    expect(JSON.stringify(document.components.schemas.VerifiedOrder)).toContain('amountRefunded');
  });

  it('documents the answers of the 3-D Secure form post: redirects (wrong codes included) and the not-found page', () => {
    const responses = document.paths['/checkout/3ds/{paymentReference}']!.post!.responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['303', '404']));
    expect(Object.keys(responses)).not.toContain('422');
    expect(Object.keys(responses['404']!.content!)).toEqual(['text/html']);
  });

  describe('"Try it out"', () => {
    const requests: Record<string, z.ZodType> = {
      CreatePaymentLinkRequest: createLinkRequestSchema,
      EditPaymentLinkRequest: editLinkRequestSchema,
      CreateOrderPlain: createOrderPlainSchema,
      PayOrderPlain: payOrderPlainSchema,
      FeeQueryPlain: feePlainSchema,
      OrderReference: referencePlainSchema,
      TrackEventPlain: trackEventPlainSchema,
      VerifyOrderRequest: verifyRequestSchema,
      SimulateTransferRequest: simulateTransferRequestSchema,
      CustomerSessionRequest: customerSessionRequestSchema,
      CreateWebhookEndpointRequest: createWebhookEndpointRequestSchema,
    };

    it('fills every request body with a realistic example the API accepts, not text made up from the field patterns', () => {
      for (const [name, schema] of Object.entries(requests)) {
        const example = document.components.schemas[name]!.example;
        expect(example, name).toBeDefined();
        const parsed = schema.safeParse(example);
        expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
      const link = document.components.schemas.CreatePaymentLinkRequest!.properties as Record<string, { description?: string; example?: unknown }>;
      for (const [field, property] of Object.entries(link)) {
        expect(property.description, field).toBeTruthy();
        expect(property.example, field).toBeDefined();
      }
      expect(link.Name!.example).toBe('Spring sale');
    });

    it('explains on every encrypted endpoint how to try it, and the helper it names encrypts the plain example into a body the endpoint takes', async () => {
      type Described = Operation & { description?: string };
      for (const path of ['/checkout/order/create', '/checkout/order/pay', '/checkout/order/fee', '/checkout/order/status', '/checkout/order/event/track']) {
        expect((document.paths[path]!.post! as Described).description, path).toContain('POST /checkout/sandbox/encrypt');
      }
      const keys = await context.app.merchants.create({ name: 'Docs Shop', country: 'NG', supportEmail: 'docs@shop.test', allowedOrigins: [] });
      const encrypted = await context.app.inject({
        method: 'POST',
        url: '/checkout/sandbox/encrypt',
        headers: { 'api-key': keys.publishableKey },
        payload: document.components.schemas.CreateOrderPlain!.example as object,
      });
      expect(encrypted.statusCode).toBe(200);
      const body = encrypted.json().data as { data: string };
      expect(body.data.split('.')).toHaveLength(5);
      const created = await context.app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': keys.publishableKey }, payload: body });
      expect(created.json()).toMatchObject({ statusCode: '01', data: { order: { reference: expect.stringContaining('ORDER-1042') } } });

      const link = await context.app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey },
        payload: document.components.schemas.CreatePaymentLinkRequest!.example as object,
      });
      expect(link.json()).toMatchObject({ statusCode: '00', data: { paymentLink: { name: 'Spring sale', amount: 5800.5 } } });
    });

    it('offers the encryption helper in test mode only', async () => {
      const keys = await context.app.merchants.create({ name: 'Live Shop', country: 'NG', supportEmail: 'live@shop.test', allowedOrigins: [] }, 'live');
      const refused = await context.app.inject({ method: 'POST', url: '/checkout/sandbox/encrypt', headers: { 'api-key': keys.publishableKey }, payload: { reference: 'X' } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ status: 'failed', statusCode: 'AUTH403', message: 'The encryption helper exists in test mode only.' });
    });
  });
});
