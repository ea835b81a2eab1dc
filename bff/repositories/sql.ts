import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import type { Queryable, Row } from '../storage/storage.ts';
import type { Database } from './schema.ts';

/**
 * The typed query builder (Kysely) over the project's own storage drivers. Kysely compiles a query to SQL with
 * numbered parameters; `run` sends it through a `Queryable` (the storage or an open transaction), so PGlite's
 * thread and `pg` keep their connection handling and transactions stay the drivers' own. The builder itself never
 * connects (its driver is Kysely's `DummyDriver`).
 */
export const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Runs a built query on `on` and returns its rows, typed by the query. */
export async function run<R>(on: Queryable, query: Compilable<R>): Promise<R[]> {
  const { sql, parameters } = query.compile();
  return (await on.query(sql, parameters)) as Row[] as R[];
}

/** `LIKE` pattern for "starts with `text`": its own `%`, `_` and `\` match themselves. */
export const startsWith = (text: string): string => `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
