import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, ERROR_CODES, type ErrorCode } from '../../shared/envelope.ts';
import type { Endpoint, Input, Output } from '../../shared/contract/endpoint.ts';
import { invalid } from '../errors.ts';

/**
 * Registers a route from its contract entry (`shared/contract/`): method, path, who may call it, the request
 * schemas and every answer come from the contract, so a route module holds only its handler. The error answers
 * every authenticated endpoint may give (401, 403, 429) are added here, once.
 */
export type Handler<E extends Endpoint> = (input: Input<E>, request: FastifyRequest, reply: FastifyReply) => Promise<Output<E> | FastifyReply>;

const ALWAYS: readonly ErrorCode[] = ['RATE429'];
const AUTHENTICATED: readonly ErrorCode[] = ['AUTH401', 'AUTH403'];

export function errorResponses(endpoint: Endpoint): Record<number, typeof errorEnvelopeSchema> {
  const codes = [...ALWAYS, ...(endpoint.auth === 'none' ? [] : AUTHENTICATED), ...endpoint.errors];
  return Object.fromEntries(codes.map((code) => [ERROR_CODES[code], errorEnvelopeSchema]));
}

/** OpenAPI's security of an endpoint: an api-key, a team session, or either. */
function securityOf(endpoint: Endpoint): Record<string, string[]>[] {
  if (endpoint.auth === 'session') return [{ teamSession: [] }];
  return endpoint.permission ? [{ apiKey: [] }, { teamSession: [] }] : [{ apiKey: [] }];
}

export function route<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: Handler<E>): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      ...(endpoint.auth === 'none' ? {} : { auth: endpoint.auth }),
      ...(endpoint.permission ? { permission: endpoint.permission } : {}),
      ...(endpoint.stepUp ? { stepUp: endpoint.stepUp } : {}),
    },
    schema: {
      summary: endpoint.summary,
      description: endpoint.description,
      tags: [...endpoint.tags],
      ...(endpoint.auth === 'none' ? {} : { security: securityOf(endpoint) }),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.produces === 'text/csv' ? { produces: ['text/csv'] } : {}),
      response: {
        ...(endpoint.produces === 'text/csv' ? {} : { 200: endpoint.success }),
        ...errorResponses(endpoint),
      },
    },
    // A request its schemas refuse is answered here rather than by Fastify's validation error, so the VAL400 carries
    // a reason like every other refusal of this API (auth runs before, on request; no pre-handler is set on these).
    attachValidation: true,
    handler: async (request, reply) => {
      const refused = request.validationError;
      if (refused) throw invalid(refused.message, undefined, refused.validationContext === 'body' ? 'invalid_body' : 'invalid_field');
      return handler({ params: request.params, query: request.query, body: request.body } as Input<E>, request, reply) as Promise<unknown>;
    },
  });
}

/** The success envelope around `data` (`00`). */
export const ok = <T>(data: T, message = 'Operation successful') => ({ status: 'success' as const, statusCode: '00' as const, message, data });
