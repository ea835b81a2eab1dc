import fp from 'fastify-plugin';
import cors from '@fastify/cors';

/**
 * Browser calls with a publishable key may come from a merchant's page. Keys travel in a header, never in
 * cookies, so credentials are not allowed and the allowed headers are exactly the ones the API reads.
 */
export default fp(
  async (app) => {
    await app.register(cors, {
      origin: true,
      methods: ['GET', 'POST'],
      allowedHeaders: ['api-key', 'content-type', 'idempotency-key'],
      exposedHeaders: ['x-request-id', 'retry-after'],
      credentials: false,
      maxAge: 600,
    });
  },
  { name: 'cors' },
);
