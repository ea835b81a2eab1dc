import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, newPlace, startApp, useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

/** These behaviours do not depend on the storage driver, so they run on the default one. */
describe('the error envelope', () => {
  const context = useTestApp('pglite');
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('answers an unknown route with NF404 in the envelope', async () => {
    const response = await app.inject({ method: 'GET', url: '/checkout/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'NF404', message: 'No endpoint answers GET /checkout/nothing-here.' });
  });

  it('answers a wrong method with 405, an Allow header and the envelope', async () => {
    const response = await app.inject({ method: 'GET', url: '/checkout/links/create' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
  });

  it('answers malformed JSON with VAL400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
      payload: '{"Name": "half',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The request body is not valid JSON.' });
  });

  it('answers a JSON body that is not an object with VAL400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
      payload: '[1,2,3]',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The request body must be a JSON object.' });
  });

  it('answers an oversize body with 413 and VAL400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ Name: 'x'.repeat(200_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The request body is too large.' });
  });

  it('answers an unsupported content type with 415 and VAL400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/xml' },
      payload: '<Name>x</Name>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400' });
  });

  it('answers an undecodable or oversize address with VAL400 in the envelope', async () => {
    const bad = await app.inject({ method: 'GET', url: '/l/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The address is not a valid URL.' });
    const long = await app.inject({ method: 'GET', url: `/checkout/frame/${'a'.repeat(1500)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The address is too long.' });
  });

  it('gives every response a request id header', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unexpected failures', () => {
  it('answer ERR500 with a request id and no internals, and /ready reports the storage outage', async () => {
    const place = newPlace('pglite');
    const app = await startApp(place);
    const keys = await createMerchant(app);
    // Authenticate first, then take storage away so the link insert itself fails.
    await app.storage.close();
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': keys.secretKey },
        payload: { Name: 'n', Description: 'd', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH' },
      });
      expect(response.statusCode).toBe(500);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['message', 'requestId', 'status', 'statusCode']);
      expect(body).toMatchObject({ status: 'failed', statusCode: 'ERR500' });
      expect(body.requestId).toBe(response.headers['x-request-id']);
      expect(body.message).toContain(body.requestId);
      expect(response.body).not.toMatch(/at \w+ \(|PGlite|closed|stack/i);

      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'failed', statusCode: 'ERR500' });
    } finally {
      await app.close().catch(() => {});
      await cleanPlace(place);
    }
  });
});
