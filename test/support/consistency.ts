import { PAYMENT_STATES, type PaymentStage, type StatusId } from '../../bff/domain/lifecycle.ts';
import type { Queryable } from '../../bff/storage/storage.ts';

/**
 * What must hold of stored orders and payments whatever was sent and whenever a process died: the states the
 * lifecycle table allows (bff/domain/lifecycle.ts), at most one successful payment per order, an order's status
 * agreeing with its attempts, and every open attempt holding the durable job that ends it. Each finding is one
 * sentence naming the rows (ids and references only, never other columns).
 */
export async function consistencyFindings(db: Queryable): Promise<string[]> {
  const findings: string[] = [];
  const payments = await db.query<{ id: number; order_id: number; status_id: number; stage: string }>(
    'SELECT id, order_id, status_id, stage FROM order_payments ORDER BY id',
  );
  const allowed = new Set(PAYMENT_STATES.map((state) => `${state.status}/${state.stage}`));
  for (const payment of payments) {
    if (!allowed.has(`${payment.status_id}/${payment.stage}`)) findings.push(`payment ${payment.id} is in no lifecycle state (status ${payment.status_id}, stage ${payment.stage})`);
  }

  const orders = await db.query<{ id: number; reference: string; status_id: number }>('SELECT id, reference, status_id FROM orders ORDER BY id');
  const byOrder = new Map<number, { status: StatusId; stage: PaymentStage }[]>();
  for (const payment of payments) {
    const list = byOrder.get(payment.order_id) ?? [];
    list.push({ status: payment.status_id as StatusId, stage: payment.stage as PaymentStage });
    byOrder.set(payment.order_id, list);
  }
  for (const order of orders) {
    const attempts = byOrder.get(order.id) ?? [];
    const successes = attempts.filter((attempt) => attempt.status === 5 || attempt.status === 6).length;
    const open = attempts.filter((attempt) => attempt.status === 2).length;
    const name = `order ${order.id} (${order.reference})`;
    if (successes > 1) findings.push(`${name} has ${successes} successful payments`);
    if (open > 1) findings.push(`${name} has ${open} open attempts at once`);
    switch (order.status_id) {
      case 1:
        if (attempts.length > 0) findings.push(`${name} is Initiated but has ${attempts.length} attempts`);
        break;
      case 2:
        if (open !== 1) findings.push(`${name} is Pending with ${open} open attempts`);
        break;
      case 4:
        if (open > 0 || successes > 0 || attempts.length === 0) findings.push(`${name} is Failed with ${open} open, ${successes} successful and ${attempts.length} attempts`);
        break;
      case 5:
        if (attempts.filter((attempt) => attempt.status === 5).length !== 1) findings.push(`${name} is Successful without exactly one successful payment`);
        break;
      case 6:
        if (attempts.filter((attempt) => attempt.status === 6).length !== 1) findings.push(`${name} is Reversed without a reversed payment`);
        break;
      default:
        findings.push(`${name} has the unknown status ${order.status_id}`);
    }
  }

  // An open attempt is ended by a job written with it: lose the job and the attempt stays open for ever.
  const jobFor: Partial<Record<PaymentStage, string>> = {
    processing: 'payment.requery',
    authentication: 'payment.expire-authentication',
    transfer: 'payment.expire-transfer',
  };
  const jobs = new Set((await db.query<{ key: string }>('SELECT key FROM jobs WHERE dead_at IS NULL AND key IS NOT NULL')).map((job) => job.key));
  for (const payment of payments) {
    const kind = payment.status_id === 2 ? jobFor[payment.stage as PaymentStage] : undefined;
    if (kind && !jobs.has(`${kind}:${payment.id}`)) findings.push(`open payment ${payment.id} (${payment.stage}) has no pending ${kind} job`);
  }
  return findings;
}
