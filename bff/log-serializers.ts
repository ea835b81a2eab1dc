import type { FastifyRequest } from 'fastify';

/**
 * What a log line may say about a request or an error. Logs are read by more people, and kept longer, than
 * the database: no query string (a client may put its key there), no capability in a path (link references,
 * frame session tokens, 3-D Secure payment references), and no bind values or SQL from a storage error (they
 * carry customer data).
 */

/** Paths whose next segment is a capability: whoever holds it can open the page (a link, a frame, a 3-D Secure payment). */
const CAPABILITY_PATHS = /^(\/l|\/checkout\/frame|\/checkout\/3ds)\/[^/]+/;

/** A link's subscriptions asked for by the link's reference (the same capability as `/l/{reference}`), not its id. */
const LINK_SUBSCRIPTIONS_BY_REFERENCE = /^\/checkout\/links\/(?!\d+\/)[^/]+\/subscriptions$/;

export function loggablePath(url: string): string {
  const path = url.split('?')[0]!.split('#')[0]!;
  return path.replace(CAPABILITY_PATHS, '$1/***').replace(LINK_SUBSCRIPTIONS_BY_REFERENCE, '/checkout/links/***/subscriptions').slice(0, 200);
}

export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggablePath(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Storage drivers (pg, PGlite) attach the statement and its parameters to their errors. */
function isDriverError(error: Record<string, unknown>): boolean {
  return 'params' in error || 'query' in error || 'severity' in error || 'routine' in error;
}

/** Name, message and code; the stack only for our own errors, whose frames hold no data. */
export function serializeError(error: unknown): Record<string, unknown> {
  if (error === null || typeof error !== 'object') return { message: String(error).slice(0, 200) };
  const fields = error as Record<string, unknown>;
  const safe: Record<string, unknown> = {
    type: typeof fields.name === 'string' ? fields.name : 'Error',
    message: typeof fields.message === 'string' ? fields.message.slice(0, 500) : undefined,
  };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') safe.code = fields.code;
  if (isDriverError(fields)) {
    // SQLSTATE context that names the schema object, never the values.
    for (const key of ['severity', 'table', 'column', 'constraint', 'routine'] as const) {
      if (typeof fields[key] === 'string') safe[key] = fields[key];
    }
  } else if (typeof fields.stack === 'string') {
    safe.stack = fields.stack;
  }
  return safe;
}
