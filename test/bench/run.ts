import { spawn, type ChildProcess } from 'node:child_process';
import { constants, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { CompactEncrypt, importJWK } from 'jose';
import pg from 'pg';
import { buildApp } from '../../bff/app.ts';
import { readConfig } from '../../bff/config.ts';
import { ecdhPrivateKey, decryptEcdhJwe } from '../../bff/crypto/jwe.ts';
import { generateRsaKeyPair } from '../../bff/crypto/gateway-key.ts';
import { RsaPool } from '../../bff/crypto/rsa-pool.ts';
import * as orders from '../../bff/repositories/orders.ts';
import { card, orderPayload } from '../support/checkout.ts';
import { encryptJwe, encryptLegacy } from '../support/encrypt.ts';
import { ROOT, startServer, type RunningServer } from '../e2e/support/server.ts';
import { measureBundle } from '../widget/bundle-size.ts';
import { quantile, startPacedSampler } from './paced.ts';
import { chainFloorMs, measurePhone, PHONE, type PhoneRun, type PhoneSample } from './phone.ts';

/**
 * `npm run bench`: the backend against its bounds, measured in the same run on this machine.
 *
 * The server runs as `npm start` runs it, in a process of its own (PGlite; and PostgreSQL with one and two
 * processes when DATABASE_URL is set); autocannon drives it from this process over 127.0.0.1, a fixed number of
 * requests per scenario (bounded in time too). Repetitions are interleaved across scenarios and medians quoted.
 * Bounds measured in the same run: bare Fastify (GET, validated POST) in a process of its own, the RSA-4096 private
 * operation on one and two threads, the ECDH-ES unwrap, and the exact statements of status on the same driver.
 * Server CPU per request comes from /proc (user + system time of the server process over the scenario), and so does
 * the part of it on each process's main thread: one thread runs a process's event loop, so that part caps the rate
 * one process can serve however idle the other core is.
 *
 * `npm run bench -- --write` also puts the table into BENCHMARKS.md, between its bench markers.
 */
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
/** How many times the counted status, fee and /health loads the warm-up round sends. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
/** Requests a second to the plain endpoint while legacy RSA payloads saturate the pool. */
const PLAIN_RATE = 100;
const DATABASE_URL = process.env.DATABASE_URL;
const WRITE = process.argv.includes('--write');
const TICKS_PER_SECOND = 100;
/** The benchmark is one client sending thousands of requests: the abuse limits stay out of what it measures. */
const UNLIMITED = { RATE_LIMIT_PER_IP: '100000000', RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_FAILURES_PER_IP: '100000000', LOG_LEVEL: 'warn' };

/**
 * `cores`: where the machine's cores went during the load, as shares of all of them (server processes, this load
 * generator, the rest: the database server and anything else). `rsaCpuMsPerRequest`: the part of `cpuMsPerRequest`
 * spent on the RSA pool's threads. `eventLoopCpuMsPerRequest`: the part spent on the server processes' main threads,
 * their event loops; `eventLoops`, how many served the load.
 */
type Sample = { rps: number; p50: number; p99: number; cpuMsPerRequest: number; rsaCpuMsPerRequest: number; eventLoopCpuMsPerRequest: number; eventLoops: number; rssMiB: number; /** Each server process's RSS at the load's end. */ processRssMiB: number[]; failed: number; cores: { busy: number; server: number; client: number } };
type Line = { name: string; /** Only the latency is this line's: the server's CPU and memory belong to the load beside it. */ latencyOnly?: boolean; bound?: { name: string; rate: number; share: number }; target?: { text: string; met: (median: Sample) => boolean; /** The rate it asks for, when it asks for one. */ rate?: number }; samples: Sample[] };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The machine's busy and total CPU time since boot, in ticks, from /proc/stat (all cores). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** CPU time and nice value from a /proc stat file (utime and stime are the 12th and 13th fields after the command name, nice the 17th). */
function statOf(file: string): { cpuMs: number; nice: number } {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND, nice: Number(fields[16]) };
}

function processCost(pid: number): { cpuMs: number; rssMiB: number } {
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuMs: statOf(`/proc/${pid}/stat`).cpuMs, rssMiB: Number(rss ?? 0) / 1024 };
}

/**
 * CPU time of two of the process's threads: its main thread (the event loop, with the JavaScript it runs and the
 * collector's pauses) and its RSA pool threads, the threads running at a nice value above the main thread's (the pool
 * lowers its threads' priority, bff/crypto/rsa-pool.ts), which no other thread of the server does.
 */
