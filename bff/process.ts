import type { FastifyInstance } from 'fastify';
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ConfigError, readConfig, type Config } from './config.ts';
import { exposeToPrimary, listenForMetrics, workersMetrics, type MetricsListener } from './plugins/metrics.ts';
import type { IssuedKeys } from './services/merchants.ts';
import { StorageUnavailableError } from './storage/storage.ts';

/** A start-up failure the operator fixes by changing a setting: its message is one line naming it. */
export class StartupError extends Error {}

/**
 * Ends a process entry that could not start with one line on stderr: the operator's problem (a setting, the
 * database, the data folder, the address) by name, anything else as its first line.
 */
export function exitOnStartupFailure(error: unknown): never {
  const known = error instanceof ConfigError || error instanceof StorageUnavailableError || error instanceof StartupError;
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split('\n')[0] ?? '').trim() || 'unknown error';
  process.stderr.write(`${known ? line : `Checkout could not start: ${line}`}\n`);
  process.exit(1);
}

/** What both process entries (`npm start`, `npm run dev`) do around the app: config, banner, signals. */
export function readConfigOrExit(): Config {
  try {
    return readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** What a server process tells the primary once it listens (the sandbox keys, if its start created them). */
type ListeningMessage = { type: 'checkout:listening'; sandbox: IssuedKeys | null };

/** How long a graceful shutdown may take before the remaining work is cut off (its jobs' leases then release them). */
const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Listens, then prints where, and the sandbox keys when this start created the sandbox merchant; a cluster worker
 * tells the primary instead, which prints one banner for all. SIGTERM or SIGINT closes the app gracefully.
 */
export async function listenWithBanner(app: FastifyInstance, config: Config, extra: string[] = []): Promise<void> {
  const sandbox = await app.merchants.ensureSandboxMerchant();
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close().catch(() => {});
    throw listenFailure(error, config);
  }
  const closing: (() => Promise<void>)[] = [];
  shutDownOnSignals(app, closing);
  if (cluster.isWorker) {
    if (config.metrics) exposeToPrimary(app.metrics.registry);
    process.send!({ type: 'checkout:listening', sandbox: sandbox ?? null } satisfies ListeningMessage);
    return;
  }
  const lines = [...extra, processesLine(config, 1)];
  if (config.metrics) {
    const registry = app.metrics.registry;
    const metrics = await listenForMetrics(config.metrics, () => registry.metrics(), registry.contentType).catch(async (error: unknown) => {
      await app.close().catch(() => {});
      throw metricsListenFailure(error, config.metrics!);
    });
    closing.push(() => metrics.close());
    lines.push(`  metrics: ${metrics.url}`);
  }
  process.stdout.write(banner(config, sandbox, lines));
}

/**
 * Stop taking requests, finish those in flight and the jobs running, close storage; then exit. A cluster's worker
 * does the same when its primary is gone (its IPC channel closes): a primary killed outright restarts no worker, so
 * the workers end too and the supervisor (docs/operations.md) restarts the whole server instead of leaving workers
 * that nothing watches.
 */
function shutDownOnSignals(app: FastifyInstance, closing: (() => Promise<void>)[]): void {
  let stopping = false;
  const shutDown = (cause: string) => {
    // Ctrl-C reaches the workers and the primary, which then passes SIGTERM on: one shutdown each.
    if (stopping) return;
    stopping = true;
    app.log.info({ signal: cause }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    Promise.all([app.close(), ...closing.map((close) => close())]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutDown(signal));
  if (cluster.isWorker) process.on('disconnect', () => shutDown('primary gone'));
}

/**
 * How many server processes to run: `WORKERS`, else one per core; one on PGlite, whose database a single process
 * holds (saying so when the operator asked for more).
 */
export function workerCount(config: Config): number {
  if (!config.databaseUrl && (config.workers.requested ?? 1) > 1) {
    process.stderr.write(
      `WORKERS=${config.workers.requested} is ignored: the embedded PGlite database is opened by one process, so one server process runs. Set DATABASE_URL (PostgreSQL) to run several.\n`,
    );
  }
  return config.workers.count;
}

/**
 * The legacy RSA threads of each of a cluster's `processes` on `cores` cores, unless the operator set how many: twice
 * the process's share of the cores, and at most one per core. The primary hands each new connection to the next
 * process free to take it and a kept-alive connection stays where it landed, so one process can hold more than its
 * share of the legacy payloads while another's threads idle; a second thread lets it use that idle core. The threads
 * run below the event loops' priority (bff/crypto/rsa-pool.ts), so when every core is busy they wait, and a thread
 * idle for a minute stops.
 */
export function clusterRsaThreads(cores: number, processes: number): number {
  return Math.min(cores, 2 * Math.max(1, Math.floor(cores / processes)));
}

function processesLine(config: Config, count: number): string {
  if (count > 1) return `  processes: ${count} (node:cluster, one port; WORKERS)`;
  return config.databaseUrl ? '  processes: 1 (WORKERS)' : '  processes: 1 (PGlite is opened by one process; DATABASE_URL runs several)';
}

/**
 * The primary of `WORKERS` server processes (node:cluster): forks them, prints one banner once all listen (the
 * sandbox keys from whichever created them; the first starts alone), serves the metrics of all of them when METRICS_PORT is set, replaces a
 * worker that dies, and on SIGTERM or SIGINT asks every worker to shut down gracefully and exits when they have.
 * A worker that fails to start has printed its reason; the primary then stops the others and exits with code 1.
 */
export async function runPrimary(config: Config, count: number, entry: URL): Promise<void> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } });
  cluster.setupPrimary({ exec: fileURLToPath(entry) });
  const workerEnv = config.legacyRsa.threads ? {} : { LEGACY_RSA_THREADS: String(clusterRsaThreads(availableParallelism(), count)) };
  const fork = () => cluster.fork(workerEnv);
  let listening = 0;
  let sandbox: IssuedKeys | undefined;
  let ready = false;
  let stopping = false;
  let exitCode = 0;
  let metrics: MetricsListener | undefined;

  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS + 5_000).unref();
  };

  cluster.on('message', (_worker, message: ListeningMessage) => {
    if (message?.type !== 'checkout:listening') return;
    sandbox ??= message.sandbox ?? undefined;
    listening += 1;
    // The first has applied the migrations and made the sandbox merchant: the others start together now.
    if (listening === 1 && !ready) for (let index = 1; index < count; index += 1) fork();
    if (ready || listening < count) return;
    ready = true;
    void announce();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping && ready) {
      log.error({ worker: worker.process.pid, code, signal }, 'a server process ended; starting another');
      fork();
      return;
    }
    if (!stopping) {
      // It could not start (and said why on stderr): so will the others.
      exitCode = 1;
      stopAll('SIGTERM');
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) {
      void (metrics?.close() ?? Promise.resolve()).finally(() => process.exit(exitCode));
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log.info({ signal }, 'shutting down the server processes');
      stopAll('SIGTERM');
    });
  }

  async function announce(): Promise<void> {
    const lines = [processesLine(config, count)];
    if (config.metrics) {
      try {
        metrics = await listenForMetrics(config.metrics, workersMetrics, 'text/plain; version=0.0.4; charset=utf-8');
        lines.push(`  metrics: ${metrics.url} (every process, aggregated)`);
      } catch (error) {
        process.stderr.write(`${metricsListenFailure(error, config.metrics).message}\n`);
        exitCode = 1;
        stopAll('SIGTERM');
        return;
      }
    }
    process.stdout.write(banner(config, sandbox, lines));
  }

  // One first: a setting or a database it cannot use is then reported once, and migrations run in one process.
  fork();
}

