import * as jobs from '../repositories/jobs.ts';
import type { Queryable } from '../storage/storage.ts';
import { currentReqId } from '../request-context.ts';
import { jobKey, type Job } from './kinds.ts';

/** The member of a stored payload that carries the id of the request that caused the job (not the handler's). */
export const REQUEST_ID_MEMBER = '_reqId';

/**
 * Adds a job inside the caller's transaction, to run at `runAt` on the app's clock; once per key while pending. The
 * request (or job) enqueuing it lends it its request id, which the runner puts on the job's log lines.
 */
export async function enqueue(db: Queryable, job: Job, runAt: Date, now: Date): Promise<void> {
  await jobs.enqueueJob(db, jobRow(job, runAt, now));
}

/** The row `enqueue` adds, for a statement that writes it together with the change that needs it. */
export function jobRow(job: Job, runAt: Date, now: Date): jobs.NewJob {
  return { kind: job.kind, key: jobKey(job), payload: { ...job.payload, ...jobContext() }, runAt, now };
}

/** What a job's stored payload carries besides its own members: the id of the request enqueuing it, if any. */
export function jobContext(): Record<string, string> {
  const reqId = currentReqId();
  return reqId ? { [REQUEST_ID_MEMBER]: reqId } : {};
}
