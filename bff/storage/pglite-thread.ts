import { Worker } from 'node:worker_threads';
import type { Listener, Queryable, Row, Storage } from './storage.ts';

/**
 * An embedded database run by a worker thread of its own (`pglite-worker.ts`): PostgreSQL's parse, plan and
 * execution, and PGlite's protocol parsing, leave the thread that serves requests, which only sends statements and
 * receives rows. PGlite's own worker mode is for browsers (it elects a leader among tabs with Web Locks, talks over
 * BroadcastChannel and sends back an error's message without its SQLSTATE code), so this is a small message layer of
 * our own.
 */
export type PgliteWorkerData = { dataDir: string | undefined; startParams: string[] };

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[] | undefined; tx: number | undefined }
  | { id: number; op: 'exec'; sql: string; tx: number | undefined }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' };

type Fields = 'code' | 'severity' | 'detail' | 'hint' | 'constraint' | 'table' | 'column' | 'schema' | 'dataType' | 'routine';
export type SentError = { name: string; message: string } & Partial<Record<Fields, string>>;

export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SentError }
  | { notice: number; payload: string };

type Request = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** An error of the worker's database as the thread that asked sees it: the same message, code and fields. */
class DatabaseError extends Error {
  constructor(sent: SentError) {
    super(sent.message);
    Object.assign(this, sent);
  }
}

/**
 * The thread's short-lived objects (statements in, rows out) need little room: with V8's default young generation the
 * server was resident at 672 MiB after the read benchmark, against 533 with the database in the main thread; with
 * 1 MB, 530, at the same CPU per request.
 */
const YOUNG_GENERATION_MB = 1;

/**
 * Messages between the threads go in batches, one per turn of the sender's event loop: waking the other thread is the
 * costly part of a message (on this project's benchmark machine the kernel's wake-up in the write that signals it was
 * 5.7% of the event loop's CPU under the fee load), and under load several statements are asked, or answered, in
 * the same turn. `flush` sends what is waiting at once (before a thread exits).
 */
export function batchedPost<T>(post: (batch: T[]) => void): { (message: T): void; flush(): void } {
  let waiting: T[] = [];
  const flush = () => {
    if (waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    post(batch);
  };
  const send = (message: T) => {
    if (waiting.push(message) === 1) setImmediate(flush);
  };
  return Object.assign(send, { flush });
}

const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);

/**
 * The process's options a thread takes: those that load modules (`--import tsx` in development and tests), with
 * their values. V8's flags (`npm start`'s `--heap-growing-percent` and `--max-semi-space-size`) are the
 * process's and a Worker refuses them, `--input-type` (of a script given with -e) would stop a file's thread, and the
 * rest do not concern a thread.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const withValue = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const option = execArgv[index]!;
    const name = option.split('=')[0]!;
    if (withValue.has(name)) {
      kept.push(option);
      if (!option.includes('=') && index + 1 < execArgv.length) kept.push(execArgv[(index += 1)]!);
    } else if (name === '--enable-source-maps' || name === '--no-warnings' || (name.startsWith('--experimental-') && name !== '--experimental-default-type')) {
      kept.push(option);
    }
  }
  return kept;
}

export async function openPgliteThread(data: PgliteWorkerData): Promise<Storage> {
  const execArgv = threadExecArgv(process.execArgv);
  const worker = new Worker(WORKER_FILE, { workerData: data, execArgv, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const notices = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let gone: Error | undefined;

  // The worker keeps the process alive only while an answer is awaited, as an in-process database would.
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };
  const ready = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  worker.on('message', (replies: PgliteReply[]) => {
    for (const reply of replies) {
      if ('notice' in reply) {
        notices.get(reply.notice)?.(reply.payload);
        continue;
      }
      const waiting = settle(reply.id);
      if (reply.ok) waiting?.resolve(reply.value);
      else waiting?.reject(new DatabaseError(reply.error));
    }
  });
  const fail = (error: Error) => {
    gone = error;
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The embedded database's thread stopped (exit code ${code}).`)));

  const post = batchedPost<PgliteRequest>((batch) => worker.postMessage(batch));
  const send = (request: Request, id = nextId++): Promise<unknown> => {
    if (gone) return Promise.reject(gone);
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ ...request, id } as PgliteRequest);
    });
  };

  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();

  const scoped = (tx: number | undefined): Queryable => ({
    query: async <T extends Row>(sql: string, params?: readonly unknown[]) =>
      (await send({ op: 'query', sql, params: params ? [...params] : undefined, tx })) as T[],
    exec: async (sql: string) => void (await send({ op: 'exec', sql, tx })),
  });

  return {
    driver: 'pglite',
    ...scoped(undefined),
    async transaction(work) {
      const tx = (await send({ op: 'begin' })) as number;
      let result;
      try {
        result = await work(scoped(tx));
      } catch (error) {
        await send({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await send({ op: 'end', tx, commit: true });
      return result;
    },
    // One process owns an embedded database, so its notices never go missing.
    async listen(channel: string, listener: Listener) {
      const id = nextId++;
      notices.set(id, (payload) => listener.notice(payload));
      try {
        await send({ op: 'listen', channel }, id);
      } catch (error) {
        notices.delete(id);
        throw error;
      }
      listener.listening();
      return async () => {
        notices.delete(id);
        await send({ op: 'unlisten', listener: id });
      };
    },
    async ping() {
      try {
        await send({ op: 'query', sql: 'SELECT 1', params: undefined, tx: undefined });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      try {
        if (!gone) await send({ op: 'close' });
      } finally {
        worker.removeAllListeners('exit');
        await worker.terminate();
        // Whatever is asked afterwards fails at once, as a closed database does, rather than waiting on no thread.
        fail(new Error('The embedded database is closed.'));
      }
    },
  };
}
