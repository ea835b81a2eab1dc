import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../bff/app.ts';
import { readConfig } from '../../bff/config.ts';
import * as orders from '../../bff/repositories/orders.ts';
import * as payments from '../../bff/repositories/payments.ts';
import * as refunds from '../../bff/repositories/refunds.ts';
import type { Storage } from '../../bff/storage/storage.ts';
import { CheckoutClient } from '../support/checkout.ts';

/**
 * `node --import tsx test/bench/reads.ts`: what the read path of status and fee costs through the repositories, in
 * this process, on PGlite (and PostgreSQL when DATABASE_URL is set): wall time and this process's CPU per read, for
 * an order without attempts and one paid by card. CPU (of the calling thread, and of the whole process with its
 * worker threads) survives a busy machine better than wall time does.
 */
const COUNT = Number(process.env.READS_COUNT ?? 2000);
const DATABASE_URL = process.env.DATABASE_URL;

type Reader = { name: string; read: (db: Storage, merchantId: number, reference: string) => Promise<unknown> };

const readers: Reader[] = [
  {
    name: 'status, three statements (order, payments, refunds)',
    read: async (db, merchantId, reference) => {
      const [order] = await orders.findOrders(db, merchantId, 'test', reference);
      return [await payments.listPayments(db, order!.id), await refunds.listRefunds(db, order!.id)];
    },
  },
  { name: 'status, one statement (order with its attempts)', read: (db, merchantId, reference) => orders.findOrdersWithAttempts(db, merchantId, 'test', reference) },
  { name: 'fee, the order only', read: (db, merchantId, reference) => orders.findOrders(db, merchantId, 'test', reference) },
];

/** The CPU time of the PostgreSQL backend serving this pool's idle connection, when the server runs on this machine. */
async function backendCpu(storage: Storage): Promise<{ before: number; read: () => number } | undefined> {
  if (storage.driver !== 'postgres') return undefined;
  const [row] = await storage.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const read = () => {
    const stat = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  try {
    return { before: read(), read };
  } catch {
    return undefined;
  }
}

async function measure(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-bench-reads-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const app = await buildApp(
    readConfig({
      NODE_ENV: 'test',
      JOBS_POLL_MS: '0',
      CHECKOUT_DATA_DIR: dataDir,
      CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
      LOG_LEVEL: 'silent',
    }),
  );
  try {
    const keys = await app.merchants.create({ name: 'Bench Store', country: 'NG', supportEmail: 'bench@store.test' });
    const client = new CheckoutClient(app, keys);
    const unpaid = await client.newOrder();
    const paid = await client.newOrder();
    const answer = await client.payByCard(paid, '5555555555554444');
    if (answer.statusCode !== 200) throw new Error(`payment failed: ${answer.body}`);
    for (const [label, reference] of [['no attempts', unpaid], ['paid by card', paid]] as const) {
      for (const reader of readers) {
        for (let index = 0; index < 200; index += 1) await reader.read(app.storage, keys.subsidiaryId, reference);
        const backend = await backendCpu(app.storage);
        const cpu = process.cpuUsage();
        const thread = process.threadCpuUsage();
        const started = performance.now();
        for (let index = 0; index < COUNT; index += 1) await reader.read(app.storage, keys.subsidiaryId, reference);
        const wall = performance.now() - started;
        const used = process.cpuUsage(cpu);
        const usedHere = process.threadCpuUsage(thread);
        const backendMs = backend && (backend.read() - backend.before) / COUNT;
        const perRead = (usage: NodeJS.CpuUsage) => ((usage.user + usage.system) / 1000 / COUNT).toFixed(3);
        console.log(
          `${app.storage.driver.padEnd(8)} ${label.padEnd(12)} ${reader.name.padEnd(56)} ${(COUNT / (wall / 1000)).toFixed(0).padStart(6)}/s  ` +
            `CPU ms/read: ${perRead(usedHere)} this thread, ${perRead(used)} the process${backendMs === undefined ? '' : `, ${backendMs.toFixed(3)} its PostgreSQL backend`}`,
        );
      }
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  }
}

await measure(undefined);
if (DATABASE_URL) await measure(DATABASE_URL);
