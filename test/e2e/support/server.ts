import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bannerComplete, serverCommand } from '../../support/start-command.ts';

/**
 * The real server process (what `npm start` runs) on 127.0.0.1, a free port and a fresh data folder, serving the
 * widget built by `npm run test:e2e`. The sandbox merchant's keys come from the start-up banner, as a developer
 * reads them.
 */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WIDGET_DIR = path.join(ROOT, 'dist/widget');

/** Where the API is and the sandbox merchant's keys. */
export interface ServerKeys {
  baseUrl: string;
  publishableKey: string;
  secretKey: string;
}

export interface RunningServer extends ServerKeys {
  /** The legacy RSA key of the sandbox merchant, as the banner prints it. */
  encryptionKey: string;
  /** The server process, for what it costs (CPU time, resident memory). */
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * `dataDir` is a data folder prepared beforehand (merchants made with `npm run merchant`); the server then creates
 * no sandbox merchant and the keys it reports are empty.
 */
export async function startServer(
  overrides: Record<string, string> = {},
  { dataDir = newDataDir(), compiled = false, publicHost = 'localhost' }: { dataDir?: string; compiled?: boolean; publicHost?: '127.0.0.1' | 'localhost' } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // The checkout's public address is `localhost` by default, and shops are opened on 127.0.0.1 (`demoUrl`,
  // `startShop`, `serveMerchantPage`): another site to the browser, as every merchant's page is. A checkout framed
  // from its own site would hide what browsers refuse a cross-site frame (third-party storage, features the page
  // must delegate). `localhost` is also what passkeys need: a WebAuthn relying party is a domain name, never an IP.
  const baseUrl = `http://${publicHost}:${port}`;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'CHECKOUT_MASTER_KEY', 'NODE_ENV']) delete inherited[name];
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    CHECKOUT_DATA_DIR: dataDir,
    CHECKOUT_WIDGET_DIR: WIDGET_DIR,
    LOG_LEVEL: 'warn',
    // One server process unless a test asks for more (`npm start` runs one per core on PostgreSQL).
    WORKERS: '1',
    ...overrides,
  };
  // `compiled`: the build run as `npm start` runs it (its node flags and environment), for the benchmark; else the
  // sources through tsx, so the tests never wait for a compile.
  const command = serverCommand(ROOT, compiled);
  const child = spawn(process.execPath, command.args, { cwd: ROOT, env: { ...command.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${stdout}\n${stderr}`)), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (bannerComplete(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  const sandboxCreated = stdout.includes('A sandbox merchant was created');
  const key = (name: string) => {
    const match = new RegExp(`${name}:\\s+(\\S+)`).exec(stdout);
    if (!match?.[1] && sandboxCreated) throw new Error(`no ${name} in the banner:\n${stdout}`);
    return match?.[1] ?? '';
  };
  return {
    baseUrl,
    publishableKey: key('publishableKey'),
    secretKey: key('secretKey'),
    encryptionKey: key('encryptionKey'),
    pid: child.pid!,
    stop: async () => {
      await stop(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The host a shop's page is opened on: another site than the checkout's (`localhost`). */
export const SHOP_HOST = '127.0.0.1';

/** The demo shop (/demo/) opened on another site than the checkout: it embeds the checkout from `localhost`. */
export function demoUrl(server: { baseUrl: string }): string {
  const url = new URL('/demo/', server.baseUrl);
  url.hostname = SHOP_HOST;
  return url.href;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'checkout-e2e-'));
}

/** The keys `npm run merchant -- create|rotate-keys` prints. */
export interface IssuedMerchantKeys {
  subsidiaryId: number;
  publishableKey: string;
  secretKey: string;
}

/** `npm run merchant -- <args>` on a data folder no server has open; its JSON answer. */
export async function merchantCli(dataDir: string, args: string[]): Promise<IssuedMerchantKeys> {
  const env: NodeJS.ProcessEnv = { ...process.env, CHECKOUT_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'CHECKOUT_MASTER_KEY', 'NODE_ENV']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/cli/merchant.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run merchant -- ${args.join(' ')} exited with ${code}:\n${stderr}`);
  return JSON.parse(stdout) as IssuedMerchantKeys;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A call to the API with the merchant's secret key, as the merchant's server makes it. */
export async function serverCall<T = { status: string; statusCode: string; message: string; data: Record<string, unknown> }>(
  server: ServerKeys,
  pathname: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method: 'POST',
    headers: { 'api-key': server.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

export const verifyOrder = (server: ServerKeys, reference: string) =>
  serverCall<{ statusCode: string; data: { statusId: number; status: string; orderReference: string; totalAmountCharged: number; paymentLink: unknown } }>(
    server,
    '/checkout/order/verify',
    { reference },
  );

/** The sandbox bank reports money arriving on a transfer account. */
export const sendTransfer = (server: ServerKeys, accountNumber: string, amount: number) =>
  serverCall(server, '/checkout/sandbox/transfers', { accountNumber, amount });

/** Creates an order as the merchant's server does: the payload encrypted for the published key, with the secret key. */
export async function serverCreateOrder(server: ServerKeys, plain: unknown, headers: Record<string, string> = {}) {
  const { CompactEncrypt, importJWK } = await import('jose');
  const keys = (await (await fetch(`${server.baseUrl}/checkout/keys`, { headers: { 'api-key': server.secretKey } })).json()) as {
    data: { keys: { alg: string; kid: string }[] };
  };
  const jwk = keys.data.keys.find((key) => key.alg === 'ECDH-ES+A256KW');
  if (!jwk) throw new Error('the checkout publishes no ECDH-ES key');
  const data = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(plain)))
    .setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid })
    .encrypt(await importJWK(jwk, jwk.alg));
  const response = await fetch(`${server.baseUrl}/checkout/order/create`, {
    method: 'POST',
    headers: { ...headers, 'api-key': server.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });
  return (await response.json()) as { statusCode: string; message: string; data: { clientToken: { token: string } | null; savedCards: unknown[] } };
}
