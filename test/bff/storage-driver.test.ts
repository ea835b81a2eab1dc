import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, storageOptions } from '../../bff/storage/open.ts';
import { batchedPost } from '../../bff/storage/pglite-thread.ts';
import type { Storage } from '../../bff/storage/storage.ts';
import { cleanPlace, drivers, newPlace, testConfig, type Place } from '../support/app.ts';
import { ROOT } from '../e2e/support/server.ts';
import { startCommand } from '../support/start-command.ts';

/** What every caller of the storage interface relies on, whichever driver (and thread) runs the database. */
describe.each(drivers)('the storage interface on %s', (driver) => {
  let place: Place;
  let storage: Storage;

  beforeAll(async () => {
    place = newPlace(driver);
    storage = await openStorage(storageOptions(testConfig(place)));
    await storage.exec(`CREATE TABLE probe (id int8 PRIMARY KEY, at timestamptz, doc jsonb, bytes bytea, label text);
      CREATE TABLE probe_children (id int PRIMARY KEY, probe_id int8 NOT NULL REFERENCES probe (id))`);
  });
  afterAll(async () => {
    await storage?.close();
    if (place) await cleanPlace(place);
  });

  it('answers statements asked in the same turn each with its own rows, and fails only the one that fails', async () => {
    const asked = Array.from({ length: 40 }, (_, index) =>
      index === 17 ? storage.query('SELECT 1 FROM no_such_table').catch((error: unknown) => error) : storage.query<{ n: number }>('SELECT $1::int AS n', [index]),
    );
    const answers = await Promise.all(asked);
    answers.forEach((answer, index) => {
      if (index === 17) expect((answer as { code?: string }).code).toBe('42P01');
      else expect(answer).toEqual([{ n: index }]);
    });
  });

  it('answers a duplicate key with SQLSTATE 23505 and its constraint, outside and inside a transaction', async () => {
    await storage.query('INSERT INTO probe (id) VALUES ($1)', [1]);
    const outside = await storage.query('INSERT INTO probe (id) VALUES ($1)', [1]).catch((error: unknown) => error);
    expect(outside).toBeInstanceOf(Error);
    expect(outside).toMatchObject({ code: '23505', constraint: 'probe_pkey' });
    const inside = await storage.transaction((tx) => tx.query('INSERT INTO probe (id) VALUES ($1)', [1])).catch((error: unknown) => error);
    expect(inside).toMatchObject({ code: '23505', constraint: 'probe_pkey' });
    const foreign = await storage.query('INSERT INTO probe_children (id, probe_id) VALUES (1, 999)').catch((error: unknown) => error);
    expect(foreign).toMatchObject({ code: '23503' });
    expect(await storage.query('SELECT 1 AS still')).toEqual([{ still: 1 }]);
  });

  it('answers a parameter its type refuses with SQLSTATE 22P02, and answers the same statement rightly just after', async () => {
    const refused = await storage.query('SELECT $1::int8 AS n', ['twelve']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ code: '22P02' });
    expect(await storage.query('SELECT $1::int8 AS n', [12])).toEqual([{ n: 12 }]);
    const inside = await storage.transaction((tx) => tx.query('SELECT $1::int8 AS n', ['twelve'])).catch((error: unknown) => error);
    expect(inside).toMatchObject({ code: '22P02' });
    expect(await storage.transaction((tx) => tx.query('SELECT $1::int8 AS n', [13]))).toEqual([{ n: 13 }]);
  });

  it('rolls back every statement of a transaction whose work throws, and keeps those of one that succeeds', async () => {
    await expect(
      storage.transaction(async (tx) => {
        await tx.query('INSERT INTO probe (id, label) VALUES (10, $1)', ['rolled back']);
        await tx.query('INSERT INTO probe (id, label) VALUES (11, $1)', ['rolled back']);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    const kept = await storage.transaction(async (tx) => {
      await tx.query('INSERT INTO probe (id, label) VALUES (12, $1)', ['kept']);
      return (await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM probe WHERE id >= 10'))[0]!.count;
    });
    expect(kept).toBe(1);
    expect(await storage.query('SELECT id, label FROM probe WHERE id >= 10 ORDER BY id')).toEqual([{ id: 12, label: 'kept' }]);
  });

  it("shows a transaction's rows to statements outside it only once it commits", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const wrote = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = storage.transaction(async (tx) => {
      await tx.query('INSERT INTO probe (id, label) VALUES (20, $1)', ['late']);
      inserted();
      await held;
    });
    await wrote;
    const outside = storage.query('SELECT id FROM probe WHERE id = 20');
    const early = await Promise.race([outside, new Promise((resolve) => setTimeout(() => resolve('waiting'), 200))]);
    // PostgreSQL answers from its snapshot at once, without the row; PGlite runs the statement after the commit.
    expect(early).toEqual(driver === 'postgres' ? [] : 'waiting');
    release();
    await transaction;
    expect(await outside).toEqual(driver === 'postgres' ? [] : [{ id: 20 }]);
    expect(await storage.query('SELECT id FROM probe WHERE id = 20')).toEqual([{ id: 20 }]);
  });

  it('gives int8 as numbers, timestamptz as Dates, jsonb as values and bytea as bytes, and takes them as parameters', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    await storage.query('INSERT INTO probe (id, at, doc, bytes) VALUES ($1, $2, $3, $4)', [9_007_199_254_740_991, at, JSON.stringify({ a: [1, 'b'] }), Buffer.from([0, 1, 255])]);
    const [row] = await storage.query<{ id: number; at: Date; doc: unknown; bytes: Uint8Array }>('SELECT id, at, doc, bytes FROM probe WHERE id = $1', [9_007_199_254_740_991]);
    expect(row!.id).toBe(9_007_199_254_740_991);
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.at.toISOString()).toBe(at.toISOString());
    expect(row!.doc).toEqual({ a: [1, 'b'] });
    expect([...row!.bytes]).toEqual([0, 1, 255]);
  });

  it('hears a NOTIFY once its transaction commits, and nothing after it stops listening', async () => {
    const heard: string[] = [];
    let listening = 0;
    const stop = await storage.listen('probe_channel', { notice: (payload) => heard.push(payload), lost: () => {}, listening: () => (listening += 1) });
    expect(listening).toBe(1);
    await storage.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('probe_channel', 'first')`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([]);
    });
    await storage.query(`SELECT pg_notify('probe_channel', 'second')`);
    await expect.poll(() => heard).toEqual(['first', 'second']);
    await stop();
    await storage.query(`SELECT pg_notify('probe_channel', 'unheard')`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(['first', 'second']);
  });
});

describe('the embedded database', () => {
  it('opens in a process started with npm start’s node flags, lets it end once its work is done, and holds the lock only while it runs', async () => {
    const place = newPlace('pglite');
    try {
      const script = path.join(place.dataDir, 'open-and-query.mts');
      writeFileSync(
        script,
        `import { openStorage } from ${JSON.stringify(path.join(ROOT, 'bff/storage/open.ts'))};
        const storage = await openStorage({ driver: 'pglite', dataDir: process.argv.at(-1) });
        console.log(JSON.stringify(await storage.query('SELECT 41 + 1 AS answer')));`,
      );
      // With the V8 flags `npm start` gives node (package.json), which a thread must not be handed.
      const { nodeArgs } = startCommand(ROOT);
      const v8Flags = nodeArgs.filter((arg) => arg.startsWith('--') && arg !== '--import');
      expect(v8Flags.length).toBeGreaterThan(0);
      const run = spawnSync(process.execPath, [...v8Flags, '--import', 'tsx', script, `${place.dataDir}/db`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe('[{"answer":42}]');
      const again = await openStorage({ driver: 'pglite', dataDir: `${place.dataDir}/db` });
      await again.close();
    } finally {
      await cleanPlace(place);
    }
  });
});

describe('messages between the embedded database thread and the event loop', () => {
  it('go as one batch per turn of the event loop, in the order they were sent, and at once when flushed', async () => {
    const sent: number[][] = [];
    const post = batchedPost<number>((batch) => sent.push(batch));
    post(1);
    post(2);
    post(3);
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([[1, 2, 3]]);
    post(4);
    post.flush();
    expect(sent).toEqual([[1, 2, 3], [4]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([[1, 2, 3], [4]]);
  });
});
