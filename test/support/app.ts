import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../bff/app.ts';
import { readConfig, type Config } from '../../bff/config.ts';
import type { Clock } from '../../bff/services/clock.ts';
import type { Resolve } from '../../bff/security/guarded-agents.ts';

/**
 * Test apps on real storage. Every storage test runs once per driver: PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set (each app then gets a schema of its own, so files run side by side).
 */
export type Driver = 'pglite' | 'postgres';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const drivers: Driver[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

if (process.env.VITEST && !TEST_DATABASE_URL && !process.env.CHECKOUT_QUIET_SKIPS) {
  process.env.CHECKOUT_QUIET_SKIPS = '1';
  process.stderr.write('PostgreSQL driver tests are skipped: TEST_DATABASE_URL is not set (.ci/run sets it).\n');
}

/** A place the app keeps its files; `sameAs` reopens an earlier app's storage (restart tests). */
export type Place = { driver: Driver; dataDir: string; schema: string };

export function newPlace(driver: Driver): Place {
  return {
    driver,
    dataDir: mkdtempSync(path.join(tmpdir(), 'checkout-test-')),
    schema: `t_${randomBytes(6).toString('hex')}`,
  };
}

export function testConfig(place: Place, overrides: Record<string, string> = {}): Config {
  return readConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '8080',
    CHECKOUT_DATA_DIR: place.dataDir,
    CHECKOUT_MASTER_KEY: randomBytesFor(place),
    // Jobs run when a test asks (`app.jobs.runDue()`, after moving its clock), never behind its back.
    JOBS_POLL_MS: '0',
    // Tests send bursts from one address; the abuse limits' own tests set theirs.
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_KEY: '1000000',
    RATE_LIMIT_PER_PUBLISHABLE_KEY_IP: '1000000',
    RATE_LIMIT_PER_LINK: '1000000',
    RATE_LIMIT_PER_LINK_IP: '1000000',
    RATE_LIMIT_FAILURES_PER_IP: '1000000',
    // Test webhook receivers listen on 127.0.0.1 (support/webhook-receiver.ts); the destination tests turn it off.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1',
    ...(place.driver === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: place.schema } : {}),
    ...overrides,
  });
}

/** The master key is derived from the place so a restarted app can still open the sealed private keys. */
function randomBytesFor(place: Place): string {
  return Buffer.from(place.schema.padEnd(32, '0').slice(0, 32)).toString('base64');
}

export async function startApp(place: Place, overrides: Record<string, string> = {}, clock?: Clock, resolveHost?: Resolve): Promise<FastifyInstance> {
  return buildApp(testConfig(place, overrides), { clock, resolveHost });
}

/** A clock the test moves by hand (transfer expiry, timestamps). */
export class ManualClock implements Clock {
  constructor(private current = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}

/** Drops what a place left behind: its folder, and its PostgreSQL schema. */
export async function cleanPlace(place: Place): Promise<void> {
  rmSync(place.dataDir, { recursive: true, force: true });
  if (place.driver === 'postgres' && TEST_DATABASE_URL) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${place.schema} CASCADE`);
    await client.end();
  }
}

/**
 * One app on fresh storage for the enclosing describe block: started before its tests, closed and its storage
 * dropped after them. Read `app` inside hooks and tests (it exists once the block's first hook has run).
 */
/** `resolveHost`: the DNS answers webhook delivery sees, so a test's names never leave the machine. */
export function useTestApp(driver: Driver, options: { overrides?: Record<string, string>; clock?: Clock; resolveHost?: Resolve } = {}): { readonly app: FastifyInstance } {
  let place: Place | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    place = newPlace(driver);
    app = await startApp(place, options.overrides, options.clock, options.resolveHost);
  });
  afterAll(async () => {
    await app?.close();
    if (place) await cleanPlace(place);
  });
  return {
    get app(): FastifyInstance {
      if (!app) throw new Error('the test app starts in the describe block’s first beforeAll');
      return app;
    },
  };
}

/** A log stream for `buildApp(config, { logStream })` that keeps every line the app writes in `lines`. */
export function logCapture(lines: string[] = []): { lines: string[]; stream: Writable } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}
