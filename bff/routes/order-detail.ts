import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { addOrderNote, getOrder } from '../../shared/contract/order-detail.ts';
import { presentNote, presentOrderDetail, presentTimeline } from '../presenters/order-timeline.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** One order with its timeline, and the merchant's notes on it (`shared/contract/order-detail.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, getOrder, async ({ params }, request) => {
    const record = await app.orderDetails.find(scopeOf(request), params.reference);
    return ok({ order: presentOrderDetail(record), timeline: presentTimeline(record) });
  });

  route(app, addOrderNote, async ({ params, body }, request) => {
    const note = await app.orderDetails.addNote(scopeOf(request), params.reference, body.text);
    return ok(presentNote(note));
  });
}

export default fp(routes, { name: 'order-detail' });
