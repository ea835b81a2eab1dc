import fp from 'fastify-plugin';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import { routePattern } from './envelope.ts';

/**
 * Browser calls with a publishable key may come from a merchant's page. Keys travel in a header, never in
 * cookies, so credentials are not allowed and the allowed headers are exactly the ones the API reads.
 *
 * Only what a merchant's page needs is open to other origins: the API routes (those with `config.auth`) and the
 * widget's files (embed.js is loaded with `crossorigin` for its integrity hash). Pages for people (payment link,
 * 3-D Secure, result, frame, demo, docs) never name another origin, so no other site can read them.
 */
const OPEN: FastifyCorsOptions = {
  origin: true,
  methods: ['GET', 'POST'],
  allowedHeaders: ['api-key', 'content-type', 'idempotency-key', 'checkout-client-token', 'checkout-customer-session'],
  exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed'],
  credentials: false,
  maxAge: 600,
};
const CLOSED: FastifyCorsOptions = { ...OPEN, origin: false };

const WIDGET_FILES = /^\/(widget\/|embed\.js$)/;

export default fp(
  async (app) => {
    const apiPaths: RegExp[] = [];
    app.addHook('onRoute', (route) => {
      // The dashboard's own calls (`session`) are same-origin only: no other site is ever told it may read them.
      if (route.config && 'auth' in route.config && route.config.auth && route.config.auth !== 'session') apiPaths.push(routePattern(route.url));
    });
    const isOpen = (request: FastifyRequest): boolean => {
      const path = request.url.split('?')[0]!;
      if (WIDGET_FILES.test(path)) return true;
      // A preflight is answered by CORS's own OPTIONS route: what counts is the route it asks about.
      if (request.method === 'OPTIONS') return apiPaths.some((pattern) => pattern.test(path));
      const auth = request.routeOptions.config.auth;
      return Boolean(auth) && auth !== 'session';
    };

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
      delegator: (request, callback) => callback(null, isOpen(request as FastifyRequest) ? OPEN : CLOSED),
    });
  },
  { name: 'cors', dependencies: ['envelope'] },
);
