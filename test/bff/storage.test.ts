import { afterEach, describe, expect, it } from 'vitest';
import { cleanPlace, drivers, newPlace, startApp, testConfig, type Place } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import { openStorage, storageOptions } from '../../bff/storage/open.ts';
import { loadMigrations } from '../../bff/storage/migrate.ts';
import { StorageUnavailableError } from '../../bff/storage/storage.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

describe.each(drivers)('storage on %s', (driver) => {
  const places: Place[] = [];
  const place = () => {
    const created = newPlace(driver);
    places.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(places.splice(0).map(cleanPlace));
  });

  const optionsFor = (at: Place) => storageOptions(testConfig(at));

  it('keeps a created payment link, and its merchant keys, across a restart', async () => {
    const at = place();
    const first = await startApp(at);
    const keys = await createMerchant(first);
    const created = await first.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: { 'api-key': keys.secretKey },
      payload: { Name: 'Survivor', Description: 'Outlives the process', PaymentType: 'MC', Currency: 'USD', AuthOption: 'NOAUTH', Amount: 12.5 },
    });
    const reference = created.json().data.paymentLink.reference;
    await first.close();

    const second = await startApp(at);
    try {
      const page = await second.inject({ method: 'GET', url: `/l/${reference}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Survivor');
      expect(page.body).toContain('$12.50');
      // The keys issued before the restart still authenticate.
      const frequencies = await second.inject({ method: 'GET', url: '/checkout/frequencies', headers: { 'api-key': keys.secretKey } });
      expect(frequencies.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('applies every migration once, however often it starts', async () => {
    const at = place();
    const first = await openStorage(optionsFor(at));
    await first.close();
    const second = await openStorage(optionsFor(at));
    try {
      const applied = await second.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(applied.map((row) => row.version)).toEqual(loadMigrations().map((migration) => migration.version));
    } finally {
      await second.close();
    }
  });

  it('rolls a transaction back whole when its work throws', async () => {
    const at = place();
    const storage = await openStorage(optionsFor(at));
    try {
      await expect(
        storage.transaction(async (tx) => {
          await tx.query(`INSERT INTO merchants (name, country, support_email) VALUES ('Ghost', 'NG', 'g@h.test')`);
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      const rows = await storage.query(`SELECT id FROM merchants WHERE name = 'Ghost'`);
      expect(rows).toHaveLength(0);
    } finally {
      await storage.close();
    }
  });

  it('commits a transaction whose work succeeds', async () => {
    const at = place();
    const storage = await openStorage(optionsFor(at));
    try {
      await storage.transaction(async (tx) => {
        await tx.query(`INSERT INTO merchants (name, country, support_email) VALUES ('Kept', 'NG', 'k@h.test')`);
      });
      expect(await storage.query(`SELECT id FROM merchants WHERE name = 'Kept'`)).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });
});

describe.each(drivers)('first start on %s', (driver) => {
  it('creates exactly one sandbox merchant when several starts race on an empty database', async () => {
    const at = newPlace(driver);
    const apps = driver === 'postgres' ? await Promise.all([startApp(at), startApp(at), startApp(at)]) : [await startApp(at)];
    try {
      const issued = await Promise.all(apps.map((app) => app.merchants.ensureSandboxMerchant()));
      expect(issued.filter(Boolean)).toHaveLength(1);
      expect(await apps[0]!.merchants.list()).toHaveLength(1);
      expect(await apps[0]!.merchants.ensureSandboxMerchant()).toBeUndefined();
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await cleanPlace(at);
    }
  });
});

describe('the embedded database folder', () => {
  const places: Place[] = [];
  afterEach(async () => {
    await Promise.all(places.splice(0).map(cleanPlace));
  });
  const optionsAt = () => {
    const at = newPlace('pglite');
    places.push(at);
    return storageOptions(testConfig(at));
  };

  it('refuses a second opener while the first has it open, and opens again once it is closed', async () => {
    const options = optionsAt();
    const first = await openStorage(options);
    await expect(openStorage(options)).rejects.toThrow(
      new RegExp(`^The embedded database in .* is in use by another process \\(pid ${process.pid}\\)`),
    );
    await first.query(`INSERT INTO merchants (name, country, support_email) VALUES ('Still here', 'NG', 's@h.test')`);
    await first.close();
    const second = await openStorage(options);
    try {
      expect(await second.query(`SELECT id FROM merchants WHERE name = 'Still here'`)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("keeps 16 MB of shared buffers, not PostgreSQL's 128 MB, all of which would be resident from the start", async () => {
    const storage = await openStorage(optionsAt());
    try {
      expect(await storage.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await storage.close();
    }
  });

  it('takes over a lock left by a process that is no longer running', async () => {
    const options = optionsAt();
    if (options.driver !== 'pglite' || !options.dataDir) throw new Error('expected an embedded database');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(`${options.dataDir}.lock`, `${gone.stdout}\n`);
    const storage = await openStorage(options);
    try {
      expect(readFileSync(`${options.dataDir}.lock`, 'utf8').trim()).toBe(String(process.pid));
      expect(await storage.ping()).toBe(true);
    } finally {
      await storage.close();
    }
    expect(existsSync(`${options.dataDir}.lock`)).toBe(false);
  });
});

describe('a database that cannot be used', () => {
  it('is named in one line without its password', async () => {
    const failure = await openStorage({ driver: 'postgres', url: 'postgres://app:hunter2@127.0.0.1:1/shop' }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect((failure as Error).message).toBe(
      'Cannot use the PostgreSQL database 127.0.0.1:1/shop (DATABASE_URL): the connection was refused (is the server running?).',
    );
  });

  it('names a data folder that is a file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'checkout-test-')), 'not-a-folder');
    writeFileSync(file, 'x');
    const failure = await openStorage({ driver: 'pglite', dataDir: path.join(file, 'db') }).catch((error: Error) => error);
    expect((failure as Error).message).toBe(`Cannot use the embedded database in ${path.join(file, 'db')} (CHECKOUT_DATA_DIR): a file stands where the folder should be.`);
    rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
