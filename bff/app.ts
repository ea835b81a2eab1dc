import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Server } from 'node:http';
import { invalid } from './errors.ts';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import auth from './plugins/auth.ts';
import cookie from './plugins/cookie.ts';
import { sessionCookieName } from './security/session-cookie.ts';
import teamRoutes from './routes/team.ts';
import teamAccountRoutes from './routes/team-account.ts';
import teamMemberRoutes from './routes/team-members.ts';
import cors from './plugins/cors.ts';
import decrypt from './plugins/decrypt.ts';
import idempotency from './plugins/idempotency.ts';
import rateLimits from './plugins/rate-limit.ts';
import envelope, { clientErrorHandler, sendError } from './plugins/envelope.ts';
import services from './plugins/services.ts';
import storage from './plugins/storage.ts';
import swagger from './plugins/swagger.ts';
import bankRoutes from './routes/banks.ts';
import frequencyRoutes from './routes/frequencies.ts';
import healthRoutes from './routes/health.ts';
import keyRoutes from './routes/keys.ts';
import linkRoutes from './routes/links.ts';
import subscriptionRoutes from './routes/subscriptions.ts';
import subscriptionPageRoutes from './routes/subscription-pages.ts';
import testClockRoutes from './routes/test-clock.ts';
import pageRoutes from './routes/pages.ts';
import sandboxIssuerRoutes from './routes/sandbox-issuer.ts';
import resultRoutes from './routes/result.ts';
import customerRoutes from './routes/customers.ts';
import orderRoutes from './routes/orders.ts';
import paymentRoutes from './routes/payments.ts';
import transactPayRoutes from './routes/transactpay.ts';
import refundRoutes from './routes/refunds.ts';
import sandboxRoutes from './routes/sandbox.ts';
import webhookRoutes from './routes/webhooks.ts';
import orderListRoutes from './routes/order-lists.ts';
import customerListRoutes from './routes/customer-lists.ts';
import subscriptionListRoutes from './routes/subscription-lists.ts';
import linkListRoutes from './routes/link-lists.ts';
import eventListRoutes from './routes/event-lists.ts';
import orderDetailRoutes from './routes/order-detail.ts';
import refundListRoutes from './routes/refund-lists.ts';
import reportRoutes from './routes/reports.ts';
import jobs from './plugins/jobs.ts';
import metrics from './plugins/metrics.ts';
import requestContext from './plugins/request-context.ts';
import helmet from './plugins/helmet.ts';
import compression from './plugins/compression.ts';
import staticFiles from './plugins/static.ts';
import dashboard, { type DashboardPageSource } from './plugins/dashboard.ts';
import embedRoutes from './routes/embed.ts';
import { loadMasterKey } from './crypto/master-key.ts';
import { AdvancingClock, systemClock, type Clock } from './services/clock.ts';
import type { TemplateSource } from './pages/checkout-page.ts';
import { validatorCompiler } from './validation.ts';
import { acceptJsonBodies } from './json-body.ts';
import { routedUrl } from './routes/transactpay-paths.ts';
import { serializeError, serializeRequest } from './log-serializers.ts';
import { logBindings } from './request-context.ts';
import type { Resolve } from './security/guarded-agents.ts';

export type AppOptions = {
  config: Config;
  clock?: Clock | undefined;
  /** Development: page templates from Vite's dev server instead of dist/widget. */
  templates?: TemplateSource | undefined;
  /** Tests: how webhook delivery resolves host names (default: the system's resolver). */
  resolveHost?: Resolve | undefined;
  /** Development: the dashboard's page from Vite's dev server instead of dist/dashboard. */
  dashboardPage?: DashboardPageSource | undefined;
};

