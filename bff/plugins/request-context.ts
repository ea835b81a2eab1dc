import fp from 'fastify-plugin';
import { runInRequest } from '../request-context.ts';

/**
 * Runs each request's hooks and handler in its request context (bff/request-context.ts), so the jobs it enqueues
 * carry its id. Entered again once the body is read: the body's chunks arrive in the socket's own async context.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => runInRequest(request.id, done));
    app.addHook('preValidation', (request, _reply, done) => runInRequest(request.id, done));
  },
  { name: 'request-context' },
);
