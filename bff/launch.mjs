// `npm run build`, `npm start` and `npm run merchant`: plain JavaScript, so nothing transpiles TypeScript at run time.
//
//   node bff/launch.mjs build              compiles bff/ and shared/ into dist/ (tsc -p tsconfig.build.json), copies
//                                          the files the server reads at run time beside them, builds the widget
//   node bff/launch.mjs start              compiles first when dist/ is missing or older than its sources, then runs
//                                          dist/bff/server.js in this process (it builds the widget when stale)
//   node bff/launch.mjs merchant ARGS...   the same, then dist/bff/cli/merchant.js with ARGS
//
// Build messages go to stderr: the merchant CLI's stdout carries only its JSON. `CHECKOUT_BUILD_DIR` (a folder name
// under the project, default `dist`) puts the build elsewhere: the tests build into a folder of their own.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const buildDir = process.env.CHECKOUT_BUILD_DIR || 'dist';
if (!/^[\w.-]+$/.test(buildDir) || buildDir.startsWith('.')) fail(`Invalid configuration: CHECKOUT_BUILD_DIR must be a folder name under the project (got ${JSON.stringify(buildDir)}).`);
const dist = path.join(root, buildDir);
/** Written after a whole server build; its time is the build's. */
const stamp = path.join(dist, 'bff', '.built');
/** What the compiled server is made from. */
const serverSources = ['bff', 'shared', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((source) => path.join(root, source));

/** The latest modification time of a file or of any file under a folder (folders' own times left out). */
function newestChange(source) {
  let stats;
  try {
    stats = statSync(source);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestChange(path.join(source, entry.name)));
  }
  return newest;
}

function serverBuildIsStale() {
  let builtAt;
  try {
    builtAt = statSync(stamp).mtimeMs;
  } catch {
    return true;
  }
  return serverSources.some((source) => newestChange(source) > builtAt);
}

/** Files other than TypeScript that the server reads beside its modules (migrations, page assets, the RSA worker). */
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copyAssets(source, target);
    } else if (!/\.(ts|mjs)$/.test(entry.name) && entry.name !== 'README.md') {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, target);
    }
  }
}

function buildServer() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    fail('Cannot build the server: TypeScript is not installed (run `npm install`, or build where the dev dependencies are and ship dist/).');
  }
  process.stderr.write(`Compiling the server (bff/, shared/) into ${buildDir}/...\n`);
  const project = ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', dist, '--tsBuildInfoFile', path.join(dist, '.tsbuildinfo')];
  const result = spawnSync(process.execPath, [tsc, ...project], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) fail('Cannot build the server: tsc reported the errors above.');
  for (const folder of ['bff', 'shared']) copyAssets(path.join(root, folder), path.join(dist, folder));
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

async function buildWidget() {
  process.stderr.write(`Building the widget into ${buildDir}/widget...\n`);
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'info', build: { outDir: path.join(dist, 'widget'), emptyOutDir: true } });
}

/**
 * Runs `work` holding the build folder's lock (a directory, made atomically), so processes started together (a
 * script running the CLI twice, tests) never compile into the same folder at once; a waiter re-checks afterwards.
 */
let heldLock;
async function withBuildLock(work) {
  const lock = path.join(root, `.${buildDir}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      heldLock = lock;
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than any build is left over from a killed build.
      if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
    heldLock = undefined;
  }
}

function fail(message) {
  if (heldLock) rmSync(heldLock, { recursive: true, force: true });
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'build':
    await withBuildLock(buildServer);
    await buildWidget();
    break;
  case 'start':
  case 'merchant': {
    if (serverBuildIsStale()) await withBuildLock(() => serverBuildIsStale() && buildServer());
    const entry = path.join(dist, 'bff', command === 'start' ? 'server.js' : 'cli/merchant.js');
    if (!existsSync(entry)) fail(`Cannot start: ${path.relative(root, entry)} is missing after the build.`);
    // The entry reads its arguments from process.argv as if it had been started itself.
    process.argv.splice(1, process.argv.length - 1, entry, ...rest);
    await import(pathToFileURL(entry).href);
    break;
  }
  default:
    fail('usage: node bff/launch.mjs build | start | merchant [arguments]');
}
