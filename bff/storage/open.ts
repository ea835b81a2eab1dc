import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import path from 'node:path';
import type { Config } from '../config.ts';
import { StorageUnavailableError, type Storage, type StorageOptions } from './storage.ts';

/** The configured driver: PostgreSQL when DATABASE_URL is set, else PGlite in the data folder's `db/`. */
export function storageOptions(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): StorageOptions {
  return config.databaseUrl
    ? { driver: 'postgres', url: config.databaseUrl, schema: config.databaseSchema }
    : { driver: 'pglite', dataDir: path.join(config.dataDir, 'db') };
}

/**
 * Opens the configured driver and brings its schema up to date before anything else touches it. A database that
 * cannot be used is a `StorageUnavailableError` whose one-line message says which database and why, and never
 * the password.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  let storage: Storage;
  try {
    storage = options.driver === 'postgres' ? await openPostgres(options.url, options.schema) : await openPglite(options.dataDir);
  } catch (error) {
    throw unavailable(options, error);
  }
  try {
    await migrate(storage);
  } catch (error) {
    await storage.close().catch(() => {});
    throw unavailable(options, error);
  }
  return storage;
}

/** Why a database could not be used, as an operator would want to read it. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is the server running?)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the server closed the connection',
  '28P01': 'the password was refused',
  '28000': 'the user is not allowed to connect',
  '3D000': 'the database does not exist',
  '42501': 'permission denied',
  ENOTDIR: 'a file stands where the folder should be',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

function unavailable(options: StorageOptions, error: unknown): StorageUnavailableError {
  if (error instanceof StorageUnavailableError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const detail = (typeof code === 'string' && REASONS[code]) || firstLine(error);
  if (options.driver === 'postgres') {
    return new StorageUnavailableError(`Cannot use the PostgreSQL database ${describePostgres(options.url)} (DATABASE_URL): ${detail}.`);
  }
  return new StorageUnavailableError(`Cannot use the embedded database in ${options.dataDir ?? 'memory'} (CHECKOUT_DATA_DIR): ${detail}.`);
}

/** host:port/database, without the user's password. */
function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'at DATABASE_URL';
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 300) || 'unknown error';
}
