import type { z } from 'zod';
import { pathOf, type Endpoint } from '../../shared/contract/endpoint.ts';

/**
 * The dashboard's one way to the API: `call(endpoint, input)` over the contract's endpoint objects
 * (shared/contract/), on the same origin with the session cookie (`credentials: 'same-origin'`), the CSRF token in a
 * header on every call that is not a GET, and every answer parsed at the boundary by the endpoint's own schema, so
 * a screen only ever sees data of the contract's type. A 401 means the session is gone: the client reports it
 * (the shell sends the user to the sign-in screen) and the call fails with an `ApiError`.
 *
 * Free of zod at run time: the schemas come with the endpoint objects, which only the screens import, so the
 * shell's bundle holds no schema library.
 */

/** The header the CSRF token travels in (the token comes from the session's "me" answer: api/session.ts). */
export const CSRF_HEADER = 'x-csrf-token';
/** The header that says which data a call is about, test or live (the shell's switch). */
export const MODE_HEADER = 'checkout-mode';

/** What a caller gives for an endpoint: its path parameters, query and body, as the schemas accept them. */
export type CallInput<E extends Endpoint> = {
  params?: E['params'] extends z.ZodType ? z.input<E['params']> : never;
  query?: E['query'] extends z.ZodType ? Partial<z.input<E['query']>> : never;
  body?: E['body'] extends z.ZodType ? z.input<E['body']> : never;
  signal?: AbortSignal | undefined;
};

/** The `data` of an endpoint's success envelope. */
export type DataOf<E extends Endpoint> = z.output<E['success']> extends { data: infer D } ? D : z.output<E['success']>;

/** A refused or failed call: the envelope's code and reason when the server sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  /** The session's current CSRF token, read at each call (it changes when the session does). */
  csrfToken?: () => string | undefined;
  /** The mode every call is about (`checkout-mode`); the server's default (test) without one. */
  mode?: () => 'test' | 'live' | undefined;
  /** Called on a 401 before the call fails. */
  onUnauthorized?: () => void;
}

/** A query object as the API reads it: arrays comma-separated, dates ISO 8601, empty values left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) parameters.set(name, value.join(','));
    } else parameters.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}

export class ApiClient {
  readonly #fetch: typeof fetch;
  readonly #options: ApiClientOptions;

  constructor(options: ApiClientOptions = {}) {
    this.#options = options;
    // Read at each call, so a stubbed `fetch` (tests) is seen.
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The address of a GET endpoint for this input: links (the CSV export) that the browser follows itself. */
  href<E extends Endpoint>(endpoint: E, input: Omit<CallInput<E>, 'body' | 'signal'> = {}): string {
    return pathOf(endpoint.path, (input.params ?? {}) as Record<string, string>) + queryString(input.query as Record<string, unknown> | undefined);
  }

  async call<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<DataOf<E>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const mode = this.#options.mode?.();
    if (mode) headers[MODE_HEADER] = mode;
    if (endpoint.method !== 'GET') {
      const token = this.#options.csrfToken?.();
      if (token) headers[CSRF_HEADER] = token;
    }
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.#fetch(this.href(endpoint, input), {
        method: endpoint.method,
        credentials: 'same-origin',
        headers,
        ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (error) {
      if (input.signal?.aborted) throw error;
      throw new ApiError(0, 'NETWORK', undefined, 'The service could not be reached.');
    }
    if (response.status === 401) this.#options.onUnauthorized?.();
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const envelope = (typeof answer === 'object' && answer !== null ? answer : {}) as { statusCode?: unknown; reason?: unknown; message?: unknown };
      throw new ApiError(
        response.status,
        typeof envelope.statusCode === 'string' ? envelope.statusCode : `HTTP${response.status}`,
        typeof envelope.reason === 'string' ? envelope.reason : undefined,
        typeof envelope.message === 'string' ? envelope.message : `The service answered ${response.status}.`,
      );
    }
    const parsed = endpoint.success.safeParse(answer);
    if (!parsed.success) throw new ApiError(response.status, 'INVALID_ANSWER', undefined, 'The service sent an answer this dashboard does not understand.');
    const value = parsed.data as { data?: unknown };
    return (typeof value === 'object' && value !== null && 'data' in value ? value.data : value) as DataOf<E>;
  }
}
