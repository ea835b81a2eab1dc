import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../bff/app.ts';
import { readConfig } from '../../bff/config.ts';
import * as search from '../../bff/repositories/order-search.ts';
import type { Queryable, Row } from '../../bff/storage/storage.ts';
import { newDataDir, startServer, type RunningServer } from '../e2e/support/server.ts';
import { seedSql } from './operations-seed.ts';

/**
 * `npm run bench:operations`: the merchant's operations API at scale, each line beside its bound measured in the
 * same run. The server runs as `npm start` runs it (compiled, one process) on PostgreSQL with 1,000,000 orders
 * (when DATABASE_URL is set) and on PGlite with 100,000; two merchants share the orders, the second is measured.
 * Each list line is the first page (25) of one filter or search, asked by 8 clients at once; its bound is the same
 * statement (compiled by the same repository function) sent straight to PostgreSQL by 8 connections. The export
 * streams every order of the merchant and reports rows a second and how much the server's memory grew.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const CLIENTS = 8;
const REQUESTS = Number(process.env.BENCH_OPERATIONS_REQUESTS ?? 200);

type Query = { name: string; query: string; filter: Omit<search.OrderFilter, 'merchantId' | 'mode'> };

function queries(): Query[] {
  const since = new Date(Date.now() - 30 * 86_400_000);
  return [
    { name: 'newest orders (no filter)', query: '', filter: {} },
    { name: 'state=paid', query: 'state=paid', filter: { states: ['paid'] } },
    { name: 'state=overpaid (rare)', query: 'state=overpaid', filter: { states: ['overpaid'] } },
    { name: 'state=failed,expired', query: 'state=failed,expired', filter: { states: ['failed', 'expired'] } },
    { name: 'method=bank_transfer', query: 'method=bank_transfer', filter: { method: 'bank-transfer' } },
    { name: 'currency=USD', query: 'currency=USD', filter: { currency: 'USD' } },
    { name: 'last 30 days', query: `from=${since.toISOString()}`, filter: { from: since } },
    { name: 'NGN amount 100,000-200,000', query: 'currency=NGN&amountMin=100000&amountMax=200000', filter: { currency: 'NGN', amountMinMinor: 10_000_000, amountMaxMinor: 20_000_000 } },
    { name: 'search: e-mail (exact)', query: 'q=customer12345@example.test', filter: { search: 'customer12345@example.test' } },
    { name: 'search: e-mail (prefix)', query: 'q=customer1234', filter: { search: 'customer1234' } },
    { name: 'search: phone', query: 'q=%2B2348000012345', filter: { search: '+2348000012345' } },
    { name: 'search: card last four', query: 'q=4242', filter: { search: '4242' } },
    { name: 'search: order reference', query: 'q=ORD-00123456', filter: { search: 'ORD-00123456' } },
    { name: 'search: transfer account', query: 'q=0000123459', filter: { search: '0000123459' } },
  ];
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

/** `total` calls of `once` from `clients` loops at once; each call's time in ms. */
async function timed(clients: number, total: number, once: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let left = total;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0) {
        const start = performance.now();
        await once();
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

/** The statement a repository function sends, captured instead of run. */
async function statementOf(filter: search.OrderFilter): Promise<{ sql: string; params: readonly unknown[] }> {
  let captured: { sql: string; params: readonly unknown[] } | undefined;
  const capture: Queryable = {
    query: async <T extends Row>(sql: string, params: readonly unknown[] = []) => {
      captured = { sql, params };
      return [] as T[];
    },
    exec: async () => undefined,
  };
  await search.listOrders(capture, filter, 26);
  return captured!;
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

type Line = { name: string; p95: number; p50: number; boundP95?: number };

async function prepare(driver: 'postgres' | 'pglite', count: number) {
  const masterKey = randomBytes(32).toString('base64');
  const schema = `bench_ops_${randomBytes(4).toString('hex')}`;
  const dataDir = newDataDir();
  const env: Record<string, string> = {
    NODE_ENV: 'development', LOG_LEVEL: 'warn', CHECKOUT_DATA_DIR: dataDir, CHECKOUT_MASTER_KEY: masterKey, JOBS_POLL_MS: '0',
    RATE_LIMIT_PER_IP: '100000000', RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_FAILURES_PER_IP: '100000000',
    ...(driver === 'postgres' ? { DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
  };
  if (driver === 'postgres') {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
  }
  const app = await buildApp(readConfig(env));
  const profile = (name: string) => ({ name, country: 'NG', supportEmail: 'support@example.test', allowedOrigins: [] });
  const first = await app.merchants.create(profile('Bench One'));
  const second = await app.merchants.create(profile('Bench Two'));
  const started = performance.now();
  await app.storage.exec(seedSql(count, [first.subsidiaryId, second.subsidiaryId]));
  const seedSeconds = (performance.now() - started) / 1000;
  await app.close();
  return { env, schema, dataDir, merchantId: second.subsidiaryId, secretKey: second.secretKey, seedSeconds };
}

async function measure(driver: 'postgres' | 'pglite', count: number): Promise<string> {
  const prepared = await prepare(driver, count);
  const server: RunningServer = await startServer({ ...prepared.env, WORKERS: '1' }, { dataDir: prepared.dataDir, compiled: true });
  const pool = driver === 'postgres' ? new pg.Pool({ connectionString: DATABASE_URL, max: CLIENTS, options: `-c search_path=${prepared.schema}` }) : undefined;
  const lines: Line[] = [];
  try {
    const get = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'api-key': prepared.secretKey } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    for (const { name, query, filter } of queries()) {
      await get(`/checkout/orders?${query}`);
      const api = await timed(CLIENTS, REQUESTS, () => get(`/checkout/orders?${query}`));
      let boundP95: number | undefined;
      if (pool) {
        const statement = await statementOf({ ...filter, merchantId: prepared.merchantId, mode: 'test' });
        const bare = await timed(CLIENTS, REQUESTS, async () => void (await pool.query(statement.sql, statement.params as unknown[])));
        boundP95 = quantile(bare, 0.95);
      }
      lines.push({ name, p50: quantile(api, 0.5), p95: quantile(api, 0.95), ...(boundP95 === undefined ? {} : { boundP95 }) });
      process.stderr.write(`${driver} ${name}: p95 ${quantile(api, 0.95).toFixed(1)} ms${boundP95 === undefined ? '' : ` (bare SQL ${boundP95.toFixed(1)} ms)`}\n`);
    }
    // The export: every order of the measured merchant, streamed.
    const rssBefore = rssMiB(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid))), 100);
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/checkout/orders/export`, { headers: { 'api-key': prepared.secretKey } });
    let rows = -1;
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) rows += (decoder.decode(read.value, { stream: true }).match(/\r\n/g) ?? []).length;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const table = [
      `| ${driver}, ${count.toLocaleString('en')} orders (seeded in ${prepared.seedSeconds.toFixed(0)} s) | p50 ms | p95 ms | bound: bare SQL p95 ms |`,
      '|---|---|---|---|',
      ...lines.map((line) => `| ${line.name} | ${line.p50.toFixed(1)} | ${line.p95.toFixed(1)} | ${line.boundP95?.toFixed(1) ?? '-'} |`),
      '',
      `Export: ${rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s; server RSS ${rssBefore.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (+${(peak - rssBefore).toFixed(0)} MiB).`,
    ];
    return table.join('\n');
  } finally {
    await pool?.end();
    await server.stop();
    rmSync(prepared.dataDir, { recursive: true, force: true });
    if (driver === 'postgres') {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${prepared.schema} CASCADE`);
      await admin.end();
    }
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const sections: string[] = [`Machine: ${machine}. ${CLIENTS} clients, ${REQUESTS} requests a line.`];
if (DATABASE_URL) sections.push(await measure('postgres', Number(process.env.BENCH_OPERATIONS_ORDERS ?? 1_000_000)));
sections.push(await measure('pglite', Number(process.env.BENCH_OPERATIONS_PGLITE_ORDERS ?? 100_000)));
process.stdout.write(`${sections.join('\n\n')}\n`);