function threadsCpuMs(pid: number): { eventLoop: number; rsa: number } {
  const main = statOf(`/proc/${pid}/task/${pid}/stat`);
  let rsa = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const thread = statOf(`/proc/${pid}/task/${tid}/stat`);
      if (thread.nice > main.nice) rsa += thread.cpuMs;
    } catch {
      // The thread ended between the listing and the read; an ended pool thread's time is not counted.
    }
  }
  return { eventLoop: main.cpuMs, rsa };
}

/**
 * One autocannon run of `amount` requests; `pids` are the processes whose CPU and memory it costs. The first
 * request's answer is checked before the load (`expect`), and every answer of the load must be a 2xx.
 */
async function load(
  url: string | string[],
  options: { amount: number; requests: autocannon.Request[]; pids: number[]; expect: (body: string) => boolean; connections?: number },
): Promise<Sample> {
  const targets = Array.isArray(url) ? url : [url];
  const [first] = options.requests;
  if (first && !first.setupRequest) {
    const answer = await fetch(`${targets[0]}${first.path}`, { method: first.method ?? 'GET', headers: first.headers as Record<string, string>, body: first.body as string | undefined });
    const text = await answer.text();
    if (!options.expect(text)) throw new Error(`unexpected answer to ${first.path}: ${text.slice(0, 300)}`);
  }
  const before = options.pids.map(processCost);
  const threadsBefore = options.pids.map(threadsCpuMs);
  const machineBefore = machineTicks();
  const clientBefore = process.cpuUsage();
  let sampledAt = 0;
  let sampled: { machine: { busy: number; total: number }; client: NodeJS.CpuUsage; servers: { cpuMs: number }[] } | undefined;
  const started = performance.now();
  let lastAnswer = started;
  const results = await Promise.all(
    targets.map(
      (target) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: target,
              connections: Math.max(1, Math.floor((options.connections ?? CONNECTIONS) / targets.length)),
              amount: Math.floor(options.amount / targets.length),
              timeout: 20,
              maxOverallRequests: options.amount,
              requests: options.requests,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
          instance.on('response', () => {
            lastAnswer = performance.now();
            // Where the cores went up to the last answer (a few samples a second): autocannon ends a run on its next
            // one-second tick, and that idle tail would dilute the shares.
            if (lastAnswer - sampledAt >= 25) {
              sampledAt = lastAnswer;
              sampled = { machine: machineTicks(), client: process.cpuUsage(clientBefore), servers: options.pids.map(processCost) };
            }
          });
        }),
    ),
  );
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
  // A load's last requests can be cut when autocannon reaches its count; more than that is a broken run.
  if (failed > Math.max(2, requests / 100)) throw new Error(`${failed} of ${requests} requests of the load failed (not 2xx, an error or a timeout)`);
  const after = options.pids.map(processCost);
  const threads = options.pids.map((pid, index) => {
    const now = threadsCpuMs(pid);
    return { eventLoop: now.eventLoop - threadsBefore[index]!.eventLoop, rsa: now.rsa - threadsBefore[index]!.rsa };
  });
  const rsaMs = threads.reduce((sum, thread) => sum + thread.rsa, 0);
  const loopsMs = threads.map((thread) => thread.eventLoop);
  const machine = sampled?.machine ?? machineTicks();
  const client = sampled?.client ?? process.cpuUsage(clientBefore);
  const serverCpuMs = (sampled?.servers ?? after).reduce((sum, cost, index) => sum + cost.cpuMs - before[index]!.cpuMs, 0);
  // From the start to the last answer: autocannon ends a run on its next one-second tick, not at the last answer.
  const seconds = (lastAnswer - started) / 1000;
  const cpuMs = after.reduce((sum, cost, index) => sum + cost.cpuMs - before[index]!.cpuMs, 0);
  return {
    rps: requests / seconds,
    p50: median(results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    cpuMsPerRequest: cpuMs / requests,
    rsaCpuMsPerRequest: Math.max(0, rsaMs) / requests,
    eventLoopCpuMsPerRequest: loopsMs.reduce((sum, ms) => sum + ms, 0) / requests,
    // A cluster's primary only hands connections over: the event loops that served are those that did real work.
    eventLoops: Math.max(1, loopsMs.filter((ms) => ms >= 0.1 * Math.max(...loopsMs)).length),
    cores: (() => {
      const totalMs = ((machine.total - machineBefore.total) * 1000) / TICKS_PER_SECOND;
      return {
        busy: (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total),
        server: serverCpuMs / totalMs,
        client: (client.user + client.system) / 1000 / totalMs,
      };
    })(),
    rssMiB: after.reduce((sum, cost) => sum + cost.rssMiB, 0),
    processRssMiB: after.map((cost) => cost.rssMiB),
    failed,
  };
}

