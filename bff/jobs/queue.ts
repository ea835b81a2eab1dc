import * as jobs from '../repositories/jobs.ts';
import type { Queryable } from '../storage/storage.ts';
import { jobKey, type Job } from './kinds.ts';

/** Adds a job inside the caller's transaction, to run at `runAt` on the app's clock; once per key while pending. */
export async function enqueue(db: Queryable, job: Job, runAt: Date, now: Date): Promise<void> {
  await jobs.enqueueJob(db, { kind: job.kind, key: jobKey(job), payload: job.payload, runAt, now });
}
