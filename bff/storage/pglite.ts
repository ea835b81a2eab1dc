import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { INT8_OID, parseInt8, type Queryable, type Row, type Storage } from './storage.ts';

export async function openPglite(dataDir: string | undefined): Promise<Storage> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir, parsers: { [INT8_OID]: parseInt8 } } : { parsers: { [INT8_OID]: parseInt8 } });

  const query = async <T extends Row>(runner: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await runner.query<T>(sql, params ? [...params] : undefined)).rows;

  return {
    driver: 'pglite',
    query: (sql, params) => query(db, sql, params),
    exec: async (sql) => void (await db.exec(sql)),
    transaction: (work) =>
      db.transaction(async (tx) => {
        const scoped: Queryable = {
          query: (sql, params) => query(tx, sql, params),
          exec: async (sql) => void (await tx.exec(sql)),
        };
        return work(scoped);
      }),
    ping: async () => {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.close(),
  };
}