/** A latency-only line's sample from the paced sampler's answers (test/bench/paced.ts); the load beside it has the costs. */
function latencySample({ latenciesMs, seconds }: { latenciesMs: number[]; seconds: number }): Sample {
  return {
    rps: latenciesMs.length / seconds,
    p50: quantile(latenciesMs, 0.5),
    p99: quantile(latenciesMs, 0.99),
    cpuMsPerRequest: 0,
    rsaCpuMsPerRequest: 0,
    eventLoopCpuMsPerRequest: 0,
    eventLoops: 0,
    rssMiB: 0,
    processRssMiB: [],
    failed: 0,
    cores: { busy: 0, server: 0, client: 0 },
  };
}

const post = (path: string, body: string, apiKey: string): autocannon.Request => ({
  method: 'POST',
  path,
  headers: { 'api-key': apiKey, 'content-type': 'application/json' },
  body,
});

async function encryptFor(baseUrl: string, apiKey: string, plain: unknown): Promise<string> {
  const answer = (await (await fetch(`${baseUrl}/checkout/keys`, { headers: { 'api-key': apiKey } })).json()) as { data: { keys: { alg: string; kid: string }[] } };
  const jwk = answer.data.keys.find((key) => key.alg === 'ECDH-ES+A256KW')!;
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(plain))).setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, jwk.alg));
}

async function call(baseUrl: string, path: string, apiKey: string, data: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
  return (await response.json()) as Record<string, unknown>;
}

// ---- bounds measured in this run -------------------------------------------------------------------------------

