import type { z } from 'zod';
import type { ErrorCode } from '../envelope.ts';
import type { AuditAction } from './audit-actions.ts';
import type { Permission } from './permissions.ts';

/**
 * One endpoint of the API as data: what a server registers and what a client calls. Both sides read the same
 * object, so a path, a schema or an error code is written once (the shape ts-rest gives its contracts).
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call: any api-key of the merchant (`any`); its secret key or a signed-in team member holding the
 * endpoint's `permission` (`secret`); only a signed-in team member (`session`: the dashboard's own calls); or
 * anyone (`none`: sign-in, accepting an invitation).
 */
export type EndpointAuth = 'any' | 'secret' | 'session' | 'none';

export type Endpoint<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Success extends z.ZodType = z.ZodType,
> = {
  readonly method: HttpMethod;
  /** Fastify's path syntax: `/checkout/orders/:reference`. */
  readonly path: string;
  readonly auth: EndpointAuth;
  /** What a team member's role must allow (`bff/domain/roles.ts`); without it any signed-in member may call. */
  readonly permission?: Permission;
  /**
   * A team member must have proved a second factor within the last minutes (`POST /checkout/team/step-up`), else
   * `AUTH403` with reason `step_up_required`; the call is then recorded in the audit log as `audit`.
   */
  readonly stepUp?: { audit: AuditAction };
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly params: Params;
  readonly query: Query;
  readonly body: Body;
  /** The 200 answer; `text/csv` answers declare `produces` and a string schema. */
  readonly success: Success;
  readonly produces?: 'application/json' | 'text/csv';
  /** The error envelopes it may answer besides the ones every endpoint may (401, 403, 429 and 500). */
  readonly errors: readonly ErrorCode[];
};

type Definition<P, Q, B, S> = {
  method: HttpMethod;
  path: string;
  auth: EndpointAuth;
  permission?: Permission;
  stepUp?: { audit: AuditAction };
  summary: string;
  description: string;
  tags: readonly string[];
  params?: P;
  query?: Q;
  body?: B;
  success: S;
  produces?: 'application/json' | 'text/csv';
  errors?: readonly ErrorCode[];
};

export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  S extends z.ZodType = z.ZodType,
>(definition: Definition<P, Q, B, S>): Endpoint<P, Q, B, S> {
  return {
    ...definition,
    params: definition.params as P,
    query: definition.query as Q,
    body: definition.body as B,
    errors: definition.errors ?? [],
  };
}

/** The parsed input a handler receives for an endpoint. */
export type Input<E extends Endpoint> = {
  params: E['params'] extends z.ZodType ? z.output<E['params']> : undefined;
  query: E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
  body: E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
};

/** What a handler returns for an endpoint (before serialisation). */
export type Output<E extends Endpoint> = z.input<E['success']>;

/** `/checkout/orders/:reference` with `{ reference: 'A/1' }` is `/checkout/orders/A%2F1`. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
