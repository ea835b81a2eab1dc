import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanPlace, newPlace } from '../support/app.ts';
import { freePort } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A build folder of this test's own, so the suite's dist/ is never emptied under other tests. */
const BUILD_DIR = `dist-test-${randomBytes(4).toString('hex')}`;
const place = newPlace('pglite');
afterAll(async () => {
  rmSync(path.join(ROOT, BUILD_DIR), { recursive: true, force: true });
  await cleanPlace(place);
});

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CHECKOUT_BUILD_DIR: BUILD_DIR, CHECKOUT_DATA_DIR: place.dataDir, LOG_LEVEL: 'warn', ...extra };
  for (const name of ['DATABASE_URL', 'CHECKOUT_MASTER_KEY', 'NODE_ENV', 'CHECKOUT_WIDGET_DIR', 'NODE_OPTIONS']) delete env[name];
  return env;
}

/** `npm run <script>`, as an operator types it; resolves with its exit code and what it wrote. */
async function npmRun(script: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('npm', ['run', script], { cwd: ROOT, env: environment(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** `npm start` until it prints its banner. */
async function npmStart(port: number, extra: Record<string, string> = {}): Promise<{ child: ChildProcess; stdout: string; stderr: () => string }> {
  // In a process group of its own, as in a terminal, so a stop reaches npm and the server alike (Ctrl-C, or a
  // service manager's SIGTERM to the group).
  const child = spawn('npm', ['start'], { cwd: ROOT, env: environment({ PORT: String(port), METRICS_PORT: '0', ...extra }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${stdout}\n${stderr}`)), 180_000);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${stdout}\n${stderr}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('API docs:') && stdout.endsWith('\n\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, stdout, stderr: () => stderr };
}

/** SIGTERM to the group; resolves once npm has exited and no process of this build is left. */
async function stop(child: ChildProcess): Promise<{ args: string[]; environment: string[] }[]> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  for (let tries = 0; serverProcesses().length > 0 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  return serverProcesses();
}

/** The node processes of this test's build (npm's child, found by its environment in /proc): arguments and environment. */
function serverProcesses(): { args: string[]; environment: string[] }[] {
  const found: { args: string[]; environment: string[] }[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (!environment.includes(`CHECKOUT_BUILD_DIR=${BUILD_DIR}`)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (path.basename(args[0] ?? '') === 'node') found.push({ args, environment });
    } catch {
      // A process that ended meanwhile, or another user's.
    }
  }
  return found;
}

describe('the compiled server', () => {
  it('npm run build compiles bff/ and shared/ to JavaScript with the files they read, and builds the widget', { timeout: 300_000 }, async () => {
    const build = await npmRun('build');
    expect(build.code, build.stderr).toBe(0);
    const dist = path.join(ROOT, BUILD_DIR);
    for (const file of ['bff/server.js', 'bff/cli/merchant.js', 'shared/orders.js', 'bff/pages/pages.css', 'bff/pages/pages.js', 'bff/pages/favicon.svg', 'bff/crypto/rsa-worker.cjs', 'bff/storage/migrations/001_merchants_keys_links.sql', 'widget/checkout.html', 'widget/embed.js']) {
      expect(existsSync(path.join(dist, file)), file).toBe(true);
    }
    expect(existsSync(path.join(dist, 'bff/server.ts'))).toBe(false);
    // Relative imports point at the compiled modules.
    expect(readFileSync(path.join(dist, 'bff/server.js'), 'utf8')).toMatch(/from "\.\/app\.js"/);
  });

  it('npm start runs the compiled JavaScript with plain node, without building again, and answers /health', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const started = await npmStart(port);
    try {
      expect(started.stderr()).not.toContain('Compiling');
      // The server is plain node running the launcher, which imports dist's server.js: no TypeScript loader. V8's
      // heap grows by 30% at a time, its young generation is 4 MiB a semi-space, it keeps its bytecode and makes no
      // object old by where it was made, and glibc keeps two malloc arenas and gives large blocks back
      // (docs/operations.md, "Memory").
      const servers = serverProcesses();
      expect(servers.length).toBeGreaterThanOrEqual(1);
      for (const server of servers) {
        expect(server.args.slice(1)).toEqual([
          '--heap-growing-percent=30',
          '--max-semi-space-size=4',
          '--no-flush-bytecode',
          '--no-allocation-site-pretenuring',
          'bff/launch.mjs',
          'start',
        ]);
        expect(server.environment).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=2', 'MALLOC_TRIM_THRESHOLD_=131072', 'MALLOC_MMAP_THRESHOLD_=32768']));
      }
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ statusCode: '00' });
      // Its pages read their assets and the migrations from the build; the widget is the build's own.
      expect((await fetch(`http://127.0.0.1:${port}/embed.js`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/favicon.ico`)).status).not.toBe(500);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(ready.status).toBe(200);
      // One process (PGlite), its own metrics on their own port, the requests above counted.
      expect(started.stdout).toContain('processes: 1 (PGlite is opened by one process; DATABASE_URL runs several)');
      const metricsUrl = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(started.stdout)![1]!;
      const metrics = await (await fetch(metricsUrl)).text();
      expect(metrics).toContain('checkout_http_requests_total{method="GET",route="/health",status_code="200"} 1');
      expect(metrics).toContain('checkout_database_scrape_ok 1');
    } finally {
      expect(await stop(started.child)).toEqual([]);
    }
  });

  it('npm start compiles again first when a source changed after the build, and runs one process on PGlite whatever WORKERS says', { timeout: 300_000 }, async () => {
    // The build is made older than the sources (rather than a source made newer: the suite's own dist/ stays fresh).
    const stamp = path.join(ROOT, BUILD_DIR, 'bff/.built');
    utimesSync(stamp, new Date(0), new Date(0));
    const port = await freePort();
    const started = await npmStart(port, { WORKERS: '2' });
    try {
      expect(started.stderr()).toContain(`Compiling the server (bff/, shared/) into ${BUILD_DIR}/`);
      // PGlite runs one process whatever WORKERS says, and says so.
      expect(started.stderr()).toContain('WORKERS=2 is ignored: the embedded PGlite database is opened by one process, so one server process runs. Set DATABASE_URL (PostgreSQL) to run several.');
      expect(started.stdout).toContain('processes: 1 (PGlite');
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      expect(await stop(started.child)).toEqual([]);
    }
  });
});
