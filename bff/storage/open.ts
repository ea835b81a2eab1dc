import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Storage, StorageOptions } from './storage.ts';

/** The configured driver: PostgreSQL when DATABASE_URL is set, else PGlite in the data folder's `db/`. */
export function storageOptions(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): StorageOptions {
  return config.databaseUrl
    ? { driver: 'postgres', url: config.databaseUrl, schema: config.databaseSchema }
    : { driver: 'pglite', dataDir: path.join(config.dataDir, 'db') };
}

/** Opens the configured driver and brings its schema up to date before anything else touches it. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.driver === 'postgres' ? await openPostgres(options.url, options.schema) : await openPglite(options.dataDir);
  try {
    await migrate(storage);
  } catch (error) {
    await storage.close().catch(() => {});
    throw error;
  }
  return storage;
}
