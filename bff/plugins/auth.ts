import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../domain/merchant.ts';
import { forbidden, unauthenticated } from '../errors.ts';

/**
 * Routes declare who may call them with `config: { auth: 'any' | 'secret' }`. The `api-key` header resolves
 * merchant, mode and key kind before the body is read, so unauthenticated requests cost no parsing.
 */
export type AuthRequirement = 'any' | 'secret';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route has no auth requirement');
  return request.caller;
}

export default fp(
  async (app) => {
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      const requirement = request.routeOptions.config.auth;
      if (!requirement) return;
      const header = request.headers['api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || key.trim() === '') throw unauthenticated('The api-key header is required.');
      const caller = await app.merchants.authenticate(key.trim());
      if (!caller) throw unauthenticated('The api-key is not valid.');
      if (caller.merchant.disabled) throw forbidden('This merchant account is disabled.');
      if (requirement === 'secret' && caller.kind !== 'secret') {
        throw forbidden('This operation needs the secret key; a publishable key was sent.');
      }
      request.caller = caller;
    });
  },
  { name: 'auth', dependencies: ['services'] },
);
