import pg from 'pg';
import type { Listener, Queryable, Row, Storage } from './storage.ts';
import { INT8_OID, parseInt8 } from './storage.ts';

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL through a pg pool. `schema` puts every table of this instance in its own schema (tests use it
 * to run side by side on one database).
 */
export async function openPostgres(url: string, schema?: string): Promise<Storage> {
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('schema must be a lower-case SQL identifier');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A broken idle connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  if (schema) {
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      // Processes starting together race on IF NOT EXISTS: the loser sees the winner's schema as a duplicate.
      const code = (error as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') {
        await pool.end().catch(() => {});
        throw error;
      }
    }
  }

  const wrap = (client: Pick<pg.PoolClient, 'query'>): Queryable => ({
    query: async <T extends Row>(sql: string, params?: readonly unknown[]) =>
      (await client.query<T>({ text: sql, values: params ? [...params] : undefined, name: statementName(sql) })).rows,
    exec: async (sql: string) => void (await client.query(sql)),
  });

  return {
    driver: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    listen: (channel, listener) => listenOn(url, schema, channel, listener),
    close: () => pool.end(),
  };
}

/**
 * Each statement text gets a name, so each connection parses and plans it once and then only binds and executes it:
 * measured on the status read, 0.28 ms of the PostgreSQL backend's CPU per read unnamed against 0.04 named, and
 * half the client's. The texts are the repositories' (parameters never enter them), so they are few; past a
 * thousand, a text is sent unnamed rather than growing every connection's statement cache.
 */
const names = new Map<string, string>();
function statementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined && names.size < 1000) names.set(sql, (name = `s${names.size}`));
  return name;
}

const RELISTEN_MS = 1000;

/** A connection of its own that LISTENs on `channel`, reconnecting a second after a loss. */
async function listenOn(url: string, schema: string | undefined, channel: string, listener: Listener): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error('channel must be a lower-case SQL identifier');
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    next.on('notification', (message) => {
      if (message.channel === channel) listener.notice(message.payload ?? '');
    });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      listener.lost();
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), RELISTEN_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), RELISTEN_MS);
      throw error;
    }
    client = next;
    listener.listening();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}
