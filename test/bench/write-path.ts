import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../bff/app.ts';
import { readConfig } from '../../bff/config.ts';
import type { Queryable, Storage } from '../../bff/storage/storage.ts';
import { card, orderPayload } from '../support/checkout.ts';
import { encryptJwe } from '../support/encrypt.ts';

/**
 * `npx tsx test/bench/write-path.ts`: the statements and transactions of one order create and one card pay (the
 * bench's "create + pay" pair), counted and timed in process on PGlite and, when DATABASE_URL is set, PostgreSQL.
 * Prints per request: statements, transactions, milliseconds spent waiting on SQL, and the process CPU per pair.
 * `--trace` also lists each statement of the last pair with its time.
 */
const PAIRS = Number(process.env.WRITE_PATH_PAIRS ?? 200);
const TRACE = process.argv.includes('--trace');

type Tally = { statements: number; transactions: number; sqlMs: number; trace: { sql: string; ms: number }[] };
const fresh = (): Tally => ({ statements: 0, transactions: 0, sqlMs: 0, trace: [] });
/** Per statement text (its first words) and for BEGIN/COMMIT: how often, and the milliseconds spent, over the run. */
const byStatement = new Map<string, { count: number; ms: number }>();
const note = (sql: string, ms: number) => {
  const entry = byStatement.get(sql) ?? { count: 0, ms: 0 };
  entry.count += 1;
  entry.ms += ms;
  byStatement.set(sql, entry);
};

/** Wraps the storage the services hold so every statement (in or out of a transaction) is counted and timed. */
function instrument(storage: Storage): { current: Tally } {
  const state = { current: fresh() };
  const timed = (runner: Queryable): Queryable['query'] => {
    const original = runner.query.bind(runner);
    return async (sql, params) => {
      const started = performance.now();
      try {
        return await original(sql, params);
      } finally {
        const ms = performance.now() - started;
        const text = sql.replace(/\s+/g, ' ').slice(0, 110);
        state.current.statements += 1;
        state.current.sqlMs += ms;
        note(text, ms);
        if (TRACE) state.current.trace.push({ sql: text, ms });
      }
    };
  };
  const mutable = storage as { -readonly [K in keyof Storage]: Storage[K] };
  mutable.query = timed(storage);
  const transaction = storage.transaction.bind(storage);
  mutable.transaction = async (work) => {
    state.current.transactions += 1;
    // BEGIN and COMMIT: the transaction's time outside the statements of its work.
    const started = performance.now();
    let inWork = 0;
    try {
      return await transaction(async (tx) => {
        const workStarted = performance.now();
        try {
          return await work({ ...tx, query: timed(tx) });
        } finally {
          inWork = performance.now() - workStarted;
        }
      });
    } finally {
      const ms = performance.now() - started - inWork;
      state.current.sqlMs += ms;
      note('BEGIN + COMMIT', ms);
    }
  };
  return state;
}

async function measure(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-write-path-'));
  const schema = `writes_${randomBytes(4).toString('hex')}`;
  const app = await buildApp(
    readConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JOBS_POLL_MS: '0',
      CHECKOUT_DATA_DIR: dataDir,
      CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64'),
      RATE_LIMIT_PER_IP: '100000000',
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_FAILURES_PER_IP: '100000000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    }),
  );
  try {
    const keys = await app.merchants.create({ name: 'Bench Store', country: 'NG', supportEmail: 'bench@store.test' });
    const bodies = [];
    for (let index = 0; index < PAIRS; index += 1) {
      const reference = `WRITE-${randomBytes(6).toString('hex')}`;
      bodies.push({
        create: { data: await encryptJwe(app, keys.publishableKey, orderPayload(reference)) },
        pay: { data: await encryptJwe(app, keys.publishableKey, { reference, paymentoption: 'C', card: card('5555555555554444') }) },
      });
    }
    const state = instrument(app.storage);
    byStatement.clear();
    const totals = { create: fresh(), pay: fresh() };
    const warmup = Math.min(20, Math.floor(PAIRS / 5));
    let cpu = process.cpuUsage();
    let started = performance.now();
    for (const [index, body] of bodies.entries()) {
      if (index === warmup) {
        totals.create = fresh();
        totals.pay = fresh();
        byStatement.clear();
        cpu = process.cpuUsage();
        started = performance.now();
      }
      for (const step of ['create', 'pay'] as const) {
        state.current = fresh();
        const response = await app.inject({ method: 'POST', url: `/checkout/order/${step}`, headers: { 'api-key': keys.publishableKey }, payload: body[step] });
        if (response.statusCode !== 200) throw new Error(`${step} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
        const total = totals[step];
        total.statements += state.current.statements;
        total.transactions += state.current.transactions;
        total.sqlMs += state.current.sqlMs;
        total.trace = state.current.trace;
      }
    }
    const measured = PAIRS - warmup;
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - started;
    const driver = databaseUrl ? 'PostgreSQL' : 'PGlite';
    for (const step of ['create', 'pay'] as const) {
      const total = totals[step];
      console.log(
        `${driver} ${step}: ${(total.statements / measured).toFixed(2)} statements, ${(total.transactions / measured).toFixed(2)} transactions, ` +
          `${(total.sqlMs / measured).toFixed(2)} ms waiting on SQL per request`,
      );
      if (TRACE) for (const line of total.trace) console.log(`   ${line.ms.toFixed(3).padStart(7)} ms  ${line.sql}`);
    }
    console.log(`${driver} mean per statement over the run (count per pair, ms each):`);
    for (const [sql, entry] of byStatement) console.log(`   ${(entry.count / measured).toFixed(2).padStart(5)} x ${(entry.ms / entry.count).toFixed(3).padStart(7)} ms  ${sql}`);
    console.log(
      `${driver} pair: ${((used.user + used.system) / 1000 / measured).toFixed(2)} ms CPU per pair (user+system of this process), ` +
        `${(wallMs / measured).toFixed(2)} ms wall per pair one at a time, ${measured} pairs`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
}

await measure(undefined);
if (process.env.DATABASE_URL) await measure(process.env.DATABASE_URL);
