import { z } from 'zod';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { MAX_ENABLED_ENDPOINTS } from './domain/webhooks.ts';
import { BUILD_ROOT } from './paths.ts';

/** Where `npm run build` puts the widget: dist/widget at the project root (the compiled server's own build's). */
const DEFAULT_WIDGET_DIR = path.join(BUILD_ROOT, 'widget');

/**
 * The process configuration, read from the environment once at start-up and validated. Nothing else in the
 * backend reads `process.env`: everything receives the parsed `Config`.
 */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
    .refine((text) => {
      const url = new URL(text);
      return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    }, { message: 'must not carry a query, a fragment or credentials (every returned URL starts with it)' })
    .optional(),
  CHECKOUT_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'must be a lower-case SQL identifier' })
    .optional(),
  CHECKOUT_MASTER_KEY: z
    .string()
    .trim()
    // Strict: Buffer's base64 decoder skips characters it does not know, so any 43 characters would pass it.
    .regex(/^[A-Za-z0-9+/]{43}=?$/, { message: 'must be 32 bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`)' })
    .optional(),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  CHECKOUT_WIDGET_DIR: z.string().min(1).optional(),
  CHECKOUT_DASHBOARD_DIR: z.string().min(1).optional(),
  // Fractions are allowed so demos and end-to-end tests can watch an account expire (0.1 = 6 seconds).
  TRANSFER_EXPIRY_MINUTES: z.coerce.number().min(0.05).max(7 * 24 * 60).default(30),
  // How often each process looks for due jobs; 0 runs them only when asked (tests that move a manual clock).
  JOBS_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  // How long a claimed job is held before another process may take it over (longer than any job runs).
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // A processor call without an answer by then is unknown: the attempt stays processing and is asked about again.
  PROCESSOR_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(30),
  // A webhook request unanswered by then is a failed attempt (retried later).
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(30).default(10),
  // Webhooks to loopback, private-network and internal addresses (a receiver beside a self-hosted server, tests); off
  // in every mode, because a merchant's URL would otherwise reach the server's own machine and network.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),

  // Jobs each process runs at once per lane: payment-state jobs (expiries, re-queries, charges, refunds), and
  // webhook deliveries, which wait on merchants' servers and so never take the payment lane's slots.
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(2).max(1024).default(32),
  // Attempts one webhook endpoint may have in flight; the others of that endpoint wait, their attempts untouched.
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // After this many timeouts in a row an endpoint's deliveries wait WEBHOOK_BREAKER_COOLDOWN_SECONDS, not a timeout each.
  WEBHOOK_BREAKER_TIMEOUTS: z.coerce.number().int().min(1).max(1000).default(5),
  WEBHOOK_BREAKER_COOLDOWN_SECONDS: z.coerce.number().min(1).max(24 * 3600).default(300),
  // Abuse limits (README, "Limits"): requests per window and client; a shared Redis store when REDIS_URL is set.
  REDIS_URL: z.string().regex(/^rediss?:\/\//, { message: 'must be a redis:// or rediss:// URL' }).optional(),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(1200),
  // A secret key's requests from every address; a publishable key (public: any page shows it) counts per client address.
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(6000),
  RATE_LIMIT_PER_PUBLISHABLE_KEY_IP: z.coerce.number().int().min(1).default(600),
  // A payment link's form posts from every address (a ceiling), and from one address.
  RATE_LIMIT_PER_LINK: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_PER_LINK_IP: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  // Proxies in front of the server whose X-Forwarded-For is believed (per-IP limits need the client's address).
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Worker threads for legacy RSA payloads in each server process; by default one per core, and in a WORKERS cluster
  // twice each process's share of the cores, at most one per core (bff/process.ts, clusterRsaThreads).
  LEGACY_RSA_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  // Legacy RSA payloads waiting for a worker thread, per thread, before more are refused with RATE429.
  LEGACY_RSA_QUEUE_PER_THREAD: z.coerce.number().int().min(1).max(1000).default(16),
  // Slow clients: headers must arrive within HEADERS_TIMEOUT, the whole request within REQUEST_TIMEOUT.
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(120).default(10),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(600).default(30),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(600).default(5),
  // Test mode only: the app's clock can be moved forward over HTTP (`POST /checkout/sandbox/clock`), for end-to-end tests.
  CHECKOUT_TEST_CLOCK: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  // Server processes `npm start` runs (node:cluster); PGlite is opened by one process, so it always runs one.
  WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  // Prometheus metrics on a port of their own (operators only), off unless set.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

/** Time a delivery job needs besides its HTTP request (reading the delivery, recording the attempt). */
const WEBHOOK_LEASE_MARGIN_SECONDS = 5;

export type Config = {
  environment: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema for all tables (default: the connection's search_path). */
  databaseSchema: string | undefined;
  /** 32 bytes; undefined in development means "use or create the key file in the data folder". */
  masterKey: Buffer | undefined;
  logLevel: (typeof logLevels)[number];
  transferExpiryMinutes: number;
  /** The job runner: its poll, its lease, and each lane's slots in this process. */
  jobs: { pollMs: number; leaseMs: number; concurrency: { payments: number; webhooks: number } };
  processorTimeoutMs: number;
  /** A webhook request is abandoned after this long; always shorter than the job lease. */
  webhookTimeoutMs: number;
  /** Where webhooks may go: public internet addresses only, unless the operator allows private ones. */
  webhookDestinations: { allowPrivate: boolean };

  /** What one webhook endpoint may take of the delivery lane: attempts in flight, and its breaker. */
  webhookEndpoints: { inFlight: number; breakerTimeouts: number; breakerCooldownMs: number };
  /** The built widget the backend serves (checkout page, assets, embed.js). */
  widgetDir: string;
  /** The built dashboard the backend serves at /dashboard/ (by default beside the widget's build: the same `vite build` writes both). */
  dashboardDir: string;
  /**
   * Requests allowed per window: per client address; per secret key; per publishable key and client address; per
   * payment-link page (its form posts) and per page and client address; failed answers per address.
   */
  rateLimits: {
    windowMs: number;
    perIp: number;
    perKey: number;
    perPublishableKeyIp: number;
    perLink: number;
    perLinkIp: number;
    failuresPerIp: number;
    redisUrl: string | undefined;
  };
  trustProxyHops: number;
  /**
   * The legacy RSA worker pool of each server process: its threads (undefined: one per core, or in a cluster twice
   * each process's share of the cores), and the payloads that may wait per thread.
   */
  legacyRsa: { threads: number | undefined; queuePerThread: number };
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  /** NODE_ENV=test only: the clock runs ahead by what `POST /checkout/sandbox/clock` adds (end-to-end tests). */
  testClock: boolean;
  /**
   * Server processes to run: on PostgreSQL `WORKERS`, else one per core; on PGlite one, which a single process opens;
   * `requested` is what the operator set, if anything.
   */
  workers: { count: number; requested: number | undefined };
  /** Where `/metrics` (Prometheus) is served, on a listener of its own; undefined: not served. */
  metrics: { host: string; port: number } | undefined;
};

export class ConfigError extends Error {}

/** Variables whose values may hold a secret (a key, a database password). */
const SECRET_VARIABLES = new Set(['CHECKOUT_MASTER_KEY', 'DATABASE_URL', 'REDIS_URL']);

export function readConfig(env: Record<string, string | undefined>): Config {
  // Empty variables count as unset, the way shells and .env files usually mean them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // Secrets are named, never echoed: this line goes to the terminal and to whatever collects it.
    const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name])})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message.replace(/^Invalid input: /, '')}${shown}.`);
  }
  const values = parsed.data;
  if (values.NODE_ENV === 'production' && !values.CHECKOUT_MASTER_KEY) {
    throw new ConfigError('Invalid configuration: CHECKOUT_MASTER_KEY is required when NODE_ENV=production.');
  }
  // A delivery that outlived its lease could be sent again by another process while still in flight.
  if (values.JOBS_LEASE_SECONDS < values.WEBHOOK_TIMEOUT_SECONDS + WEBHOOK_LEASE_MARGIN_SECONDS) {
    throw new ConfigError(
      `Invalid configuration: JOBS_LEASE_SECONDS (${values.JOBS_LEASE_SECONDS}) must be at least WEBHOOK_TIMEOUT_SECONDS + ${WEBHOOK_LEASE_MARGIN_SECONDS} (${values.WEBHOOK_TIMEOUT_SECONDS + WEBHOOK_LEASE_MARGIN_SECONDS}), so a webhook request ends before its job's lease.`,
    );
  }
  // One merchant's endpoints, each at its in-flight limit, must leave slots of the delivery lane for the others.
  if (values.WEBHOOK_CONCURRENCY <= MAX_ENABLED_ENDPOINTS * values.WEBHOOK_ENDPOINT_CONCURRENCY) {
    throw new ConfigError(
      `Invalid configuration: WEBHOOK_CONCURRENCY (${values.WEBHOOK_CONCURRENCY}) must be more than ${MAX_ENABLED_ENDPOINTS} endpoints × WEBHOOK_ENDPOINT_CONCURRENCY (${MAX_ENABLED_ENDPOINTS * values.WEBHOOK_ENDPOINT_CONCURRENCY}), so one merchant's endpoints cannot fill the delivery lane.`,
    );
  }
  // PGlite's database is opened by one process; on PostgreSQL, WORKERS processes, else one per core.
  const processes = values.DATABASE_URL ? (values.WORKERS ?? availableParallelism()) : 1;
  if (values.CHECKOUT_TEST_CLOCK === '1' && values.NODE_ENV !== 'test') {
    throw new ConfigError('Invalid configuration: CHECKOUT_TEST_CLOCK=1 is allowed only when NODE_ENV=test.');
  }
  if (values.HEADERS_TIMEOUT_SECONDS > values.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('Invalid configuration: HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS.');
  }
  const publicBaseUrl = (values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    publicBaseUrl,
    dataDir: path.resolve(values.CHECKOUT_DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    databaseSchema: values.DATABASE_SCHEMA,
    masterKey: values.CHECKOUT_MASTER_KEY ? Buffer.from(values.CHECKOUT_MASTER_KEY, 'base64') : undefined,
    logLevel: values.LOG_LEVEL,
    transferExpiryMinutes: values.TRANSFER_EXPIRY_MINUTES,
    jobs: {
      pollMs: values.JOBS_POLL_MS,
      leaseMs: values.JOBS_LEASE_SECONDS * 1000,
      concurrency: { payments: values.JOBS_CONCURRENCY, webhooks: values.WEBHOOK_CONCURRENCY },
    },
    processorTimeoutMs: values.PROCESSOR_TIMEOUT_SECONDS * 1000,
    webhookTimeoutMs: values.WEBHOOK_TIMEOUT_SECONDS * 1000,
    webhookDestinations: { allowPrivate: values.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS === '1' },

    webhookEndpoints: {
      inFlight: values.WEBHOOK_ENDPOINT_CONCURRENCY,
      breakerTimeouts: values.WEBHOOK_BREAKER_TIMEOUTS,
      breakerCooldownMs: values.WEBHOOK_BREAKER_COOLDOWN_SECONDS * 1000,
    },
    widgetDir: values.CHECKOUT_WIDGET_DIR ? path.resolve(values.CHECKOUT_WIDGET_DIR) : DEFAULT_WIDGET_DIR,
    dashboardDir: values.CHECKOUT_DASHBOARD_DIR
      ? path.resolve(values.CHECKOUT_DASHBOARD_DIR)
      : path.join(path.dirname(values.CHECKOUT_WIDGET_DIR ? path.resolve(values.CHECKOUT_WIDGET_DIR) : DEFAULT_WIDGET_DIR), 'dashboard'),
    rateLimits: {
      windowMs: values.RATE_LIMIT_WINDOW_SECONDS * 1000,
      perIp: values.RATE_LIMIT_PER_IP,
      perKey: values.RATE_LIMIT_PER_KEY,
      perPublishableKeyIp: values.RATE_LIMIT_PER_PUBLISHABLE_KEY_IP,
      perLink: values.RATE_LIMIT_PER_LINK,
      perLinkIp: values.RATE_LIMIT_PER_LINK_IP,
      failuresPerIp: values.RATE_LIMIT_FAILURES_PER_IP,
      redisUrl: values.REDIS_URL,
    },
    trustProxyHops: values.TRUST_PROXY_HOPS,
    legacyRsa: {
      threads: values.LEGACY_RSA_THREADS,
      queuePerThread: values.LEGACY_RSA_QUEUE_PER_THREAD,
    },
    http: {
      headersTimeoutMs: values.HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: values.REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    testClock: values.CHECKOUT_TEST_CLOCK === '1',
    workers: { count: processes, requested: values.WORKERS },
    metrics: values.METRICS_PORT === undefined ? undefined : { host: values.METRICS_HOST, port: values.METRICS_PORT },
  };
}