/** The whole backend as one plugin: infrastructure first, then one route module per resource. */
export const app: FastifyPluginAsync<AppOptions> = async (instance, { config, clock: given, templates, resolveHost, dashboardPage }) => {
  const testClock = config.testClock && !given ? new AdvancingClock() : undefined;
  const clock = given ?? testClock ?? systemClock;
  const fastify = instance.withTypeProvider<ZodTypeProvider>();
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  // Every context below inherits the bounded JSON parser (bff/json-body.ts).
  acceptJsonBodies(fastify);

  await fastify.register(envelope);
  await fastify.register(metrics, { defaultMetrics: config.metrics !== undefined });
  await fastify.register(requestContext);
  await fastify.register(rateLimits, { limits: config.rateLimits });
  await fastify.register(storage, { config });
  // Read (or, in development, created) once: it seals private keys and derives the other server secrets.
  const masterKey = loadMasterKey(config);
  await fastify.register(services, { config, clock, masterKey, resolveHost });
  // Before auth: its hooks run in registration order, and a refused key (401, 403) must carry the CORS headers too,
  // or the merchant's page reads a network failure instead of the envelope's code.
  await fastify.register(cors);
  await fastify.register(cookie);
  await fastify.register(auth, { publicBaseUrl: config.publicBaseUrl, sessionCookieName: sessionCookieName(config.environment) });
  await fastify.register(decrypt, { masterKey, legacyRsa: config.legacyRsa });
  await fastify.register(idempotency, { masterKey });
  await fastify.register(helmet);
  // Before the widget's files, whose precompressed variants it leaves as they are.
  await fastify.register(compression);
  await fastify.register(staticFiles, { distDir: config.widgetDir, cachePages: config.environment === 'production', templates });
  await fastify.register(dashboard, { distDir: config.dashboardDir, page: dashboardPage, cachePage: config.environment === 'production' });
  await fastify.register(swagger, { publicBaseUrl: config.publicBaseUrl });

  // The API's routes join the app's own encapsulation context instead of opening one each. Fastify builds a request
  // and a reply class per context, so endpoints in separate contexts hand its shared functions (hooks, validation,
  // send) objects of different shapes, and V8 drops their optimized code each time the traffic moves from one
  // endpoint to another (docs/decisions.md, "One request and reply shape for the API"). The routes that read HTML
  // forms keep contexts of their own: their body parsers are theirs alone.
  for (const routes of [healthRoutes, frequencyRoutes, bankRoutes, linkRoutes, subscriptionRoutes, keyRoutes, orderRoutes, customerRoutes, paymentRoutes, transactPayRoutes, refundRoutes, sandboxRoutes, webhookRoutes, resultRoutes]) {
    await fastify.register(fp(routes));
  }
  // The operations API, registered from its contract (shared/contract/): each module is a plugin of its own name.
  for (const routes of [orderListRoutes, orderDetailRoutes, refundListRoutes, reportRoutes, customerListRoutes, subscriptionListRoutes, linkListRoutes, eventListRoutes, teamRoutes, teamAccountRoutes, teamMemberRoutes]) await fastify.register(routes);
  await fastify.register(sandboxIssuerRoutes);
  await fastify.register(embedRoutes, { publicBaseUrl: config.publicBaseUrl });
  await fastify.register(pageRoutes, { publicBaseUrl: config.publicBaseUrl });
  await fastify.register(subscriptionPageRoutes);
  await fastify.register(jobs, config.jobs);
  if (testClock) await fastify.register(testClockRoutes, { clock: testClock });
};

/** Server options shared by the process entry and the tests: request ids, body limit, redacted logs, timeouts. */
export function serverOptions(config: Pick<Config, 'logLevel' | 'http' | 'trustProxyHops'>, logStream?: NodeJS.WritableStream): FastifyHttpOptions<Server> {
  return {
    // A client that sends its headers or its body too slowly is cut off (408 envelope) within seconds, not minutes;
    // Node checks the deadlines every `connectionsCheckingInterval`, so that is kept short too.
    http: { headersTimeout: config.http.headersTimeoutMs, connectionsCheckingInterval: 500 },
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    // Behind proxies, the client's address (per-address rate limits) is the one they forward.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      redact: { paths: ['req.headers["api-key"]', 'req.headers.authorization', 'req.body', 'res.body'], remove: true },
      // No query strings, capabilities in paths, SQL or bind values in log lines.
      // (Fastify's type wants a stack on every error; storage errors deliberately have none.)
      serializers: { req: serializeRequest, err: serializeError as never, error: serializeError },
      // A job's lines (webhook deliveries included) carry the id of the request that caused the job.
      mixin: logBindings,
    },
    genReqId: () => randomUUID(),
    // The TransactPay path family answers as its /checkout twins (protocol.md 4.11).
    rewriteUrl: (request) => routedUrl(request.url ?? '/'),
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    // A `__proto__` or `constructor.prototype` key is dropped like any unknown key, rather than failing the parse.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Opening the embedded database, applying migrations and generating a first merchant's RSA-4096 key can take
    // more than a minute on a small, busy machine (measured at a load average of 13 on two cores).
    pluginTimeout: 180_000,
    // Frame session tokens carry the embedding page's origin in the path.
    routerOptions: { maxParamLength: 1024 },
    // Errors the router raises before any route runs (undecodable or oversize addresses) get the envelope too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void sendError(
        reply as unknown as FastifyReply,
        invalid(tooLong ? 'The address is too long.' : 'The address is not a valid URL.', tooLong ? 414 : 400),
      );
    },
    // Shutdown and HTTP parser errors get the envelope too (the envelope plugin answers requests during shutdown).
    return503OnClosing: false,
    clientErrorHandler,
    forceCloseConnections: 'idle',
  };
}

export type BuildOptions = Omit<AppOptions, 'config'> & {
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** Where log lines go (default stdout); tests read them to prove what never reaches a log. */
  logStream?: NodeJS.WritableStream;
};

export async function buildApp(config: Config, { serverFactory, logStream, ...options }: BuildOptions = {}): Promise<FastifyInstance> {
  const fastify = Fastify({ ...serverOptions(config, logStream), ...(serverFactory ? { serverFactory } : {}) });
  // Unencapsulated so the process entry and tests see the app's decorators (storage, services).
  await fastify.register(fp(app, { name: 'checkout' }), { config, ...options });
  await fastify.ready();
  return fastify;
}
