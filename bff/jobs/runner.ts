import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import * as jobs from '../repositories/jobs.ts';
import type { Clock } from '../services/clock.ts';
import { runInJob } from '../request-context.ts';
import type { Storage } from '../storage/storage.ts';
import type { JobHandlers, JobKind, JobResult } from './kinds.ts';
import { REQUEST_ID_MEMBER } from './queue.ts';

export type RunnerOptions = {
  /** How long a claim holds: longer than any handler runs (a webhook delivery times out well within it). */
  leaseMs: number;
  /** Jobs claimed and run together per round. */
  batchSize: number;
  /** A job that keeps throwing is buried after this many attempts. */
  maxAttempts: number;
};

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = { leaseMs: 60_000, batchSize: 8, maxAttempts: 12 };

type Logger = { error(object: object, message: string): void; warn(object: object, message: string): void; debug(object: object, message: string): void };

/**
 * Runs due jobs from the database. Any number of runners (processes) share one queue: each round claims a batch
 * with a lease, runs it, and deletes or reschedules each job it still holds. Times are the app's clock.
 */
export class JobRunner {
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly handlers: JobHandlers,
    private readonly log: Logger,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {}

  /** Runs every job due now, round after round, until none is left; resolves with how many ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    for (;;) {
      const now = this.clock.now();
      const claimed = await jobs.claimDueJobs(this.storage, this.worker, now, new Date(now.getTime() + this.options.leaseMs), this.options.batchSize);
      if (claimed.length === 0) return ran;
      const round = Promise.all(claimed.map((row) => this.runOne(row)));
      this.running.add(round);
      try {
        await round;
      } finally {
        this.running.delete(round);
      }
      ran += claimed.length;
    }
  }

  /** Resolves once the jobs this runner is running have finished (graceful shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Runs a job in the context of the request that caused it: its log lines carry that request's `reqId`. */
  private runOne(row: jobs.JobRow): Promise<void> {
    const { [REQUEST_ID_MEMBER]: reqId, ...payload } = (row.payload ?? {}) as Record<string, unknown>;
    return runInJob(typeof reqId === 'string' ? reqId : undefined, () => this.runClaimed({ ...row, payload }));
  }

  private async runClaimed(row: jobs.JobRow): Promise<void> {
    const handler = this.handlers[row.kind as JobKind] as ((payload: unknown) => Promise<JobResult>) | undefined;
    let result: JobResult;
    if (!handler) {
      result = { outcome: 'retry', at: this.clock.now(), error: `no handler for job kind ${row.kind}` };
    } else {
      try {
        result = await handler(row.payload);
      } catch (error) {
        result = { outcome: 'retry', at: this.backoff(row.attempts), error: describe(error) };
      }
    }
    if (result.outcome === 'done') {
      this.log.debug({ job: { id: row.id, kind: row.kind, attempts: row.attempts } }, 'job done');
      await jobs.completeJob(this.storage, row.id, this.worker);
    } else if (result.outcome === 'again') {
      await jobs.rescheduleJob(this.storage, row.id, this.worker, result.at, null, true);
    } else if (!handler || row.attempts >= this.options.maxAttempts) {
      this.log.error({ job: { id: row.id, kind: row.kind, attempts: row.attempts }, reason: result.error }, 'job gave up');
      await jobs.buryJob(this.storage, row.id, this.worker, result.error, this.clock.now());
    } else {
      this.log.warn({ job: { id: row.id, kind: row.kind, attempts: row.attempts }, reason: result.error }, 'job failed; retrying');
      await jobs.rescheduleJob(this.storage, row.id, this.worker, result.at, result.error, false);
    }
  }

  /** Exponential backoff with full jitter: up to 5 s after the first failure, doubling, capped at an hour. */
  private backoff(attempts: number): Date {
    const ceiling = Math.min(3_600_000, 5_000 * 2 ** Math.max(0, attempts - 1));
    return new Date(this.clock.now().getTime() + Math.floor(Math.random() * ceiling) + 1_000);
  }
}

/** An error as one line: its name and message, never a stack or bind values. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}
