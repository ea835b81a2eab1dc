import { parse, PGlite, protocol, type Transaction } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseError, type NotificationResponseMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { INT8_OID, parseInt8 } from './storage.ts';
import { batchedPost, type PgliteReply, type PgliteRequest, type PgliteWorkerData, type SentError } from './pglite-thread.ts';

/**
 * The thread that owns an embedded database (see `pglite-thread.ts`): it runs each request it is sent on its PGlite
 * instance and answers with the rows, or with the error's PostgreSQL fields. A transaction holds PGlite's own lock
 * from its BEGIN until the request that ends it, so nothing else runs between its statements.
 */
const port = parentPort!;
const { dataDir, startParams } = workerData as PgliteWorkerData;
const post = batchedPost<PgliteReply>((batch) => port.postMessage(batch));

/** What the caller may act on (the SQLSTATE code, the constraint); never the statement's parameters. */
function sendable(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & Record<string, unknown>;
  const sent: SentError = { name: error.name, message: error.message };
  for (const key of ['code', 'severity', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const) {
    if (typeof fields[key] === 'string') sent[key] = fields[key];
  }
  return sent;
}

let db: PGlite;
try {
  db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers: { [INT8_OID]: parseInt8 }, startParams });
  post({ id: 0, ok: true, value: null });
} catch (error) {
  post({ id: 0, ok: false, error: sendable(error) });
  post.flush();
  process.exit(1);
}

/**
 * Statements run as named prepared statements, parsed and planned once, then only bound and executed: PGlite's
 * `query` parses, describes and plans every statement again (0.72 ms of this thread's CPU for the status read against
 * 0.18 prepared, measured on PGlite). The steps are those of `query`, under the same locks: outside a transaction a
 * statement waits for any open one, as `query` does.
 */
const statements = new Map<string, { name: string; parameterTypes: number[] }>();
let named = 0;
type BackendMessage = { name: string } & Record<string, unknown>;

/**
 * Each `listen` of this thread, by listener: the channel it hears (`exchange` hands it the notices it reads) and how
 * to stop PGlite's own listener (which hears the notices of the rounds PGlite reads).
 */
const listeners = new Map<number, { channel: string; stop: () => Promise<void> }>();

/**
 * One round of messages through the database, its answer read by node-postgres's protocol parser: PGlite's own
 * parser copies every field into a new ArrayBuffer before decoding it, which cost this thread about 60 us of a
 * 150 us prepared status read (measured on PGlite 0.5). PGlite then hears nothing of this round, so the
 * notifications in it go to this thread's listeners from here; an ErrorResponse is thrown once the round is over.
 */
async function exchange(message: Uint8Array): Promise<BackendMessage[]> {
  const messages: BackendMessage[] = [];
  let failure: Error | undefined;
  const parser = new Parser();
  // The chunk is a view of the database's memory, reused by the next write: it is copied before the parser keeps
  // any part of it.
  const onRawData = (chunk: Uint8Array) =>
    parser.parse(Buffer.from(chunk), (parsed) => {
      const backend = parsed as unknown as BackendMessage;
      if (parsed instanceof DatabaseError) failure ??= parsed;
      else if (backend.name === 'notification') notify(parsed as NotificationResponseMessage);
      else messages.push(backend);
    });
  await db.execProtocolRawStream(message, { syncToFs: false, onRawData });
  if (failure) throw failure;
  return messages;
}

function notify({ channel, payload }: NotificationResponseMessage): void {
  for (const [listener, heard] of listeners) if (heard.channel === channel) post({ notice: listener, payload });
}

async function prepare(sql: string): Promise<{ name: string; parameterTypes: number[] }> {
  // Past a thousand texts a statement runs unnamed, rather than growing the cache without end.
  const name = statements.size < 1000 ? `s${named++}` : '';
  const step = (message: Uint8Array) => db.execProtocolStream(message, { syncToFs: false });
  try {
    await step(protocol.serialize.parse({ name, text: sql }));
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(await step(protocol.serialize.describe({ type: 'S', name }))) };
    if (name) statements.set(sql, statement);
    return statement;
  } catch (error) {
    await step(protocol.serialize.sync());
    throw error;
  }
}

async function preparedQuery(sql: string, params: unknown[] | undefined, inTransaction: boolean): Promise<unknown[]> {
  const run = async () => {
    const statement = statements.get(sql) ?? (await prepare(sql));
    const types = statement.parameterTypes;
    const values = (params ?? []).map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[index]!];
      return serializer ? serializer(value) : String(value);
    });
    // Bind, describe, execute and sync in one round: after an error the database skips to the sync and answers it.
    const messages = await exchange(
      Buffer.concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(messages as Parameters<typeof parse.parseResults>[0], db.parsers)[0]?.rows ?? [];
  };
  return inTransaction ? db._runExclusiveQuery(run) : db._runExclusiveTransaction(() => db._runExclusiveQuery(run));
}

const transactions = new Map<number, { tx: Transaction; end: (request: { id: number; commit: boolean }) => void }>();

function begin(id: number): void {
  let endId = id;
  let end!: (request: { id: number; commit: boolean }) => void;
  const ending = new Promise<{ id: number; commit: boolean }>((resolve) => (end = resolve));
  db.transaction(async (tx) => {
    transactions.set(id, { tx, end });
    post({ id, ok: true, value: id });
    const request = await ending;
    endId = request.id;
    if (!request.commit) await tx.rollback();
  }).then(
    () => post({ id: endId, ok: true, value: null }),
    (error: unknown) => post({ id: endId, ok: false, error: sendable(error) }),
  ).finally(() => transactions.delete(id));
}

function runner(tx: number | undefined): Pick<PGlite, 'exec'> | Transaction {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error('The transaction is closed.');
  return open.tx;
}

async function handle(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      if (request.tx !== undefined && !transactions.has(request.tx)) throw new Error('The transaction is closed.');
      return preparedQuery(request.sql, request.params, request.tx !== undefined);
    case 'exec':
      await runner(request.tx).exec(request.sql);
      return null;
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('The transaction is closed.');
      open.end({ id: request.id, commit: request.commit });
      return undefined;
    }
    case 'listen': {
      const listener = request.id;
      const stop = await db.listen(request.channel, (payload) => post({ notice: listener, payload }));
      listeners.set(listener, { channel: request.channel, stop });
      return listener;
    }
    case 'unlisten':
      await listeners.get(request.listener)?.stop();
      listeners.delete(request.listener);
      return null;
    case 'close':
      await db.close();
      return null;
  }
}

function receive(request: PgliteRequest): void {
  if (request.op === 'begin') return begin(request.id);
  handle(request).then(
    // `end` answers once its COMMIT or ROLLBACK has run (in `begin`).
    (value) => value !== undefined && post({ id: request.id, ok: true, value }),
    (error: unknown) => post({ id: request.id, ok: false, error: sendable(error) }),
  );
}

port.on('message', (requests: PgliteRequest[]) => requests.forEach(receive));
