/**
 * The one small storage interface the repositories use. Two drivers implement it: embedded PGlite (a data
 * folder, the default) and PostgreSQL (`DATABASE_URL`). Both speak the same SQL and the same migrations.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Storage extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** Runs `work` inside BEGIN/COMMIT; any throw rolls the whole unit back. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Hears `NOTIFY channel` from any process on this database, each payload once its transaction commits. While the
   * listening connection is lost notices go missing: `lost` says so, and `listening` says notices are heard again
   * (it is also called once the first LISTEN is in place). Resolves with a function that stops listening.
   */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type Listener = { notice(payload: string): void; lost(): void; listening(): void };

export type StorageOptions =
  | { driver: 'pglite'; dataDir: string | undefined /* undefined: in memory */ }
  | { driver: 'postgres'; url: string; schema?: string | undefined };

/** The configured database cannot be used (in use elsewhere, unreachable): the message says which and why. */
export class StorageUnavailableError extends Error {}

/** int8 columns (amounts in minor units, counters) come back as JS numbers: every value we store fits. */
export const INT8_OID = 20;
export const parseInt8 = (text: string): number => Number(text);
