import { afterEach, describe, expect, it } from 'vitest';
import { cleanPlace, drivers, newPlace, startApp, testConfig, type Place } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import { openStorage, storageOptions } from '../../bff/storage/open.ts';
import { loadMigrations } from '../../bff/storage/migrate.ts';

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
