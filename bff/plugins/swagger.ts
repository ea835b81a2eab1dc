import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };
const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_ENVELOPE } } });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

/**
 * Answers the envelope gives on any route, documented once here rather than on every route: every route can meet
 * a wrong method or an unexpected failure; a route with a body can meet a bad, oversize or mistyped body; an
 * encrypted body can find the RSA pool full.
 */
const EVERY_ROUTE = {
  405: error('Wrong method on this path: NF404 with an Allow header.'),
  500: error('Unexpected failure: ERR500 with a generic message and the requestId to quote.'),
};
const WITH_BODY = {
  400: error('A field is invalid (VAL400; the message names the field), or the body is not JSON.'),
  413: error('The body is over 64 KiB (VAL400).'),
  415: error('The Content-Type is not one this route reads (application/json for the API) (VAL400).'),
};
const ENCRYPTED = { 429: error('Too many requests: decryption capacity is full (RATE429, Retry-After: 1).') };
/** Routes that take an Idempotency-Key (route config `idempotent`): the header, and the two answers it adds. */
const IDEMPOTENT = {
  409: error(
    'The request conflicts with the resource state (CON409), or a request with this Idempotency-Key is still running (CON409, Retry-After: 1).',
  ),
  422: error('This Idempotency-Key was already used for another request (another operation or body) in the last 24 hours (IDEM422).'),
};
const IDEMPOTENCY_KEY_HEADER = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Optional, 1 to 255 printable ASCII characters, unique per operation (a UUID). The same key with the same request ' +
    'within 24 hours (per merchant and mode) answers the first response again (status and body, 5xx included), ' +
    'with the header `Idempotent-Replayed: true`; with another request IDEM422; while the first still runs CON409.',
};

/** How to try an encrypted endpoint from the documentation page, added to each one's description. */
const TRY_ENCRYPTED =
  '**Trying it out here**: the body is `{"data": "<ciphertext>"}`, not the plain JSON. With a test key, send the plain ' +
  'JSON (the schema named above; its example is filled in) to `POST /checkout/sandbox/encrypt`, then send the `data` object ' +
  'of its answer here with the same key.';

/** Routes that answer HTML or redirects, which the zod response schemas cannot describe. */
const PAGE_RESPONSES: Record<string, Record<string, unknown>> = {
  'GET /checkout/3ds/:paymentReference': {
    200: html('The authentication page, or a notice that the payment no longer awaits authentication.'),
    404: html('No payment awaits authentication under this reference.'),
  },
  'POST /checkout/3ds/:paymentReference': {
    303: {
      description:
        'The answer that finishes the authentication: the return address (Location) with `reference` and `status`. ' +
        'A wrong code with tries left, or any answer once the authentication has finished: the page again ' +
        '(Location is this address; the page shows the attempts left, or that it is finished).',
      type: 'null',
    },
    404: html('No payment awaits authentication under this reference.'),
  },
  'GET /l/:reference': {
    200: html('The form for the customer, or the checkout of the order `order` names.'),
    404: html('No such link, or no such order of this link.'),
    410: html('The link is inactive or used up.'),
  },
  'POST /l/:reference': {
    303: {
      description:
        "The order is made: its address (Location `/l/{reference}?order=...`). Fields in error: the form's address " +
        'with `invalid` naming them (never their values).',
      type: 'null',
    },
    404: html('No such link.'),
    410: html('The link is inactive or used up.'),
  },
};

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type Transformed = { schema: Record<string, unknown>; url: string };

function documentResponses(input: TransformInput): Transformed {
  const result = jsonSchemaTransform(input) as Transformed;
  const { schema } = result;
  if (schema.hide) return result;
  const method = String(Array.isArray(input.route.method) ? input.route.method[0] : input.route.method);
  const body = schema.body as { $ref?: string } | undefined;
  const encrypted = body?.$ref?.endsWith('/EncryptedBodyInput') ?? false;
  const idempotent = Boolean(input.route.config?.idempotent);
  if (idempotent) {
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties: Record<string, unknown> };
    headers.properties['Idempotency-Key'] = IDEMPOTENCY_KEY_HEADER;
    schema.headers = headers;
  }
  if (encrypted) schema.description = `${String(schema.description ?? '')}\n\n${TRY_ENCRYPTED}`;
  schema.response = {
    ...PAGE_RESPONSES[`${method} ${input.route.url}`],
    ...(schema.response as Record<string, unknown> | undefined),
    // After the route's own: its 409 gains the idempotency meaning in the description, with the same envelope.
    ...(idempotent ? IDEMPOTENT : {}),
    ...EVERY_ROUTE,
    // Fastify reads the body of any POST, so even a route without a body schema can meet 413 and 415.
    ...(body || method === 'POST' ? WITH_BODY : {}),
    ...(encrypted ? ENCRYPTED : {}),
  };
  return result;
}

/**
 * The type provider emits each registered schema twice: `XInput` (what a client sends) and `X` (what the server
 * emits after transforms). A request schema's `X` describes nothing a client sees (a transformed currency renders
 * as `{}`; unknown keys look refused), so where `X` is no response's schema it becomes the input one, under the
 * name the route descriptions use.
 */
function preferInputSchemas(document: Record<string, unknown>): Record<string, unknown> {
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const refsIn = (value: unknown) => [...JSON.stringify(value ?? null).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  const paths = (document.paths ?? {}) as Record<string, Record<string, { responses?: unknown }>>;
  const used = new Set<string>();
  const pending = Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((operation) => refsIn(operation.responses)));
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...refsIn(schemas[name]));
  }
  const renamed = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    const base = name.replace(/Input$/, '');
    if (base !== name && base in schemas && !used.has(base)) renamed.set(name, base);
  }
  for (const [input, base] of renamed) {
    schemas[base] = schemas[input];
    delete schemas[input];
  }
  const text = JSON.stringify(document).replace(/#\/components\/schemas\/([A-Za-z0-9_]+)"/g, (whole, name: string) => {
    const base = renamed.get(name);
    return base ? `#/components/schemas/${base}"` : whole;
  });
  return JSON.parse(text) as Record<string, unknown>;
}

/** OpenAPI generated from the routes' zod schemas: JSON at /docs/json, the UI at /docs. */
export default fp<{ publicBaseUrl: string }>(
  async (app, { publicBaseUrl }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Checkout API',
          description: 'The checkout wire contract: payment links, orders, payments, fees and verification.',
          version: '1.0.0',
        },
        servers: [{ url: publicBaseUrl }],
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'api-key' },
            // `checkout_session` outside production; state-changing calls also send `x-csrf-token`.
            teamSession: { type: 'apiKey', in: 'cookie', name: '__Host-checkout_session' },
          },
        },
      },
      transform: documentResponses as never,
      transformObject: (document) => preferInputSchemas(jsonSchemaTransformObject(document) as Record<string, unknown>) as never,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger' },
);
