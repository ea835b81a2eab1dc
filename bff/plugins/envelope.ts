import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode, ErrorEnvelope } from '../../shared/envelope.ts';
import { AppError, isAppError } from '../errors.ts';

/**
 * One place turns every failure into the protocol.md envelope: our own errors, Fastify's (bad JSON, oversize
 * bodies, wrong content type, validation), unknown routes, wrong methods and anything unexpected. A 5xx
 * carries the request id and nothing about the internals.
 */
const FASTIFY_ERRORS: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_VALIDATION: (error) => new AppError('VAL400', error.message),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('VAL400', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError('VAL400', 'The request body is empty; a JSON object is required.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('VAL400', 'The request body is too large.', { httpStatus: 413 }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('VAL400', 'The Content-Type header must be application/json.', { httpStatus: 415 }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new AppError('VAL400', 'The Content-Length header does not match the body.'),
  FST_ERR_CTP_INVALID_TYPE: () => new AppError('VAL400', 'The Content-Type header is invalid.', { httpStatus: 415 }),
};

const CODE_BY_STATUS: Record<number, ErrorCode> = { 401: 'AUTH401', 403: 'AUTH403', 404: 'NF404', 409: 'CON409', 422: 'IDEM422', 429: 'RATE429' };

/**
 * SQLSTATE 22021 (character not in repertoire): text the database cannot hold, a NUL (U+0000) in practice, which
 * JSON, query strings and form posts can all carry. Whichever field brought it, the request is refused as bad input
 * before anything is stored, never answered as a failure of the service.
 */
const UNSTORABLE_TEXT = '22021';

function toAppError(error: FastifyError): AppError | undefined {
  if (isAppError(error)) return error;
  if ((error as { code?: unknown }).code === UNSTORABLE_TEXT) {
    return new AppError('VAL400', 'The request contains a character that cannot be stored (U+0000); remove it and try again.', { reason: 'invalid_field' });
  }
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return known(error);
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) {
    return new AppError(CODE_BY_STATUS[status] ?? 'VAL400', 'The request could not be processed.', { httpStatus: status });
  }
  return undefined;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorEnvelope = { status: 'failed', statusCode: error.code, message: error.message };
  if (error.reason) body.reason = error.reason;
  if (error.httpStatus >= 500) body.requestId = reply.request.id;
  return reply.code(error.httpStatus).headers(error.headers).type('application/json; charset=utf-8').send(body);
}

/**
 * Every 5xx: ERR500, a generic message and the request id to quote (HTTP 500 for a failure, 503 for readiness
 * and shutdown, where the precise status helps load balancers).
 */
export function sendServerError(request: FastifyRequest, reply: FastifyReply, options: { httpStatus?: number; message?: string } = {}): FastifyReply {
  const body: ErrorEnvelope = {
    status: 'failed',
    statusCode: 'ERR500',
    message: `${options.message ?? 'An unexpected error occurred.'} Quote request id ${request.id} to support.`,
    requestId: request.id,
  };
  return reply.code(options.httpStatus ?? 500).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers over 16 KiB, a malformed request line, a
 * request too slow to arrive) are answered on the raw socket, still in the envelope, then the socket is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [httpStatus, reasonPhrase, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ status: 'failed', statusCode: 'VAL400', message } satisfies ErrorEnvelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${httpStatus} ${reasonPhrase}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

type RouteEntry = { methods: string[]; pattern: RegExp };

/** The paths a route's URL (`/l/:reference`, `/widget/*`) answers, as a regular expression. */
export function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

export default fp(
  async (app) => {
    const routes: RouteEntry[] = [];
    app.addHook('onRoute', (route) => {
      // CORS preflight answers OPTIONS everywhere; it says nothing about which methods a path serves.
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String).filter((method) => method !== 'OPTIONS');
      if (methods.length === 0) return;
      routes.push({ methods, pattern: routePattern(route.url) });
    });

    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const known = toAppError(error);
      if (known) {
        if (known.httpStatus >= 500) request.log.error({ err: error }, 'request failed');
        return sendError(reply, known);
      }
      request.log.error({ err: error }, 'unexpected error');
      return sendServerError(request, reply);
    });

    // Fastify's own answer during shutdown is not the envelope, so the app gives its own: requests still arriving
    // on open connections while the server drains are told to retry elsewhere.
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!closing) return;
      reply.header('connection', 'close').header('retry-after', '1');
      return sendServerError(request, reply, { httpStatus: 503, message: 'The service is shutting down; retry the request.' });
    });

    app.setNotFoundHandler((request, reply) => {
      const path = (request.url.split('?')[0] ?? '/').slice(0, 200);
      const allowed = [...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods))];
      // A route that takes this method but found nothing (a file missing from the widget's build) is a 404, not a 405.
      if (allowed.includes(request.method) || (request.method === 'HEAD' && allowed.includes('GET'))) {
        return sendError(reply, new AppError('NF404', `Nothing was found at ${path}.`));
      }
      if (allowed.length > 0) {
        return sendError(
          reply,
          new AppError('NF404', `The method ${request.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`, {
            httpStatus: 405,
            headers: { allow: allowed.join(', ') },
          }),
        );
      }
      return sendError(reply, new AppError('NF404', `No endpoint answers ${request.method} ${path}.`));
    });
  },
  { name: 'envelope' },
);
