import fp from 'fastify-plugin';
import cors from '@fastify/cors';

/**
 * Browser calls with a publishable key may come from a merchant's page. Keys travel in a header, never in
 * cookies, so credentials are not allowed and the allowed headers are exactly the ones the API reads.
 */
export default fp(
  async (app) => {
    // An OPTIONS request that is not a CORS preflight is an ordinary request for a method nobody serves: it gets
    // the envelope's 405 (known path) or 404, not @fastify/cors's plain-text refusal. Runs before the CORS hook.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method === 'OPTIONS' && (!request.headers.origin || !request.headers['access-control-request-method'])) {
        reply.callNotFound();
        return;
      }
      done();
    });
    await app.register(cors, {
      origin: true,
      methods: ['GET', 'POST'],
      allowedHeaders: ['api-key', 'content-type', 'idempotency-key'],
      exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed'],
      credentials: false,
      maxAge: 600,
    });
  },
  { name: 'cors', dependencies: ['envelope'] },
);
