import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { openStorage } from '../../bff/storage/open.ts';
import type { Storage } from '../../bff/storage/storage.ts';
import { consistencyFindings } from '../support/consistency.ts';
import { freePort } from '../support/processes.ts';
import { bannerComplete } from '../support/start-command.ts';

/**
 * `npm run chaos`: the real server under order-create and card-pay load on 127.0.0.1, killed with SIGKILL at
 * random moments and restarted on the same data, then checked: every order acknowledged (a 2xx received) exists,
 * every payment acknowledged as approved is the order's one successful payment, no order has two, every row is in
 * a state the lifecycle allows (bff/domain/lifecycle.ts) and every open attempt still has the job that ends it.
 * On PGlite (one process, its data folder) and, when DATABASE_URL (or TEST_DATABASE_URL) is set, on PostgreSQL
 * with two processes on one schema, killed one at a time while the other keeps serving.
 *
 *   CHAOS_SECONDS   load duration per driver (default 60)
 *   CHAOS_KILLS     SIGKILLs per driver, spread at random over the duration (default 6)
 *   CHAOS_CLIENTS   concurrent clients (default 6)
 *   CHAOS_DRIVERS   pglite,postgres (default: pglite, and postgres when a database URL is set)
 *
 * Prints the figures and writes test-results/chaos-<driver>.json; exits 1 when anything was lost or is inconsistent.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 60);
const KILLS = Number(process.env.CHAOS_KILLS ?? 6);
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 6);
const DATABASE_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const DRIVERS = (process.env.CHAOS_DRIVERS?.split(',') ?? (DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])) as ('pglite' | 'postgres')[];

/** Cards of the sandbox (protocol.md section 6): one approves at once, one declines, one approves but its answer is lost. */
const CARDS = { approves: '5555555555554444', declines: '4000000000000002', losesAnswer: '4000000000000341' } as const;

type Keys = { publishableKey: string; secretKey: string };
type Server = { child: ChildProcess; port: number; exited: Promise<void> };

class Deployment {
  readonly servers: (Server | undefined)[];
  keys: Keys | undefined;
  restarts = 0;

  constructor(
    readonly env: NodeJS.ProcessEnv,
    count: number,
  ) {
    this.servers = Array.from({ length: count }, () => undefined);
  }

