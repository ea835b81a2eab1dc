import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * RSA private operations (1.5-3.5 ms of CPU for RSA-4096, by machine) run on a pool of worker threads, by default one
 * per core (the server shares the cores among its processes: `LEGACY_RSA_THREADS`), so the event loop keeps answering
 * other requests while a burst of encrypted payloads is decrypted. The threads run at a lower scheduling priority
 * (`RSA_THREAD_NICE`): when the cores are short, the event loops (every JWE request, health checks, the checkout's
 * pages) and the database go first, and legacy payloads wait, or are refused when the queue is full. Each task
 * carries the private key as PKCS#8 DER; the worker parses it once and caches the KeyObject by key id.
 */
export type RsaOperation = 'raw' | 'oaep-sha256';
type RsaTask = { operation: RsaOperation; keyId: number; der: Uint8Array; input: Uint8Array };

/** Thrown when the queue is full: the caller should answer "try again shortly", not "your data is bad". */
export class RsaPoolSaturatedError extends Error {
  constructor() {
    super('The RSA worker pool queue is full');
    this.name = 'RsaPoolSaturatedError';
  }
}

/**
 * The nice value the RSA threads add to the process's own (Linux keeps it per thread): at +10 a thread weighs about
 * a tenth of a normal one when the scheduler shares a busy core, and nothing changes when the cores are idle.
 */
export const RSA_THREAD_NICE = 10;

/**
 * The bytes of a view in an array buffer of their own. A message to a thread carries a view's whole buffer, and
 * Node's small Buffers (a key unsealed with `Buffer.concat`, a ciphertext decoded from base64) are views into a
 * shared 8 KiB pool: each task would copy 16 KiB twice instead of 3.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** The task a thread runs and the one waiting in its own queue. */
const TASKS_PER_THREAD = 2;

/**
 * The thread a task goes to, of the started ones (`ready`, with the tasks each holds), or null to keep it in the
 * pool's queue: an idle thread first; a busy one only once all `threads` have started, and while it holds fewer than
 * TASKS_PER_THREAD.
 */
export function chooseThread<T extends { currentUsage: number }>(ready: Iterable<T>, threads: number): T | null {
  let started = 0;
  let leastBusy: T | null = null;
  for (const thread of ready) {
    if (thread.currentUsage === 0) return thread;
    started += 1;
    if (!leastBusy || thread.currentUsage < leastBusy.currentUsage) leastBusy = thread;
  }
  return started >= threads && leastBusy && leastBusy.currentUsage < TASKS_PER_THREAD ? leastBusy : null;
}

export type RsaPoolOptions = { threads?: number; maxQueue?: number; queuePerThread?: number };

export class RsaPool {
  readonly threads: number;
  readonly maxQueue: number;
  #pool: Piscina<RsaTask, Uint8Array | null>;
  #submitted = 0;

  constructor(options: RsaPoolOptions = {}) {
    this.threads = options.threads ?? availableParallelism();
    // Sixteen waiting per thread is about 50 ms of RSA-4096 work: a flood of legacy blobs is refused (429) at once
    // instead of queueing seconds of work in front of every real payment.
    this.maxQueue = options.maxQueue ?? this.threads * (options.queuePerThread ?? 16);
    this.#pool = new Piscina({
      filename: new URL('./rsa-worker.cjs', import.meta.url).href,
      // Plain node in the threads: the worker is JavaScript, and the parent's loader flags (tsx) have no work there.
      execArgv: [],
      // Started by the first legacy payloads, not up front: a thread costs about 22 MiB resident, and a merchant whose
      // clients all use JWE never needs one. The first legacy payload after a start or a quiet minute pays for
      // spawning its thread (tens of milliseconds); threads idle for a minute are stopped.
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      // A thread holds at most one task beyond the one it runs, and only once every thread has started and is busy: it
      // then starts its next task without sleeping until the event loop hands it over, which took a third of the RSA
      // threads' context switches off a legacy load. Below that load each task goes to an idle thread, or waits for one
      // to start.
      concurrentTasksPerWorker: TASKS_PER_THREAD,
      loadBalancer: (_task, workers) => chooseThread(workers, this.threads),
      // Set by piscina in each thread as it starts, through @napi-rs/nice (a dependency of this project for that).
      niceIncrement: RSA_THREAD_NICE,
    });
  }

  /** The RSA private operation on `input`; undefined when the primitive refuses it (wrong size, not below n, bad OAEP). */
  async decrypt(operation: RsaOperation, keyId: number, der: Uint8Array, input: Uint8Array): Promise<Uint8Array | undefined> {
    if (this.#pool.queueSize >= this.maxQueue) throw new RsaPoolSaturatedError();
    this.#submitted += 1;
    const result = await this.#pool.run({ operation, keyId, der: ownBytes(der), input: ownBytes(input) });
    return result ?? undefined;
  }

  /** Worker threads running now. */
  get liveThreads(): number {
    return this.#pool.threads.length;
  }

  /** Tasks handed to the pool since it started. */
  get submitted(): number {
    return this.#submitted;
  }

  /** Tasks the worker threads have finished. */
  get completed(): number {
    return this.#pool.completed;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
