import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cleanPlace, newPlace } from '../support/app.ts';

const place = newPlace('pglite');
afterAll(async () => cleanPlace(place));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts the real process entry (what `npm start` runs) and returns its stdout once it is listening. */
async function start(port: number) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    CHECKOUT_DATA_DIR: place.dataDir,
    CHECKOUT_WIDGET_DIR: path.join(place.dataDir, 'widget'),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.CHECKOUT_MASTER_KEY;
  delete env.NODE_ENV;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stdout}`)), 180_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('API docs:') && stdout.endsWith('\n\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, stdout };
}

async function stop(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('the server process', () => {
  it('builds the widget and creates a sandbox merchant on first start, prints its keys, serves the API, the demo page, the checkout and its element manifest and type declarations, and shuts down cleanly', async () => {
    const port = await freePort();
    const { child, stdout } = await start(port);
    try {
      expect(stdout).toContain(`Checkout is listening on http://localhost:${port}`);
      const secretKey = /secretKey:\s+(sk_test_\S+)/.exec(stdout)?.[1];
      const publishableKey = /publishableKey:\s+(pk_test_\S+)/.exec(stdout)?.[1];
      expect(/encryptionKey:\s+(\S{1016})\n/.test(stdout)).toBe(true);
      expect(secretKey).toBeDefined();
      const response = await fetch(`http://127.0.0.1:${port}/checkout/frequencies`, { headers: { 'api-key': publishableKey! } });
      expect(response.status).toBe(200);
      expect((await response.json()).data).toHaveLength(11);
      // The widget was built on this first start and is served, with the demo page wired to the sandbox merchant.
      const demo = await fetch(`http://127.0.0.1:${port}/demo/`);
      expect(demo.status).toBe(200);
      expect(await demo.text()).toContain(publishableKey!);
      const embed = await fetch(`http://127.0.0.1:${port}/embed.js`);
      expect(embed.status).toBe(200);
      expect(embed.headers.get('content-type')).toMatch(/javascript/);
      const declarations = await fetch(`http://127.0.0.1:${port}/widget/embed.d.ts`);
      expect(declarations.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await declarations.text()).toContain("'checkout-widget': CheckoutWidgetElement".replace(/'/g, '"'));
      const manifest = await fetch(`http://127.0.0.1:${port}/widget/custom-elements.json`);
      expect(manifest.headers.get('content-type')).toMatch(/json/);
      expect((await manifest.json()).modules[0].exports).toEqual([
        { kind: 'custom-element-definition', name: 'checkout-widget', declaration: { name: 'CheckoutWidgetElement', module: 'embed.js' } },
      ]);
    } finally {
      expect(await stop(child)).toBe(0);
    }

    // Second start on the same data: the sandbox merchant exists, so no keys are printed again.
    const again = await start(port);
    try {
      expect(again.stdout).not.toContain('secretKey');
    } finally {
      await stop(again.child);
    }
  });

  /** Runs the process entry where it cannot start; resolves with its exit code and what it wrote. */
  async function failedStart(env: NodeJS.ProcessEnv) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], {
      env: { ...process.env, LOG_LEVEL: 'warn', CHECKOUT_WIDGET_DIR: path.join(place.dataDir, 'widget'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    // The widget build note may come first; the failure is the last line, and the only one after it.
    return { code, stdout, reason: stderr.trim().split('\n').filter((line) => !line.startsWith('Building the widget')) };
  }

  it('stops with one line naming what to fix when it cannot listen, reach its database or read its master key', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => busy.once('listening', resolve));
    const busyPort = (busy.address() as { port: number }).port;
    try {
      const inUse = await failedStart({ PORT: String(busyPort), CHECKOUT_DATA_DIR: path.join(place.dataDir, 'busy') });
      expect(inUse.code).toBe(1);
      expect(inUse.reason).toEqual([`Cannot listen on 127.0.0.1:${busyPort}: the port is already in use (set PORT).`]);
    } finally {
      busy.close();
    }

    const unreachable = await failedStart({ DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/shop', PORT: String(await freePort()) });
    expect(unreachable.code).toBe(1);
    expect(unreachable.reason).toEqual(['Cannot use the PostgreSQL database 127.0.0.1:1/shop (DATABASE_URL): the connection was refused (is the server running?).']);

    const damaged = path.join(place.dataDir, 'damaged');
    mkdirSync(damaged, { recursive: true });
    writeFileSync(path.join(damaged, 'master.key'), 'not a key\n');
    const noKey = await failedStart({ CHECKOUT_DATA_DIR: damaged, PORT: String(await freePort()) });
    expect(noKey.code).toBe(1);
    expect(noKey.reason).toEqual([`Invalid configuration: ${path.join(damaged, 'master.key')} does not hold a 32-byte base64 master key; restore it from a backup or set CHECKOUT_MASTER_KEY.`]);
    expect(noKey.stdout).not.toContain('secretKey');
  });

  it('refuses to start on a bad setting with one line naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], { env: { ...process.env, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid configuration: PORT [^\n]*$/);
  });
});