async function startBoundsServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bounds-server.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the bounds server exited with ${code}`)));
  });
  return { url, child };
}

/** Private RSA-4096 operations per second on `threads` worker threads of the pool the server uses. */
async function rsaRate(threads: number): Promise<number> {
  const { publicKey, privateKey } = await generateRsaKeyPair(4096);
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const blocks = Array.from({ length: 600 * SCALE }, () => publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, randomBytes(64)));
  const pool = new RsaPool({ threads, queuePerThread: blocks.length });
  // Every thread started and its key parsed before the clock starts: the pool starts threads on demand, and a thread
  // starting inside the measured burst made the bound 2-15% lower than the pool's rate (and a share of it higher).
  for (let round = 0; round < 3; round += 1) await Promise.all(Array.from({ length: threads * 2 }, () => pool.decrypt('raw', 1, der, blocks[0]!)));
  if (pool.liveThreads !== threads) throw new Error(`the RSA pool runs ${pool.liveThreads} threads, not ${threads}`);
  const started = performance.now();
  await Promise.all(blocks.map((block) => pool.decrypt('raw', 1, der, block)));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return blocks.length / seconds;
}

/** ECDH-ES+A256KW unwraps (with the A256GCM content) per second on one thread, as the server does them. */
async function ecdhRate(): Promise<number> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'ECDH-ES+A256KW' };
  const key = ecdhPrivateKey(privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer);
  const data = await new CompactEncrypt(new TextEncoder().encode('{"reference":"BENCH-1"}')).setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM' }).encrypt(await importJWK(jwk, 'ECDH-ES+A256KW'));
  const count = 3000 * SCALE;
  const started = performance.now();
  for (let index = 0; index < count; index += 1) if (!decryptEcdhJwe(data, key)) throw new Error('the unwrap failed');
  return count / ((performance.now() - started) / 1000);
}

/** The statement order status runs (the order with its customer, payments and refunds), per second, from this process. */
async function statusStatementRate(databaseUrl: string | undefined): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-bench-sql-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const app = await buildApp(
    readConfig({
      NODE_ENV: 'test',
      JOBS_POLL_MS: '0',
      CHECKOUT_DATA_DIR: dataDir,
      CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
      ...UNLIMITED,
      LOG_LEVEL: 'silent',
    }),
  );
  try {
    const keys = await app.merchants.create({ name: 'Bench Store', country: 'NG', supportEmail: 'bench@store.test' });
    const reference = `BENCH-${randomBytes(4).toString('hex')}`;
    await app.inject({ method: 'POST', url: '/checkout/order/create', headers: { 'api-key': keys.publishableKey }, payload: { data: await encryptJwe(app, keys.publishableKey, orderPayload(reference)) } });
    const count = 1000 * SCALE;
    // As many in flight as the load has connections: PGlite's thread and PostgreSQL's pool then work while the
    // caller waits, as they do for the server.
    let left = count;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (left-- > 0) await orders.findOrdersWithAttempts(app.storage, keys.subsidiaryId, 'test', reference);
      }),
    );
    return count / ((performance.now() - started) / 1000);
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

// ---- the server's scenarios -----------------------------------------------------------------------------------

/**
 * The server under load: the addresses the load is spread over (one per process started on its own, or the one port
 * of a `WORKERS` cluster, named once per process so each gets its share of the connections), the processes whose CPU
 * and memory are counted, and the sandbox merchant's keys.
 */
type Driver = { name: string; urls: string[]; pids: number[]; keys: Pick<RunningServer, 'publishableKey' | 'encryptionKey'> };

async function scenarios(driver: Driver, bounds: Record<string, number>): Promise<Line[]> {
  const { urls, pids } = driver;
  const main = { ...driver.keys, baseUrl: urls[0]! };
  const key = main.publishableKey;
  const reference = `BENCH-${randomBytes(4).toString('hex')}`;
  await call(main.baseUrl, '/checkout/order/create', key, await encryptFor(main.baseUrl, key, orderPayload(reference)));
  const statusJwe = JSON.stringify({ data: await encryptFor(main.baseUrl, key, { reference }) });
  const statusLegacy = JSON.stringify({ data: encryptLegacy(main.encryptionKey, { reference }) });
  const fee = JSON.stringify({ data: await encryptFor(main.baseUrl, key, { reference, amount: 5000, paymentoption: 'C' }) });
  const ok = (code: string) => (body: string) => body.includes(`"statusCode":"${code}"`) || body.includes(`"status_code":"${code}"`);
  const multi = urls.length > 1;
  const onPglite = driver.name === 'PGlite';

  let pairs = 0;
  const pairBodies: { create: string; pay: string }[] = [];
  const preparePairs = async (count: number) => {
    pairBodies.length = 0;
    pairs = 0;
    for (let index = 0; index < count; index += 1) {
      const orderReference = `${reference}-${randomBytes(6).toString('hex')}`;
      pairBodies.push({
        create: JSON.stringify({ data: await encryptFor(main.baseUrl, key, orderPayload(orderReference)) }),
        pay: JSON.stringify({ data: await encryptFor(main.baseUrl, key, { reference: orderReference, paymentoption: 'C', card: card('5555555555554444') }) }),
      });
    }
  };

  const status: Line = {
    name: `status, JWE ECDH-ES (${driver.name})`,
    bound: { name: 'status statements', rate: bounds[`statements ${driver.name}`]!, share: 1 },
    target: onPglite
      ? { text: '>= 1,000 req/s', met: (sample) => sample.rps >= 1000, rate: 1000 }
      : multi
        ? { text: '>= 2,000 req/s', met: (sample) => sample.rps >= 2000, rate: 2000 }
        : undefined,
    samples: [],
  };
  // The warm-up round's status load, reported beside the warm line: what a freshly started process serves.
  const coldStatus: Line = {
    name: `status, JWE ECDH-ES, the first ${(4000 * WARM_UP * SCALE).toLocaleString('en-US')} requests after start (${driver.name})`,
    bound: status.bound,
    samples: [],
  };
  const legacyStatus: Line = {
    name: `status, legacy RSA-4096 (${driver.name})`,
    bound: { name: 'RSA-4096 on 2 threads', rate: bounds['rsa 2']!, share: 1 },
    target: { text: '>= 70% of the 2-thread RSA rate', met: (sample) => sample.rps >= 0.7 * bounds['rsa 2']!, rate: 0.7 * bounds['rsa 2']! },
    samples: [],
  };
  const feeLine: Line = {
    name: `fee, with the order (${driver.name})`,
    bound: { name: 'validated POST', rate: bounds['validated POST']!, share: 1 },
    target: onPglite ? { text: '>= 2,000 req/s', met: (sample) => sample.rps >= 2000, rate: 2000 } : undefined,
    samples: [],
  };
  const createAndPay: Line = {
    name: `create + pay, pairs (${driver.name})`,
    target: onPglite
      ? { text: '>= 120 pairs/s (2x the 60 measured before)', met: (sample) => sample.rps >= 120 }
      : multi
        ? undefined
        : { text: '>= 257 pairs/s (2x the 128 measured before)', met: (sample) => sample.rps >= 257 },
    samples: [],
  };
  const health: Line = { name: `/health (${driver.name})`, bound: { name: 'bare GET', rate: bounds['bare GET']!, share: 1 }, samples: [] };
  const healthBesideLegacy: Line = {
    name: `/health at ${PLAIN_RATE} req/s while legacy RSA-4096 status saturates the pool (${driver.name})`,
    target: { text: 'p99 < 20 ms', met: (sample) => sample.p99 < 20 },
    latencyOnly: true,
    samples: [],
  };

  // Round -1 warms the processes up (V8 compiles the hot paths and sizes its heap, the pools open their connections
  // and threads, the statements are prepared) and is not counted, a server in service being warm. Its status, fee and
  // /health loads are WARM_UP times the counted ones: a process's CPU per status request falls for its first 20,000 or
  // so (docs/decisions.md, "The benchmark's warm-up"), so one round of the counted size left the first repetitions
  // part-cold.
  for (let round = -1; round < REPETITIONS; round += 1) {
    const keep = (line: Line, sample: Sample) => {
      if (round >= 0) line.samples.push(sample);
      return sample;
    };
    const warming = round < 0 ? WARM_UP : 1;
    const statusSample = keep(status, await load(urls, { amount: 4000 * warming * SCALE, requests: [post('/checkout/order/status', statusJwe, key)], pids, expect: ok('00') }));
    if (round < 0) coldStatus.samples.push(statusSample);
    const legacy = keep(legacyStatus, await load(urls, { amount: 800 * SCALE, requests: [post('/checkout/order/status', statusLegacy, key)], pids, expect: ok('00') }));
    // Legacy load again, for about three seconds at the rate just measured, with a plain endpoint asked 100 times a
    // second beside it for 80% of that time, on a fixed schedule from a process of its own (test/bench/paced.ts):
    // every plain request meets a saturated RSA pool, and its p99 stands on about 240 answers a round (the 99th
    // percentile of fewer is the slowest one or two).
    const saturating = Math.max(800 * SCALE, Math.round(legacy.rps * 3 * SCALE));
    const [, plain] = await Promise.all([
      load(urls, { amount: saturating, requests: [post('/checkout/order/status', statusLegacy, key)], pids, expect: ok('00') }),
      plainSampler.run({ urls, path: '/health', rate: PLAIN_RATE, count: Math.max(20, Math.floor((saturating / legacy.rps) * 0.8 * PLAIN_RATE)) }),
    ]);
    keep(healthBesideLegacy, latencySample(plain));
    keep(feeLine, await load(urls, { amount: 4000 * warming * SCALE, requests: [post('/checkout/order/fee', fee, key)], pids, expect: ok('00') }));
    const count = 600 * SCALE;
    // autocannon sets up a connection's next request before it knows the count is reached, so a few more creates are
    // set up than sent: each gets an order of its own (reusing one would pay a paid order, and fail with 409).
    await preparePairs(count + CONNECTIONS * 2);
    const pairSample = await load(urls, {
      amount: count * 2,
      requests: [
        // Each connection pays the order it just created: the pair's index lives in the connection's context.
        {
          method: 'POST',
          path: '/checkout/order/create',
          headers: { 'api-key': key, 'content-type': 'application/json' },
          setupRequest: (request, context) => {
            (context as Record<string, number>)['pair'] = Math.min(pairs++, pairBodies.length - 1);
            return { ...request, body: pairBodies[(context as Record<string, number>)['pair']!]!.create };
          },
        },
        {
          method: 'POST',
          path: '/checkout/order/pay',
          headers: { 'api-key': key, 'content-type': 'application/json' },
          setupRequest: (request, context) => ({ ...request, body: pairBodies[(context as Record<string, number>)['pair']!]!.pay }),
        },
      ],
      pids,
      expect: (body) => ok('01')(body) || ok('00')(body),
    });
    keep(createAndPay, { ...pairSample, rps: pairSample.rps / 2, cpuMsPerRequest: pairSample.cpuMsPerRequest * 2, rsaCpuMsPerRequest: pairSample.rsaCpuMsPerRequest * 2, eventLoopCpuMsPerRequest: pairSample.eventLoopCpuMsPerRequest * 2 });
    keep(health, await load(urls, { amount: 6000 * warming * SCALE, requests: [{ method: 'GET', path: '/health' }], pids, expect: () => true }));
  }
  return [status, coldStatus, legacyStatus, feeLine, createAndPay, health, healthBesideLegacy];
}

// ---- the run --------------------------------------------------------------------------------------------------

const bounds: Record<string, number> = {};
const boundsServer = await startBoundsServer();
const boundSamples: Record<string, number[]> = { 'bare GET': [], 'validated POST': [] };
const validated = JSON.stringify({ data: randomBytes(300).toString('base64url') });
for (let round = 0; round < REPETITIONS; round += 1) {
  boundSamples['bare GET']!.push((await load(boundsServer.url, { amount: 20000 * SCALE, requests: [{ method: 'GET', path: '/bare' }], pids: [boundsServer.child.pid!], expect: () => true })).rps);
  boundSamples['validated POST']!.push(
    (await load(boundsServer.url, { amount: 20000 * SCALE, requests: [{ method: 'POST', path: '/validated', headers: { 'content-type': 'application/json' }, body: validated }], pids: [boundsServer.child.pid!], expect: () => true })).rps,
  );
}
boundsServer.child.kill();
bounds['bare GET'] = median(boundSamples['bare GET']!);
bounds['validated POST'] = median(boundSamples['validated POST']!);
bounds['rsa 1'] = await rsaRate(1);
bounds['rsa 2'] = await rsaRate(2);
bounds['ecdh'] = await ecdhRate();
bounds['statements PGlite'] = await statusStatementRate(undefined);
if (DATABASE_URL) bounds['statements PostgreSQL'] = await statusStatementRate(DATABASE_URL);

const lines: Line[] = [];
const memory: string[] = [];
// The plain endpoint's answers beside saturated legacy RSA are timed from a process of its own (test/bench/paced.ts).
const plainSampler = await startPacedSampler();
/** The largest RSS of one server process at the end of any load of these lines. */
const peakRss = (measured: Line[]) => Math.max(...measured.flatMap((line) => line.samples.flatMap((sample) => sample.processRssMiB))).toFixed(0);
let phone: PhoneRun = { hosted: [], embedded: [] };
{
  const server = await startServer(UNLIMITED, { compiled: true });
  memory.push(`PGlite, right after a first start on a fresh folder: ${processCost(server.pid).rssMiB.toFixed(0)} MiB`);
  try {
    phone = await measurePhone(server, REPETITIONS);
    const measured = await scenarios({ name: 'PGlite', urls: [server.baseUrl], pids: [server.pid], keys: server }, bounds);
    lines.push(...measured);
    memory.push(`PGlite, at the end of a load, the largest: ${peakRss(measured)} MiB`);
    memory.push(`PGlite, after the load: ${processCost(server.pid).rssMiB.toFixed(0)} MiB`);
  } finally {
    await server.stop();
  }
}
if (DATABASE_URL) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  // Processes sharing one database share its master key, which seals the merchants' private keys.
  const env = { ...UNLIMITED, DATABASE_URL, DATABASE_SCHEMA: schema, CHECKOUT_MASTER_KEY: randomBytes(32).toString('base64') };
  try {
    const single = await startServer({ ...env, WORKERS: '1' }, { compiled: true });
    const keys = { publishableKey: single.publishableKey, encryptionKey: single.encryptionKey };
    try {
      memory.push(`PostgreSQL, one process (WORKERS=1) after start: ${processCost(single.pid).rssMiB.toFixed(0)} MiB`);
      const measured = await scenarios({ name: 'PostgreSQL', urls: [single.baseUrl], pids: [single.pid], keys }, bounds);
      lines.push(...measured);
      memory.push(`PostgreSQL, one process at the end of a load, the largest: ${peakRss(measured)} MiB`);
      memory.push(`PostgreSQL, one process after the load: ${processCost(single.pid).rssMiB.toFixed(0)} MiB`);
    } finally {
      await single.stop();
    }
    // Two processes as \`npm start\` runs them on this 2-core machine when WORKERS is not set: a node:cluster primary
    // and two server processes on one port, sharing the cores (two RSA threads each, bff/process.ts clusterRsaThreads).
    const cluster = await startServer({ ...env, WORKERS: '2' }, { compiled: true });
    try {
      const workers = readFileSync(`/proc/${cluster.pid}/task/${cluster.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      if (workers.length !== 2) throw new Error(`the cluster runs ${workers.length} server processes, not 2`);
      memory.push(`PostgreSQL, each of two processes (WORKERS=2) after start: ${workers.map((pid) => processCost(pid).rssMiB.toFixed(0)).join(' and ')} MiB`);
      const name = 'PostgreSQL, 2 processes';
      const measured = await scenarios({ name, urls: workers.map(() => cluster.baseUrl), pids: [...workers, cluster.pid], keys }, { ...bounds, [`statements ${name}`]: bounds['statements PostgreSQL']! });
      lines.push(...measured);
      memory.push(`PostgreSQL, one of two processes at the end of a load, the largest: ${peakRss(measured)} MiB`);
      memory.push(`PostgreSQL, each of two processes after the load: ${workers.map((pid) => processCost(pid).rssMiB.toFixed(0)).join(' and ')} MiB (their primary: ${processCost(cluster.pid).rssMiB.toFixed(0)} MiB)`);
    } finally {
      await cluster.stop();
    }
  } finally {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}
