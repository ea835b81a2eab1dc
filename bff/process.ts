import type { FastifyInstance } from 'fastify';
import { ConfigError, readConfig, type Config } from './config.ts';
import type { IssuedKeys } from './services/merchants.ts';

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
  await app.listen({ host: config.host, port: config.port });
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
