/**
 * Every kind of durable job, with its payload. A job is written in the same transaction as the change that needs
 * it (an account's expiry with the account, an event's delivery with the event), so none is lost.
 */
export type Job =
  /** A transfer account's time runs out. */
  | { kind: 'payment.expire-transfer'; payload: { paymentId: number } }
  /** A 3-D Secure attempt the customer never finished. */
  | { kind: 'payment.expire-authentication'; payload: { paymentId: number } }
  /** An attempt still processing: the processor's record decides (a crash, a timeout, a lost answer). */
  | { kind: 'payment.requery'; payload: { paymentId: number } }
  /** A refund still processing: the processor's record decides (a crash, a timeout, a lost answer). */
  | { kind: 'refund.requery'; payload: { refundId: number } }
  /** A refund the service made itself (a charge approved after its subscription was cancelled): sent until answered. */
  | { kind: 'refund.send'; payload: { refundId: number } }
  /** One attempt at a webhook delivery; it runs again (backoff) until delivered or out of its 3-day window. */
  | { kind: 'webhook.deliver'; payload: { deliveryId: string } }
  /** A subscription's charges: runs at each due time (or retry) until the subscription ends; one per subscription. */
  | { kind: 'subscription.charge'; payload: { subscriptionId: number } }
  /** Hourly: idempotency keys past their 24-hour window are deleted. */
  | { kind: 'maintenance.purge-idempotency-keys'; payload: Record<string, never> };

export type JobKind = Job['kind'];

/**
 * The queue's lanes, each with its own slots in every process: webhook deliveries (which wait on merchants'
 * servers) in theirs, and everything else (expiries, re-queries, charges, refunds, maintenance: payment state on the
 * app's clock) in the payments lane, which deliveries cannot fill. The lane follows from the kind in the database
 * (the `jobs.lane` generated column, migration 017), so every writer of jobs puts a job in its lane.
 */
export const LANES = ['payments', 'webhooks'] as const;
export type Lane = (typeof LANES)[number];
export type PayloadOf<K extends JobKind> = Extract<Job, { kind: K }>['payload'];

/** What a handler decided: finished; run again later (periodic work, or a condition not met yet); failed, retry. */
export type JobResult = { outcome: 'done' } | { outcome: 'again'; at: Date } | { outcome: 'retry'; at: Date; error: string };

export const done: JobResult = { outcome: 'done' };

/**
 * The runner's hold on the job a handler runs: a handler whose own statement must settle the job together with its
 * work (a delivery that waits, released in the transaction that makes it wait) names it; the runner then finds the
 * job no longer held and leaves it as the handler did.
 */
export type JobClaim = { jobId: number; worker: string };

export type JobHandlers = { [K in JobKind]: (payload: PayloadOf<K>, claim: JobClaim) => Promise<JobResult> };

/** The key that makes a job unique while pending (one expiry per attempt, one fan-out per event). */
export const jobKey = (job: Job): string => [job.kind, ...Object.values(job.payload)].join(':');