plainSampler.close();

const bundle = measureBundle();
// The framed checkout loads the most before its first interactive screen (its page also preloads the frame bridge).
const beforeInteractive = bundle.framed.beforeInteractiveGzip;
const beforeInteractiveFrench = bundle.framed.frenchBeforeInteractiveGzip;
const phoneLine = (what: string, samples: PhoneSample[]) => {
  const ready = median(samples.map((sample) => sample.readyMs));
  const chain = Math.max(0, ...samples.map((sample) => sample.chain));
  const floor = chainFloorMs(chain);
  // Where a miss comes from: the round trips of the chain, the bytes at the profile's rate, the rest is the slowed CPU.
  const transferMs = (median(samples.map((sample) => sample.kilobytes)) * 1000 * 1000) / PHONE.downloadBytesPerSecond;
  const reason = `${chain} requests in a chain, ${fixed(floor)} ms at ${PHONE.latencyMs} ms each; their bytes ${fixed(transferMs)} ms; the rest, ${fixed(Math.max(0, ready - floor - transferMs))} ms, the CPU ${PHONE.cpuSlowdown}x slower`;
  const verdict = ready <= 1500 ? 'met' : floor > 1500 ? `missed: the chain alone is over 1,500 ms (${reason})` : `missed (${reason})`;
  return `| ${what} on a throttled phone (Slow 4G: ${PHONE.latencyMs} ms round trip, ${fixed((PHONE.downloadBytesPerSecond * 8) / 1e6, 2)} Mbit/s; CPU ${PHONE.cpuSlowdown}x slower), empty cache, median | ${fixed(ready)} ms, ${samples[0]?.requests ?? 0} requests (a chain of ${chain}, floor ${fixed(floor)} ms), ${fixed(median(samples.map((sample) => sample.kilobytes)), 1)} KB sent | <= 1,500 ms: **${verdict}** |`;
};

