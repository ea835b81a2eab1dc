import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import {
  PAYMENT_LINK_TYPES,
  createLinkRequestSchema,
  createLinkResponseSchema,
  editLinkRequestSchema,
  linkIdParamsSchema,
  linkStatusResponseSchema,
  linkTypesResponseSchema,
  listLinksQuerySchema,
  listLinksResponseSchema,
} from '../../shared/links.ts';
import { callerOf } from '../plugins/auth.ts';
import { acceptJsonBodies } from '../json-body.ts';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };
const security = [{ apiKey: [] }];
const tags = ['Payment links'];
const DEFAULT_PAGE_SIZE = 20;

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/checkout/links/create',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: 'Create a payment link',
        description: 'Creates a hosted payment link. Field names bind case-insensitively. Secret key only.',
        tags,
        security,
        body: createLinkRequestSchema,
        response: { 200: createLinkResponseSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      statusCode: '00',
      message: 'Payment details fetched successfully',
      data: await app.links.create(callerOf(request), request.body),
    }),
  );

  app.get(
    '/checkout/links/all',
    {
      config: { auth: 'secret' },
      schema: {
        summary: 'List payment links',
        description: `The caller's links in its mode, newest first, ${DEFAULT_PAGE_SIZE} a page unless \`limit\` says (at most 100); \`paymentCount\` is each link's completed payments.`,
        tags,
        security,
        querystring: listLinksQuerySchema,
        response: { 200: listLinksResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const found = await app.links.list(caller, request.query.page ?? 1, request.query.limit ?? DEFAULT_PAGE_SIZE);
      return {
        status: 'success' as const,
        statusCode: '00',
        message: 'Payment links fetched successfully',
        data: found.links.map((link) => app.links.present(link, caller.merchant)),
        pagination: { page: found.page, limit: found.limit, total: found.total, totalPages: found.totalPages },
      };
    },
  );

  app.get(
    '/checkout/links/types',
    {
      config: { auth: 'secret' },
      schema: { summary: 'Payment link types', tags, security, response: { 200: linkTypesResponseSchema, ...errors } },
    },
    async () => ({
      status: 'success' as const,
      statusCode: '00' as const,
      message: 'Payment link types retrieved successfully',
      paymentLinkTypes: [...PAYMENT_LINK_TYPES],
    }),
  );

  app.patch(
    '/checkout/links/:id/edit',
    {
      config: { auth: 'secret', idempotent: true },
      schema: {
        summary: 'Edit a payment link',
        description: "Changes the members given (create's, less Currency); absent or null members keep their value. The reference and URL stay.",
        tags,
        security,
        params: linkIdParamsSchema,
        body: editLinkRequestSchema,
        response: { 200: createLinkResponseSchema, ...errors },
      },
    },
    async (request) => ({
      status: 'success' as const,
      statusCode: '00',
      message: 'Payment details fetched successfully',
      data: await app.links.edit(callerOf(request), request.params.id, request.body),
    }),
  );

  await app.register(linkStatusRoutes);
};

/**
 * Activate and disable take no body, and the Java SDK sends none under `Content-Type: application/json`: here
 * (and only here, parsers being scoped to this plugin) an empty JSON body reads as no body.
 */
async function linkStatusRoutes(app: FastifyInstance): Promise<void> {
  acceptEmptyJson(app);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const [action, active] of [['activate', true], ['disable', false]] as const) {
    typed.patch(
      `/checkout/links/:id/status/${action}`,
      {
        config: { auth: 'secret' },
        schema: {
          summary: `${active ? 'Activate' : 'Disable'} a payment link`,
          description: active
            ? 'The link takes orders again. No body.'
            : "The link's page says it is no longer active and it takes no new orders; orders already made keep their pages. No body.",
          tags,
          security,
          params: linkIdParamsSchema,
          response: { 200: linkStatusResponseSchema, ...errors },
        },
      },
      async (request) => {
        await app.links.setActive(callerOf(request), request.params.id, active);
        return { status: 'success' as const, statusCode: '00', message: 'Payment link status updated successfully', data: null };
      },
    );
  }
}

/** In the calling plugin's scope only: an empty body under `Content-Type: application/json` reads as no body. */
export function acceptEmptyJson(app: FastifyInstance): void {
  acceptJsonBodies(app, { emptyIsNoBody: true });
}

export default routes;
