import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Storage } from './storage.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type Migration = { version: number; name: string; sql: string };

/** The migrations in order. Two files with one number would leave one unapplied wherever the other ran first: refused. */
export function loadMigrations(): Migration[] {
  const migrations = readdirSync(migrationsDir)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), name: file.slice(4, -4), sql: readFileSync(path.join(migrationsDir, file), 'utf8') }));
  const twice = migrations.filter((migration, index) => index > 0 && migrations[index - 1]!.version === migration.version);
  if (twice.length > 0) throw new Error(`Two migrations share the number ${twice[0]!.version}: number each one once.`);
  return migrations;
}

/**
 * Applies every pending migration in one transaction. The advisory lock makes processes that start together
 * on one PostgreSQL wait for each other instead of applying the same migration twice.
 */
export async function migrate(storage: Storage): Promise<number[]> {
  const migrations = loadMigrations();
  return storage.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(7301201)`);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}
