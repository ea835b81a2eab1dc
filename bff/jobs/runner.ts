import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import * as jobs from '../repositories/jobs.ts';
import type { Clock } from '../services/clock.ts';
import { runInJob } from '../request-context.ts';
import type { Storage } from '../storage/storage.ts';
import { LANES, type JobClaim, type JobHandlers, type JobKind, type JobResult, type Lane } from './kinds.ts';
import { REQUEST_ID_MEMBER } from './queue.ts';

export type RunnerOptions = {
  /** How long a claim holds: longer than any handler runs (a webhook delivery times out well within it). */
  leaseMs: number;
  /** Jobs each lane runs at once in this process (its slots). */
  concurrency: Record<Lane, number>;
  /** A job that keeps throwing is buried after this many attempts. */
  maxAttempts: number;
};

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = { leaseMs: 60_000, concurrency: { payments: 8, webhooks: 32 }, maxAttempts: 12 };

type Logger = { error(object: object, message: string): void; warn(object: object, message: string): void; debug(object: object, message: string): void };

/**
 * Runs due jobs from the database. Any number of runners (processes) share one queue. Each lane has its slots: a
 * claim takes as many due jobs of the lane as it has slots free, with a lease, and each job is settled (deleted or
 * rescheduled, if this runner still holds it) as soon as it finishes, which frees its slot for the lane's next due
 * job. A slow job holds its own slot only: nothing waits for the slowest of a batch, and webhook deliveries never
 * take the slots of payment-state jobs. Times are the app's clock.
 */
export class JobRunner {
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Set<Promise<void>>();
  private readonly inFlight: Record<Lane, number> = { payments: 0, webhooks: 0 };
  /** The claim under way in each lane: claims of one lane run one after another, so none takes more than the free slots. */
  private readonly claims = new Map<Lane, Promise<number>>();
  private settleWaiters: (() => void)[] = [];
  private started = 0;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly handlers: JobHandlers,
    private readonly log: Logger,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {}

  /**
   * Claims due jobs into every lane's free slots and starts them; resolves once claimed (not once run) with how many
   * started. The poll calls it; a job that finishes claims its lane's next one itself.
   */
  async fill(): Promise<number> {
    // Lane by lane, payments first: on a database with one connection (PGlite) its jobs' first statements then
    // queue ahead of a burst of deliveries' statements rather than behind it.
    let started = 0;
    for (const lane of LANES) started += await this.fillLane(lane);
    return started;
  }

  /**
   * Runs every job due now until none is left and none runs; resolves with how many this runner started meanwhile.
   * Calls while one is under way share it: two loops on one runner would each see the other's claim pending and
   * claim again after it, for ever.
   */
  runDue(): Promise<number> {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private draining: Promise<number> | undefined;

  private async drain(): Promise<number> {
    const before = this.started;
    for (;;) {
      const claimed = await this.fill();
      const running = this.inFlight.payments + this.inFlight.webhooks;
      if (claimed === 0 && running === 0 && this.claims.size === 0) return this.started - before;
      if (running > 0) await this.nextSettled();
    }
  }

  /** No more claims (graceful shutdown); the jobs running go on, `idle()` waits for them. */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves once the jobs this runner is running have finished (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.claims.size > 0) {
      await Promise.allSettled([...this.running, ...this.claims.values()]);
    }
  }

  private fillLane(lane: Lane): Promise<number> {
    const previous = this.claims.get(lane);
    const claim = (previous ? previous.catch(() => 0) : Promise.resolve(0)).then(() => this.claimInto(lane));
    this.claims.set(lane, claim);
    const forget = () => {
      if (this.claims.get(lane) === claim) this.claims.delete(lane);
    };
    claim.then(forget, forget);
    return claim;
  }

  private async claimInto(lane: Lane): Promise<number> {
    const free = this.options.concurrency[lane] - this.inFlight[lane];
    if (this.stopped || free <= 0) return 0;
    const now = this.clock.now();
    const claimed = await jobs.claimDueJobs(this.storage, this.worker, lane, now, new Date(now.getTime() + this.options.leaseMs), free);
    for (const row of claimed) this.start(lane, row);
    return claimed.length;
  }

  /** Runs a claimed job in its lane's slot; when it has been settled the slot is free and the lane claims again. */
  private start(lane: Lane, row: jobs.JobRow): void {
    this.inFlight[lane] += 1;
    this.started += 1;
    const job = this.runOne(row)
      .catch((error: unknown) => this.log.error({ err: error, job: { id: row.id, kind: row.kind } }, 'settling a job failed'))
      .finally(() => {
        this.inFlight[lane] -= 1;
        this.running.delete(job);
        for (const wake of this.settleWaiters.splice(0)) wake();
        if (!this.stopped) this.fillLane(lane).catch((error: unknown) => this.log.error({ err: error }, 'claiming due jobs failed'));
      });
    this.running.add(job);
  }

  private nextSettled(): Promise<void> {
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  /** Runs a job in the context of the request that caused it: its log lines carry that request's `reqId`. */
  private runOne(row: jobs.JobRow): Promise<void> {
    const { [REQUEST_ID_MEMBER]: reqId, ...payload } = (row.payload ?? {}) as Record<string, unknown>;
    return runInJob(typeof reqId === 'string' ? reqId : undefined, () => this.runClaimed({ ...row, payload }));
  }

  private async runClaimed(row: jobs.JobRow): Promise<void> {
    const handler = this.handlers[row.kind as JobKind] as ((payload: unknown, claim: JobClaim) => Promise<JobResult>) | undefined;
    let result: JobResult;
    if (!handler) {
      result = { outcome: 'retry', at: this.clock.now(), error: `no handler for job kind ${row.kind}` };
    } else {
      try {
        result = await handler(row.payload, { jobId: row.id, worker: this.worker });
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
