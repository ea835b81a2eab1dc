import type { Queryable } from '../storage/storage.ts';

/** What `/metrics` reports from the database: the same figures whichever process (or how many) is asked. */
export type OperationalCounts = {
  paymentsByOutcome: { status_id: number; payment_option: string; mode: string; count: number }[];
  jobs: { due: number; scheduled: number; running: number; dead: number };
  deliveriesByStatus: { status: string; count: number }[];
  failedDeliveryAttempts: number;
};

export async function operationalCounts(db: Queryable, now: Date): Promise<OperationalCounts> {
  const paymentsByOutcome = await db.query<{ status_id: number; payment_option: string; mode: string; count: number }>(
    `SELECT p.status_id, p.payment_option, o.mode, count(*)::int AS count
       FROM order_payments p JOIN orders o ON o.id = p.order_id
      GROUP BY p.status_id, p.payment_option, o.mode`,
  );
  const [jobs] = await db.query<{ due: number; scheduled: number; running: number; dead: number }>(
    `SELECT count(*) FILTER (WHERE dead_at IS NULL AND run_at <= $1 AND (locked_until IS NULL OR locked_until <= $1))::int AS due,
            count(*) FILTER (WHERE dead_at IS NULL AND run_at > $1 AND (locked_until IS NULL OR locked_until <= $1))::int AS scheduled,
            count(*) FILTER (WHERE dead_at IS NULL AND locked_until > $1)::int AS running,
            count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead
       FROM jobs`,
    [now],
  );
  const deliveriesByStatus = await db.query<{ status: string; count: number }>('SELECT status, count(*)::int AS count FROM webhook_deliveries GROUP BY status');
  const [attempts] = await db.query<{ failed: number }>(
    `SELECT count(*)::int AS failed FROM webhook_attempts
      WHERE finished_at IS NOT NULL AND (status_code IS NULL OR status_code < 200 OR status_code > 299)`,
  );
  return { paymentsByOutcome, jobs: jobs ?? { due: 0, scheduled: 0, running: 0, dead: 0 }, deliveriesByStatus, failedDeliveryAttempts: attempts?.failed ?? 0 };
}