  /** Starts process `slot` and resolves once it listens; its first banner gives the sandbox merchant's keys. */
  async start(slot: number): Promise<void> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], {
      cwd: ROOT,
      env: { ...this.env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${stdout}\n${stderr}`)), 180_000);
      child.stdout!.on('data', (chunk: Buffer) => {
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
    const publishableKey = /publishableKey:\s+(pk_test_\S+)/.exec(stdout)?.[1];
    const secretKey = /secretKey:\s+(sk_test_\S+)/.exec(stdout)?.[1];
    if (publishableKey && secretKey) this.keys = { publishableKey, secretKey };
    this.servers[slot] = { child, port, exited };
  }

  /** SIGKILL: no shutdown hook runs, whatever the process was doing is cut off. */
  async kill(slot: number): Promise<void> {
    const server = this.servers[slot];
    if (!server) return;
    this.servers[slot] = undefined;
    server.child.kill('SIGKILL');
    await server.exited;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(async (server, slot) => {
        if (!server) return;
        this.servers[slot] = undefined;
        server.child.kill('SIGTERM');
        await server.exited;
      }),
    );
  }

  /** A port of a running process, or undefined while none is up. */
  port(): number | undefined {
    const running = this.servers.filter((server): server is Server => server !== undefined);
    return running[Math.floor(Math.random() * running.length)]?.port;
  }
}

/** The load: each client creates orders and pays them (approved, declined, lost answers, racing and repeated pays). */
class Load {
  readonly acknowledgedOrders = new Set<string>();
  readonly acknowledgedPayments = new Set<string>();
  readonly declinedOrders = new Set<string>();
  requests = 0;
  refused = 0;
  answers: Record<string, number> = {};
  private jwk: (JWK & { alg: string; kid: string }) | undefined;
  private stopped = false;

  constructor(private readonly deployment: Deployment) {}

  stop(): void {
    this.stopped = true;
  }

  private async call(pathname: string, body: unknown, apiKey: string): Promise<{ status: number; json: { statusCode?: string; data?: { paymentDetail?: unknown } } } | undefined> {
    const port = this.deployment.port();
    if (port === undefined) return undefined;
    this.requests += 1;
    try {
      const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
        method: 'POST',
        headers: { 'api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const json = (await response.json()) as { statusCode?: string };
      const key = `${response.status} ${json.statusCode ?? ''}`;
      this.answers[key] = (this.answers[key] ?? 0) + 1;
      return { status: response.status, json };
    } catch {
      // Killed mid-request, or no process listening yet: no answer, so nothing was acknowledged.
      this.refused += 1;
      return undefined;
    }
  }

  private async encrypted(pathname: string, plain: unknown): Promise<Awaited<ReturnType<Load['call']>>> {
    const keys = this.deployment.keys!;
    if (!this.jwk) {
      const port = this.deployment.port();
      if (port === undefined) return undefined;
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/checkout/keys`, { headers: { 'api-key': keys.publishableKey } });
        this.jwk = ((await answer.json()) as { data: { keys: (JWK & { alg: string; kid: string })[] } }).data.keys.find((key) => key.alg === 'ECDH-ES+A256KW');
      } catch {
        return undefined;
      }
      if (!this.jwk) return undefined;
    }
    const data = await new CompactEncrypt(Buffer.from(JSON.stringify(plain))).setProtectedHeader({ alg: this.jwk.alg, enc: 'A256GCM', kid: this.jwk.kid }).encrypt(await importJWK(this.jwk, this.jwk.alg));
    return this.call(pathname, { data }, keys.publishableKey);
  }

  private pay(reference: string, number: string) {
    return this.encrypted('/checkout/order/pay', { reference, paymentoption: 'C', country: 'NG', card: { cardnumber: number, expirymonth: '01', expiryyear: '39', cvv: '193' } });
  }

  private record(reference: string, answer: Awaited<ReturnType<Load['call']>>): void {
    if (answer?.status === 200 && answer.json.statusCode === '00') this.acknowledgedPayments.add(reference);
    if (answer?.status === 200 && answer.json.statusCode === '05') this.declinedOrders.add(reference);
  }

  async client(): Promise<void> {
    while (!this.stopped) {
      if (this.deployment.port() === undefined) {
        await sleep(50);
        continue;
      }
      const reference = `CHAOS-${randomBytes(8).toString('hex')}`;
      const created = await this.encrypted('/checkout/order/create', {
        customer: { firstname: 'Ada', lastname: 'Obi', mobile: '+2348012345678', country: 'NG', email: 'ada@example.test' },
        order: { amount: 5000, reference, description: 'Chaos', currency: 'NGN' },
        payment: { RedirectUrl: 'https://merchant.test/return' },
      });
      if (created?.status === 200 && created.json.statusCode === '01') this.acknowledgedOrders.add(reference);
      else continue;
      const roll = Math.random();
      if (roll < 0.5) {
        this.record(reference, await this.pay(reference, CARDS.approves));
        // Paying a paid order again must be refused (CON409), never a second charge.
        if (Math.random() < 0.3) this.record(reference, await this.pay(reference, CARDS.approves));
      } else if (roll < 0.7) {
        // Two payments racing on one order: at most one may succeed.
        const answers = await Promise.all([this.pay(reference, CARDS.approves), this.pay(reference, CARDS.approves)]);
        for (const answer of answers) this.record(reference, answer);
      } else if (roll < 0.85) {
        this.record(reference, await this.pay(reference, CARDS.declines));
        if (this.declinedOrders.has(reference)) this.record(reference, await this.pay(reference, CARDS.approves));
      } else {
        this.record(reference, await this.pay(reference, CARDS.losesAnswer));
      }
    }
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function checkStored(storage: Storage, load: Load): Promise<{ findings: string[]; ordersFound: number; paymentsFound: number; ordersStored: number; successfulPayments: number; openAttempts: number }> {
  const findings = await consistencyFindings(storage);
  const acknowledged = [...load.acknowledgedOrders];
  const stored = await storage.query<{ reference: string; status_id: number; successes: number }>(
    `SELECT o.reference, o.status_id, (SELECT count(*)::int FROM order_payments p WHERE p.order_id = o.id AND p.status_id = 5) AS successes
       FROM orders o WHERE o.reference = ANY($1)`,
    [acknowledged],
  );
  const byReference = new Map(stored.map((row) => [row.reference, row]));
  for (const reference of acknowledged) if (!byReference.has(reference)) findings.push(`acknowledged order ${reference} is missing`);
  let paymentsFound = 0;
  for (const reference of load.acknowledgedPayments) {
    const row = byReference.get(reference);
    if (row?.status_id === 5 && row.successes === 1) paymentsFound += 1;
    else findings.push(`payment of ${reference} was acknowledged as approved but the order is in status ${row?.status_id} with ${row?.successes} successful payments`);
  }
  for (const reference of load.declinedOrders) {
    const row = byReference.get(reference);
    if (row && row.successes > 1) findings.push(`order ${reference} has ${row.successes} successful payments`);
  }
  const totals = (
    await storage.query<{ orders: number; successes: number; open: number }>(
      `SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM order_payments WHERE status_id = 5) AS successes,
              (SELECT count(*)::int FROM order_payments WHERE status_id = 2) AS open`,
    )
  )[0]!;
  return { findings, ordersFound: stored.length, paymentsFound, ordersStored: totals.orders, successfulPayments: totals.successes, openAttempts: totals.open };
}

async function run(driver: 'pglite' | 'postgres'): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-chaos-'));
  const widgetDir = path.join(dataDir, 'widget');
  mkdirSync(widgetDir);
  writeFileSync(path.join(widgetDir, 'checkout.html'), '<!doctype html><title>checkout</title>');
  const schema = `chaos_${randomBytes(5).toString('hex')}`;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'CHECKOUT_MASTER_KEY', 'NODE_ENV', 'WORKERS']) delete inherited[name];
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOST: '127.0.0.1',
    CHECKOUT_DATA_DIR: dataDir,
    CHECKOUT_WIDGET_DIR: widgetDir,
    LOG_LEVEL: 'warn',
    JOBS_POLL_MS: '500',
    RATE_LIMIT_PER_IP: '10000000',
    RATE_LIMIT_PER_KEY: '10000000',
    RATE_LIMIT_FAILURES_PER_IP: '10000000',
    ...(driver === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema, CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64') } : {}),
  };
  if (driver === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
  }
  const processes = driver === 'postgres' ? 2 : 1;
  const deployment = new Deployment(env, processes);
  const started = Date.now();
  process.stdout.write(`chaos on ${driver}: ${processes} process(es), ${CLIENTS} clients, ${SECONDS} s, ${KILLS} kills\n`);
  await deployment.start(0);
  for (let slot = 1; slot < processes; slot += 1) await deployment.start(slot);

  // Whatever happens, no process of this run outlives it.
  process.once('exit', () => deployment.servers.forEach((server) => server?.child.kill('SIGKILL')));
  const load = new Load(deployment);
  const clients = Array.from({ length: CLIENTS }, () => load.client());
  // The load runs SECONDS in all while a process is up; the kills fall at random moments of it, each process
  // getting a random share of uptime before its kill (a restart's own time is not counted as load time).
  const share = (SECONDS * 1000) / (KILLS + 1);
  const uptimes = Array.from({ length: KILLS }, () => share * (0.2 + Math.random() * 1.6));
  let kills = 0;
  const loadStarted = Date.now();
  let loadMs = 0;
  for (const uptime of uptimes) {
    if (loadMs + uptime > SECONDS * 1000) break;
    await sleep(uptime);
    loadMs += uptime;
    const slot = Math.floor(Math.random() * processes);
    await deployment.kill(slot);
    kills += 1;
    process.stdout.write(`  kill ${kills} of process ${slot + 1} at ${((Date.now() - loadStarted) / 1000).toFixed(1)} s (orders acknowledged so far ${load.acknowledgedOrders.size})\n`);
    await deployment.start(slot);
    deployment.restarts += 1;
  }
  await sleep(Math.max(0, SECONDS * 1000 - loadMs));
  // The last kill hits every process with the load still running; the check then reads the data as the crash left it.
  for (let slot = 0; slot < processes; slot += 1) await deployment.kill(slot);
  kills += processes;
  load.stop();
  await Promise.all(clients);

  const storage = await openStorage(driver === 'postgres' ? { driver, url: DATABASE_URL!, schema } : { driver, dataDir: path.join(dataDir, 'db') });
  let figures;
  try {
    figures = await checkStored(storage, load);
  } finally {
    await storage.close();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const result = {
    driver,
    date: new Date().toISOString(),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    processes,
    clients: CLIENTS,
    loadSeconds: SECONDS,
    seconds,
    kills,
    restarts: deployment.restarts,
    requests: load.requests,
    unanswered: load.refused,
    answers: load.answers,
    ordersAcknowledged: load.acknowledgedOrders.size,
    ordersFound: figures.ordersFound,
    paymentsAcknowledged: load.acknowledgedPayments.size,
    paymentsFound: figures.paymentsFound,
    ordersStored: figures.ordersStored,
    successfulPayments: figures.successfulPayments,
    openAttempts: figures.openAttempts,
    findings: figures.findings,
  };
  mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'test-results', `chaos-${driver}.json`), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `  ${result.requests} requests (${result.unanswered} cut off or refused), ${kills} kills; orders acknowledged ${result.ordersAcknowledged}, found ${result.ordersFound}; ` +
      `payments acknowledged ${result.paymentsAcknowledged}, found ${result.paymentsFound}; ${result.successfulPayments} successful payments over ${result.ordersStored} orders; ` +
      `${result.openAttempts} attempts still open, each with its job; ${seconds} s\n`,
  );
  for (const finding of figures.findings) process.stdout.write(`  FINDING: ${finding}\n`);
  if (driver === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
  return figures.findings.length === 0;
}

let ok = true;
for (const driver of DRIVERS) ok = (await run(driver)) && ok;
process.stdout.write(ok ? 'chaos: nothing lost, nothing inconsistent\n' : 'chaos: FAILED\n');
process.exit(ok ? 0 : 1);
