import type { FastifyInstance } from 'fastify';
import { ConfigError, readConfig, type Config } from './config.ts';
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

/** Listens, prints where, and the sandbox keys when this start created the sandbox merchant. */
export async function listenWithBanner(app: FastifyInstance, config: Config, extra: string[] = []): Promise<void> {
  const sandbox = await app.merchants.ensureSandboxMerchant();
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close().catch(() => {});
    throw listenFailure(error, config);
  }
  process.stdout.write(banner(config, sandbox, extra));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
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
