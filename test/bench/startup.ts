import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../support/processes.ts';
import { bannerComplete } from '../support/start-command.ts';

/**
 * Start-up time and resident memory of the server, as BENCHMARKS.md quotes them:
 *
 *   npx tsx test/bench/startup.ts [--runs N] [--cwd DIR] [--database postgres://...] -- COMMAND ARGS...
 *
 * e.g. `-- node --import tsx bff/server.ts` (how `npm start` ran before issue 16) or `-- node bff/launch.mjs start`
 * (how it runs now). Each run starts COMMAND on PGlite (or, with --database, on that PostgreSQL database, in a
 * schema of its own, WORKERS=1) in a data folder initialised by a first, unmeasured start,
 * times it from spawn to the banner (listening, sandbox merchant checked, start-up jobs run), reads the process's
 * VmRSS from /proc once it has listened and again after 3 idle seconds, and stops it with SIGTERM. Medians are printed.
 */
const separator = process.argv.indexOf('--');
const options = process.argv.slice(2, separator < 0 ? undefined : separator);
const command = separator < 0 ? [] : process.argv.slice(separator + 1);
if (command.length === 0) {
  process.stderr.write('usage: npx tsx test/bench/startup.ts [--runs N] [--cwd DIR] -- COMMAND ARGS...\n');
  process.exit(2);
}
const option = (name: string) => {
  const index = options.indexOf(name);
  return index < 0 ? undefined : options[index + 1];
};
const RUNS = Number(option('--runs') ?? 5);
const DATABASE = option('--database');
const SCHEMA = `bench_startup_${process.pid}`;
const CWD = path.resolve(option('--cwd') ?? '.');
const dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-startup-'));

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function once(): Promise<{ ms: number; rssListening: number; rssIdle: number }> {
  const port = await freePort();
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'METRICS_PORT', 'WORKERS']) delete inherited[name];
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: CWD,
    env: { ...inherited, PORT: String(port), CHECKOUT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', CHECKOUT_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'), ...(DATABASE ? { DATABASE_URL: DATABASE, DATABASE_SCHEMA: SCHEMA, WORKERS: '1' } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stdout}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (bannerComplete(stdout)) resolve();
    });
  });
  const ms = performance.now() - started;
  const rssListening = rssMiB(child.pid!);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssIdle = rssMiB(child.pid!);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { ms, rssListening, rssIdle };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  await once(); // initialises the database folder; not measured
  const runs = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await once());
  process.stdout.write(
    `${command.join(' ')} on ${DATABASE ? 'PostgreSQL' : 'PGlite'} (node ${process.version} here; runs: ${RUNS}): start ${Math.round(median(runs.map((run) => run.ms)))} ms, ` +
      `RSS listening ${median(runs.map((run) => run.rssListening)).toFixed(0)} MiB, after 3 s idle ${median(runs.map((run) => run.rssIdle)).toFixed(0)} MiB\n`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (DATABASE) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: DATABASE });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await client.end();
  }
}
