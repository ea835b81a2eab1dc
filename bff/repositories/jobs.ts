import type { Queryable } from '../storage/storage.ts';

export type JobRow = {
  id: number;
  kind: string;
  key: string | null;
  payload: unknown;
  run_at: Date;
  attempts: number;
  locked_by: string | null;
  last_error: string | null;
};

/**
 * Adds a job to run at `runAt` (app clock). A job with a key is added once: while one with that key is pending
 * (or running), adding it again changes nothing, so an attempt's expiry or an event's fan-out is never doubled.
 */
export type NewJob = { kind: string; key?: string | undefined; payload: unknown; runAt: Date; now: Date };

export async function enqueueJob(db: Queryable, job: NewJob): Promise<void> {
  await db.query(
    `INSERT INTO jobs (kind, key, payload, run_at, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
    [job.kind, job.key ?? null, JSON.stringify(job.payload), job.runAt, job.now],
  );
}

/**
 * Claims up to `limit` due jobs of one lane for `worker` until `leaseUntil`. `FOR UPDATE SKIP LOCKED` lets any number
 * of processes claim at once without waiting on each other or taking the same job; a job whose lease ran out (its
 * process died or stalled) is due again. A job's lane follows from its kind (a generated column, migration 017).
 */
export async function claimDueJobs(db: Queryable, worker: string, lane: string, now: Date, leaseUntil: Date, limit: number): Promise<JobRow[]> {
  return db.query<JobRow>(
    `UPDATE jobs SET locked_by = $1, locked_until = $3, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM jobs
         WHERE lane = $5 AND dead_at IS NULL AND run_at <= $2 AND (locked_until IS NULL OR locked_until <= $2)
         ORDER BY run_at, id
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, key, payload, run_at, attempts, locked_by, last_error`,
    [worker, now, leaseUntil, limit, lane],
  );
}

/** A finished job is deleted, by its holder only (a job whose lease was taken over belongs to the new holder). */
export async function completeJob(db: Queryable, id: number, worker: string): Promise<boolean> {
  return (await db.query('DELETE FROM jobs WHERE id = $1 AND locked_by = $2 RETURNING id', [id, worker])).length === 1;
}

/** Runs the job again at `runAt`; `resetAttempts` when it is a periodic job rather than a failure. */
export async function rescheduleJob(
  db: Queryable,
  id: number,
  worker: string,
  runAt: Date,
  lastError: string | null,
  resetAttempts: boolean,
): Promise<void> {
  await db.query(
    `UPDATE jobs SET run_at = $3, locked_by = NULL, locked_until = NULL, last_error = $4,
            attempts = CASE WHEN $5 THEN 0 ELSE attempts END
      WHERE id = $1 AND locked_by = $2`,
    [id, worker, runAt, lastError, resetAttempts],
  );
}

/** A job that gave up: kept, with its last error, for the operator. */
export async function buryJob(db: Queryable, id: number, worker: string, lastError: string, now: Date): Promise<void> {
  await db.query('UPDATE jobs SET dead_at = $3, last_error = $4, locked_by = NULL, locked_until = NULL WHERE id = $1 AND locked_by = $2', [
    id,
    worker,
    now,
    lastError,
  ]);
}
