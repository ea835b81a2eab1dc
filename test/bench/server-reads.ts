import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { CompactEncrypt, importJWK } from 'jose';
import { orderPayload } from '../support/checkout.ts';
import { encryptLegacy } from '../support/encrypt.ts';
import { startServer } from '../e2e/support/server.ts';

/**
 * `node --import tsx test/bench/server-reads.ts`: the server's read endpoints (status with a JWE or a legacy RSA payload, fee) under
 * autocannon from this process, with what each request costs the server: CPU of the whole process and of its main
 * thread (the event loop that serves requests) from /proc, and its resident memory. Medians of interleaved
 * repetitions. `DATABASE_URL` runs it on PostgreSQL; the environment is passed to the server as it is.
 */
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const AMOUNT = Number(process.env.BENCH_AMOUNT ?? 3000);
const TICKS = 100;

function cost(pid: number) {
  const ticks = (file: string) => {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  };
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { process: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`), rssMiB: Number(rss ?? 0) / 1024 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const server = await startServer({ RATE_LIMIT_PER_IP: '100000000', RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_FAILURES_PER_IP: '100000000', LOG_LEVEL: 'warn', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: `bench_${randomBytes(4).toString('hex')}` } : {}) });
console.log(`RSS after start: ${cost(server.pid).rssMiB.toFixed(0)} MiB`);
try {
  const key = server.publishableKey;
  const answer = (await (await fetch(`${server.baseUrl}/checkout/keys`, { headers: { 'api-key': key } })).json()) as { data: { keys: { alg: string; kid: string }[] } };
  const jwk = answer.data.keys.find((each) => each.alg === 'ECDH-ES+A256KW')!;
  const encrypt = async (plain: unknown) =>
    new CompactEncrypt(new TextEncoder().encode(JSON.stringify(plain))).setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, jwk.alg));
  const reference = `BENCH-${randomBytes(4).toString('hex')}`;
  const post = async (path: string, plain: unknown) =>
    (await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ data: await encrypt(plain) }) })).json();
  await post('/checkout/order/create', orderPayload(reference));
  const scenarios = [
    { name: 'status, JWE ECDH-ES', path: '/checkout/order/status', body: JSON.stringify({ data: await encrypt({ reference }) }) },
    { name: 'fee, with the order', path: '/checkout/order/fee', body: JSON.stringify({ data: await encrypt({ reference, amount: 5000, paymentoption: 'C' }) }) },
    { name: 'status, legacy RSA-4096', path: '/checkout/order/status', body: JSON.stringify({ data: encryptLegacy(server.encryptionKey, { reference }) }), amount: AMOUNT / 5 },
  ];
  const samples = new Map<string, { rps: number; cpu: number; main: number; rss: number }[]>();
  for (let round = 0; round < REPETITIONS; round += 1) {
    for (const scenario of scenarios) {
      const before = cost(server.pid);
      const started = performance.now();
      let last = started;
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          { url: `${server.baseUrl}${scenario.path}`, connections: 16, amount: scenario.amount ?? AMOUNT, method: 'POST', headers: { 'api-key': key, 'content-type': 'application/json' }, body: scenario.body },
          (error, done) => (error ? reject(error) : resolve(done)),
        );
        instance.on('response', () => (last = performance.now()));
      });
      const after = cost(server.pid);
      if (result.non2xx + result.errors > 2) throw new Error(`${result.non2xx + result.errors} requests failed`);
      const requests = result.requests.total;
      const list = samples.get(scenario.name) ?? [];
      list.push({ rps: requests / ((last - started) / 1000), cpu: (after.process - before.process) / requests, main: (after.main - before.main) / requests, rss: after.rssMiB });
      samples.set(scenario.name, list);
    }
  }
  for (const [name, list] of samples) {
    console.log(
      `${name.padEnd(22)} ${median(list.map((each) => each.rps)).toFixed(0).padStart(6)} req/s  CPU ms/req: ${median(list.map((each) => each.cpu)).toFixed(2)} process, ` +
        `${median(list.map((each) => each.main)).toFixed(2)} main thread  RSS ${Math.max(...list.map((each) => each.rss)).toFixed(0)} MiB`,
    );
  }
} finally {
  await server.stop();
}