const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const table = [
  `Command: \`npm run bench\`${DATABASE_URL ? ' with DATABASE_URL set' : ''}. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${fixed(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. autocannon, ${CONNECTIONS} connections, from a process of its own; medians of ${REPETITIONS} interleaved repetitions.`,
  '',
  '| bound, measured in this run | rate |',
  '|---|---|',
  `| bare Fastify GET | ${fixed(bounds['bare GET']!)} req/s |`,
  `| Fastify POST with a zod-validated body | ${fixed(bounds['validated POST']!)} req/s |`,
  `| RSA-4096 private operation, 1 thread | ${fixed(bounds['rsa 1']!)} /s |`,
  `| RSA-4096 private operation, 2 threads | ${fixed(bounds['rsa 2']!)} /s |`,
  `| ECDH-ES+A256KW unwrap with A256GCM, 1 thread | ${fixed(bounds['ecdh']!)} /s |`,
  `| status statement (order with its payments and refunds), PGlite, in process | ${fixed(bounds['statements PGlite']!)} /s |`,
  ...(DATABASE_URL ? [`| status statement (order with its payments and refunds), PostgreSQL, in process | ${fixed(bounds['statements PostgreSQL']!)} /s |`] : []),
  '',
  '| endpoint | req/s | p50 ms | p99 ms | server CPU ms/req | of it on the event loop, ms/req (the loop busy) | RSS MiB | both cores busy: server + load generator + rest (database) | failed | share of its bound | target |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...lines.map((line) => {
    const m = {
      rps: median(line.samples.map((s) => s.rps)),
      p50: median(line.samples.map((s) => s.p50)),
      p99: median(line.samples.map((s) => s.p99)),
      cpuMsPerRequest: median(line.samples.map((s) => s.cpuMsPerRequest)),
      rsaCpuMsPerRequest: median(line.samples.map((s) => s.rsaCpuMsPerRequest)),
      eventLoopCpuMsPerRequest: median(line.samples.map((s) => s.eventLoopCpuMsPerRequest)),
      eventLoops: Math.max(...line.samples.map((s) => s.eventLoops)),
      rssMiB: Math.max(...line.samples.map((s) => s.rssMiB)),
      processRssMiB: line.samples.flatMap((s) => s.processRssMiB),
      failed: line.samples.reduce((sum, s) => sum + s.failed, 0),
      cores: {
        busy: median(line.samples.map((s) => s.cores.busy)),
        server: median(line.samples.map((s) => s.cores.server)),
        client: median(line.samples.map((s) => s.cores.client)),
      },
    };
    const percent = (share: number) => fixed(100 * Math.max(0, share));
    const cores = `${percent(m.cores.busy)}%: ${percent(m.cores.server)} + ${percent(m.cores.client)} + ${percent(m.cores.busy - m.cores.server - m.cores.client)}`;
    const bound = line.bound && line.bound.rate ? `${fixed((100 * m.rps) / line.bound.rate)}% of ${line.bound.name}` : '';
    // A missed target with both cores nearly saturated is bounded by the machine: the column before says by what.
    // What the asked rate would take at the CPU per request measured: beyond the machine's cores, the machine is the limit.
    // The database server's CPU per request (PostgreSQL; PGlite runs inside the server process): the rest of the
    // machine's busy time over the load, beside the server and the load generator.
    const databaseMs = m.rps > 0 ? (Math.max(0, m.cores.busy - m.cores.server - m.cores.client) * cpus().length * 1000) / m.rps : 0;
    const withDatabase = databaseMs >= 0.05;
    const needed = line.target?.rate ? (line.target.rate * (m.cpuMsPerRequest + (withDatabase ? databaseMs : 0))) / 1000 : undefined;
    // Where a request's server CPU went when part of it ran on the RSA threads: the operation itself, and the rest.
    const rsaSplit = m.rsaCpuMsPerRequest >= 0.05 ? ` (${fixed(m.rsaCpuMsPerRequest, 2)} on the RSA threads, ${fixed(m.cpuMsPerRequest - m.rsaCpuMsPerRequest, 2)} the rest)` : '';
    // At the asked rate, the CPU a request's other work could have once the RSA threads and the load generator have theirs.
    const rest = line.target?.rate ? (cpus().length * (1 - m.cores.client) * 1000 - line.target.rate * m.rsaCpuMsPerRequest) / line.target.rate : 0;
    const restShare = rsaSplit && line.target?.rate ? `; at that rate the rest could have ${fixed(Math.max(0, rest), 2)} ms a request` : '';
    // One thread per process runs the event loop, whatever the cores have left: its CPU per request caps the rate.
    const loopBusy = (m.rps * m.eventLoopCpuMsPerRequest) / (m.eventLoops * 1000);
    const loopCap = m.eventLoopCpuMsPerRequest > 0 ? (m.eventLoops * 1000) / m.eventLoopCpuMsPerRequest : 0;
    const loopShare = `; the event loop${m.eventLoops > 1 ? 's' : ''} ran ${fixed(m.eventLoopCpuMsPerRequest, 2)} ms a request, ${percent(loopBusy)}% busy: at most ${fixed(loopCap)} req/s from ${m.eventLoops > 1 ? `${m.eventLoops} processes` : 'one process'}`;
    const saturated =
      needed !== undefined
        ? ` (at ${fixed(m.cpuMsPerRequest, 2)} ms of server CPU${rsaSplit}${withDatabase ? ` and ${fixed(databaseMs, 2)} ms of the database's` : ''} per request, ${fixed(line.target!.rate!)} req/s needs ${fixed(needed, 2)} of the ${cpus().length} cores for the ${withDatabase ? 'server and its database' : 'server alone'}${restShare}; the cores were ${percent(m.cores.busy)}% busy${loopShare})`
        : !line.latencyOnly && m.cores.busy >= 0.9
          ? ` (cores ${percent(m.cores.busy)}% busy)`
          : '';
    const target = line.target ? `${line.target.text}: **${line.target.met(m) ? 'met' : 'missed'}**${line.target.met(m) ? '' : saturated}` : '';
    const loop = `${fixed(m.eventLoopCpuMsPerRequest, 2)} (${percent(loopBusy)}%)`;
    const cost = line.latencyOnly ? '| | | | |' : `| ${fixed(m.cpuMsPerRequest, 2)} | ${loop} | ${fixed(m.rssMiB)} | ${cores} |`;
    return `| ${line.name} | ${fixed(m.rps)} | ${fixed(m.p50, 1)} | ${fixed(m.p99, 1)} ${cost} ${m.failed} | ${bound} | ${target} |`;
  }),
  '',
  ...memory.map((line) => `- ${line}`),
  `- RSS target (< 300 MiB on PGlite after a first start, under load and after it): **${memory.filter((line) => line.startsWith('PGlite')).every((line) => Number(/(\d+) MiB$/.exec(line)?.[1]) < 300) ? 'met' : 'missed'}**`,
  ...(DATABASE_URL
    ? [`- RSS target (< 200 MiB per process on PostgreSQL, after start, under load and after it): **${memory.filter((line) => line.startsWith('PostgreSQL')).every((line) => [...line.matchAll(/(\d+) (?:and|MiB)/g)].every((match) => Number(match[1]) < 200)) ? 'met' : 'missed'}**`]
    : []),
  '',
  '| widget | measured | target |',
  '|---|---|---|',
  `| whole app, gzip | ${fixed(bundle.wholeAppGzip / 1000, 2)} KB | <= 45 KB: **${bundle.wholeAppGzip <= 45_000 ? 'met' : 'missed'}** |`,
  `| before the first interactive screen of the framed checkout (first paint with the frame bridge, API client with its JWE, wire schemas), gzip | ${fixed(beforeInteractive / 1000, 2)} KB, ${fixed(beforeInteractiveFrench / 1000, 2)} KB in French | <= 35 KB: **${Math.max(beforeInteractive, beforeInteractiveFrench) <= 35_000 ? 'met' : 'missed'}** |`,
  phoneLine("checkout opened directly (a payment-link order's page, where the link's form leads) to the first interactive screen", phone.hosted),
  phoneLine('demo merchant page with the inline checkout (page, embed.js, frame, its scripts) to the first interactive screen', phone.embedded),
  '',
].join('\n');

process.stdout.write(`${table}\n`);
if (WRITE) {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const block = `${start}\n${table}\n${end}`;
  writeFileSync(file, text.includes(start) ? text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block) : `${text.trimEnd()}\n\n## Backend\n\n${block}\n`);
}
