import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { testConfig, TEST_DATABASE_URL, type Place } from './app.ts';
import { bannerComplete, serverCommand } from './start-command.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Real backend processes (`bff/server.ts` through tsx, or the build as `npm start` runs it) sharing one PostgreSQL, for the tests of what
 * several processes do together; and an HTTP client of the API that encrypts order payloads the way SDKs do.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The nice value of process `pid` (its main thread's) and those of its threads that run below it: Linux keeps nice
 * per thread (`/proc/PID/task/TID/stat`, field 19), as the RSA pool's threads use it.
 */
export function threadPriorities(pid: number): { own: number; lowered: number[] } {
  const niceOf = (task: number) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  const own = niceOf(pid);
  return { own, lowered: readdirSync(`/proc/${pid}/task`).map((task) => niceOf(Number(task))).filter((nice) => nice > own) };
}

/** A stand-in checkout page so the processes skip building the widget; these tests are about the API. */
function widgetStandIn(place: Place): string {
  const dir = path.join(place.dataDir, 'widget');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'checkout.html'), '<!doctype html><title>checkout</title>');
  return dir;
}

/** `output()`: everything the process wrote to stdout so far (its banner, then its JSON log lines). */
export type BackendProcess = { child: ChildProcess; port: number; banner: string; output: () => string };

/** Starts a backend process on `place`'s PostgreSQL schema and resolves once it listens (its banner printed). */
/**
 * `compiled`: the build run as `npm start` runs it (package.json's node flags and environment; `npm test` builds
 * first), for the tests of `npm start` itself; else the sources through tsx.
 */
export async function startBackendProcess(place: Place, extraEnv: Record<string, string> = {}, { compiled = false }: { compiled?: boolean } = {}): Promise<BackendProcess> {
  const port = await freePort();
  const config = testConfig(place);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: place.schema,
    CHECKOUT_DATA_DIR: place.dataDir,
    CHECKOUT_WIDGET_DIR: widgetStandIn(place),
    CHECKOUT_MASTER_KEY: config.masterKey!.toString('base64'),
    LOG_LEVEL: 'warn',
    // One server process each unless a test asks for a cluster (the default is one per core).
    WORKERS: '1',
    // Webhook receivers of these tests listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1',
    ...extraEnv,
  };
  const command = serverCommand(ROOT, compiled);
  const child = spawn(process.execPath, command.args, { cwd: ROOT, env: { ...command.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let banner = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running behind the failed test; what it printed says how far it got.
      child.kill('SIGKILL');
      reject(new Error(`process did not start in 90 s; its output so far:\n${banner.slice(0, 2000)}`));
    }, 90_000);
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      if (bannerComplete(banner)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, port, banner, output: () => output };
}

/** The sandbox merchant's keys, from the banner of the process that created it. */
export function bannerKeys(banner: string): { publishableKey: string; secretKey: string } {
  return { publishableKey: /publishableKey:\s+(pk_test_\S+)/.exec(banner)![1]!, secretKey: /secretKey:\s+(sk_test_\S+)/.exec(banner)![1]! };
}

/** Calls a process over HTTP: order endpoints with a JWE body and the publishable key, the rest plain. */
export class HttpClient {
  private jwk: (JWK & { alg: string; kid: string }) | undefined;

  constructor(private readonly keys: { publishableKey: string; secretKey: string }) {}

  async encrypted(port: number, route: string, plain: unknown): Promise<{ statusCode: string; data?: unknown; [key: string]: unknown }> {
    if (!this.jwk) {
      const answer = await fetch(`http://127.0.0.1:${port}/checkout/keys`, { headers: { 'api-key': this.keys.publishableKey } });
      this.jwk = ((await answer.json()) as { data: { keys: (JWK & { alg: string; kid: string })[] } }).data.keys.find((key) => key.alg === 'ECDH-ES+A256KW')!;
    }
    const jwk = this.jwk;
    const data = await new CompactEncrypt(Buffer.from(JSON.stringify(plain))).setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, jwk.alg));
    return this.send(port, 'POST', route, { data }, this.keys.publishableKey);
  }

  /** A secret-key call with a plain body (or none). */
  secret(port: number, method: 'GET' | 'POST', route: string, body?: unknown) {
    return this.send(port, method, route, body, this.keys.secretKey);
  }

  private async send(port: number, method: string, route: string, body: unknown, key: string) {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: { 'api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as { statusCode: string; data?: unknown; [key: string]: unknown };
  }
}
