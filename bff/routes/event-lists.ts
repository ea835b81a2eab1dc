import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listEvents } from '../../shared/contract/events.ts';
import { decodeEventCursor, encodeEventCursor, presentEvent } from '../presenters/operation-lists.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's domain events with their deliveries by state (`shared/contract/events.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, listEvents, async ({ query }, request) => {
    const { limit, cursor, type, ...range } = query;
    const page = await app.eventLists.page(scopeOf(request), { ...range, types: type }, limit, decodeEventCursor(cursor));
    return ok({ items: page.items.map(presentEvent), nextCursor: page.next ? encodeEventCursor(page.next) : null });
  });
}

export default fp(routes, { name: 'event-lists' });
