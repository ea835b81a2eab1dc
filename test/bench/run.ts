import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../bff/app.ts';
import { readConfig } from '../../bff/config.ts';
import { encryptJwe, encryptLegacy } from '../support/encrypt.ts';
import { card, orderPayload } from '../support/checkout.ts';

/**
 * `npm run bench`: the backend's throughput and latency on this machine, over real HTTP on 127.0.0.1, on the
 * embedded database. Bounded: a fixed number of requests per scenario at a fixed concurrency. Prints a Markdown
 * table for BENCHMARKS.md.
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-bench-'));
const app = await buildApp(
  readConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CHECKOUT_DATA_DIR: dataDir, CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64') }),
);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const keys = await app.merchants.create({ name: 'Bench Store', country: 'NG', supportEmail: 'bench@store.test' });

async function post(url: string, body: unknown): Promise<{ statusCode?: string; status_code?: string }> {
  const response = await fetch(`${address}${url}`, {
    method: 'POST',
    headers: { 'api-key': keys.publishableKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<{ statusCode?: string }>;
}

type Result = { name: string; requests: number; seconds: number; p50: number; p95: number; p99: number };

async function scenario(name: string, prepare: (index: number) => Promise<() => Promise<unknown>>): Promise<Result> {
  const jobs = await Promise.all(Array.from({ length: REQUESTS }, (_, index) => prepare(index)));
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const begin = performance.now();
        await job();
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { name, requests: REQUESTS, seconds, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

const reference = `BENCH-${randomBytes(4).toString('hex')}`;
await post('/checkout/order/create', { data: await encryptJwe(app, keys.publishableKey, orderPayload(reference)) });

const expectOk = (body: { statusCode?: string; status_code?: string }, code: string) => {
  if ((body.statusCode ?? body.status_code) !== code) throw new Error(`unexpected answer ${JSON.stringify(body)}`);
};

const results: Result[] = [];
results.push(
  await scenario('order status, legacy RSA-4096 payload', async () => {
    const data = encryptLegacy(keys.encryptionKey, { reference });
    return async () => expectOk(await post('/checkout/order/status', { data }), '00');
  }),
);
results.push(
  await scenario('order status, JWE ECDH-ES+A256KW payload', async () => {
    const data = await encryptJwe(app, keys.publishableKey, { reference });
    return async () => expectOk(await post('/checkout/order/status', { data }), '00');
  }),
);
results.push(
  await scenario('order status, JWE RSA-OAEP-256 payload', async () => {
    const data = await encryptJwe(app, keys.publishableKey, { reference }, 'RSA-OAEP-256');
    return async () => expectOk(await post('/checkout/order/status', { data }), '00');
  }),
);
results.push(
  await scenario('create order + pay by card (two requests, JWE)', async (index) => {
    const orderReference = `${reference}-${index}`;
    const create = await encryptJwe(app, keys.publishableKey, orderPayload(orderReference));
    const pay = await encryptJwe(app, keys.publishableKey, { reference: orderReference, paymentoption: 'C', card: card('5555555555554444') });
    return async () => {
      expectOk(await post('/checkout/order/create', { data: create }), '01');
      expectOk(await post('/checkout/order/pay', { data: pay }), '00');
    };
  }),
);

const memory = process.memoryUsage();
await app.close();
rmSync(dataDir, { recursive: true, force: true });

const cpu = cpus()[0]?.model ?? 'unknown CPU';
process.stdout.write(
  [
    `Machine: ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, PGlite; ${REQUESTS} requests per scenario at concurrency ${CONCURRENCY}, HTTP on 127.0.0.1.`,
    '',
    '| scenario | requests/s | p50 ms | p95 ms | p99 ms |',
    '|---|---|---|---|---|',
    ...results.map((r) => `| ${r.name} | ${(r.requests / r.seconds).toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} |`),
    '',
    `Resident memory after the run: ${(memory.rss / 2 ** 20).toFixed(0)} MiB (heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB).`,
    '',
  ].join('\n'),
);
