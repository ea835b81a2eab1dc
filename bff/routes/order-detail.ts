import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { addOrderNote, getOrder, refundOrder } from '../../shared/contract/order-detail.ts';
import { auditTarget, callerOf } from '../plugins/auth.ts';
import { presentNote, presentOrderDetail, presentOrderRefund, presentTimeline } from '../presenters/order-timeline.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** One order with its timeline, the merchant's notes on it, and the dashboard's refund (`shared/contract/order-detail.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, getOrder, async ({ params }, request) => {
    const record = await app.orderDetails.find(scopeOf(request), params.reference);
    return ok({ order: presentOrderDetail(record), timeline: presentTimeline(record) });
  });

  route(app, addOrderNote, async ({ params, body }, request) => {
    const note = await app.orderDetails.addNote(scopeOf(request), params.reference, body.text);
    return ok(presentNote(note));
  });

  route(app, refundOrder, async ({ params, body }, request) => {
    const { refund, order, payments, refunds } = await app.refunds.refund(callerOf(request), { reference: params.reference, amount: body.amount, reason: body.reason });
    auditTarget(request, `refund:${refund.reference} order:${order.reference}`);
    return ok(presentOrderRefund(refund, payments, refunds));
  });
}

export default fp(routes, { name: 'order-detail' });
