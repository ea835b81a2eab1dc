import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { app as checkout, serverOptions } from '../../bff/app.ts';
import { cleanPlace, newPlace, startApp, testConfig, useTestApp } from '../support/app.ts';
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

  it('answers a file missing from the widget with 404, not a 405 that allows the method it refused', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: '/widget/assets/no-such-file.js' });
      expect(response.statusCode).toBe(404);
      expect(response.headers.allow).toBeUndefined();
    }
    const response = await app.inject({ method: 'GET', url: '/widget/assets/no-such-file.js' });
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'NF404', message: 'Nothing was found at /widget/assets/no-such-file.js.' });
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
    // Form posts are for the hosted pages only.
    const form = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'Name=x',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400' });
  });

  it('answers an undecodable or oversize address with VAL400 in the envelope', async () => {
    const bad = await app.inject({ method: 'GET', url: '/l/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The address is not a valid URL.' });
    const long = await app.inject({ method: 'GET', url: `/checkout/frame/${'a'.repeat(1500)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The address is too long.' });
  });

  it('answers an OPTIONS request that is not a CORS preflight in the envelope', async () => {
    const unknown = await app.inject({ method: 'OPTIONS', url: '/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 'failed', statusCode: 'NF404', message: 'No endpoint answers OPTIONS /nope.' });
    const known = await app.inject({ method: 'OPTIONS', url: '/checkout/links/create' });
    expect(known.statusCode).toBe(405);
    expect(known.headers.allow).toBe('POST');
    expect(known.json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/checkout/links/create',
      headers: { origin: 'https://shop.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.test');
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
      expect(ready.json()).toMatchObject({ status: 'failed', statusCode: 'ERR500', requestId: ready.headers['x-request-id'] });
      expect(ready.json().message).toContain(ready.headers['x-request-id']);
    } finally {
      await app.close().catch(() => {});
      await cleanPlace(place);
    }
  });
});

/** Sends raw bytes to a listening app, then more once `next` resolves; resolves with all it answers until it closes. */
function exchange(port: number, request: string, next?: Promise<string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request);
      void next?.then((more) => socket.write(more));
    });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.lastIndexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('answers given outside the routes', () => {
  it('refuses headers over 16 KiB with 431 in the envelope', async () => {
    const place = newPlace('pglite');
    const app = await startApp(place);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const response = await exchange(port, `GET /checkout/frequencies HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: ${'k'.repeat(20_000)}\r\n\r\n`);
      expect(response).toMatch(/^HTTP\/1\.1 431 /);
      expect(response).toMatch(/content-type: application\/json/i);
      expect(bodyOf(response)).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The request headers are too large.' });
    } finally {
      await app.close();
      await cleanPlace(place);
    }
  });

  it('answers a request that arrives during shutdown with ERR500 and a request id', async () => {
    const place = newPlace('pglite');
    const config = testConfig(place);
    const app = Fastify(serverOptions(config));
    await app.register(fp(checkout, { name: 'checkout' }), { config });
    // A request in flight keeps its connection open while the server drains; the next one on it arrives late.
    let release = () => {};
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    app.get('/test/slow', { schema: { hide: true } }, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return { status: 'success', statusCode: '00', message: 'Slow', data: null };
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      // The second request goes down the same connection once the server has begun to close.
      let closing = (_request: string) => {};
      const afterClose = new Promise<string>((resolve) => (closing = resolve));
      const answered = exchange(port, 'GET /test/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', afterClose);
      await inFlight;
      const closed = app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      closing('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      const response = await answered;
      await closed;
      const late = response.slice(response.indexOf('HTTP/1.1', 1));
      expect(late).toMatch(/^HTTP\/1\.1 503 /);
      const requestId = /x-request-id: ([0-9a-f-]{36})/i.exec(late)?.[1];
      expect(requestId).toBeDefined();
      const body = bodyOf(late);
      expect(body).toMatchObject({ status: 'failed', statusCode: 'ERR500', requestId });
      expect(body.message).toContain(requestId);
    } finally {
      release();
      await app.close().catch(() => {});
      await cleanPlace(place);
    }
  });
});