function metricsListenFailure(error: unknown, where: { host: string; port: number }): StartupError {
  const failure = listenFailure(error, { host: where.host, port: where.port } as Config);
  return new StartupError(failure.message.replace('(set PORT)', '(set METRICS_PORT)').replace('(set HOST)', '(set METRICS_HOST)'));
}

function listenFailure(error: unknown, config: Config): StartupError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${config.host}:${config.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(`Cannot listen on ${where}: the port is already in use (set PORT).`);
    case 'EACCES':
      return new StartupError(`Cannot listen on ${where}: permission denied (set PORT to 1024 or above).`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`Cannot listen on ${where}: this machine has no such address (set HOST).`);
    default:
      return new StartupError(`Cannot listen on ${where}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}.`);
  }
}

function banner(config: Config, sandbox: IssuedKeys | undefined, extra: string[]): string {
  const lines = [
    '',
    `Checkout is listening on ${config.publicBaseUrl} (bound to ${config.host}:${config.port})`,
    `  storage: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
    `  demo merchant page: ${config.publicBaseUrl}/demo/`,
    ...extra,
    `  API docs: ${config.publicBaseUrl}/docs`,
  ];
  if (sandbox) {
    lines.push(
      '',
      'A sandbox merchant was created on this empty database. Its keys are shown once; keep them:',
      `  subsidiaryId:   ${sandbox.subsidiaryId}`,
      `  publishableKey: ${sandbox.publishableKey}`,
      `  secretKey:      ${sandbox.secretKey}`,
      `  encryptionKey:  ${sandbox.encryptionKey}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
