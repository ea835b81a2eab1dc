import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { getPaymentLink, listPaymentLinkOrders, listPaymentLinks } from '../../shared/contract/links.ts';
import { decodeCursor, encodeCursor, presentOrderSummary } from '../presenters/operations.ts';
import { presentLinkSummary } from '../presenters/operation-lists.ts';
import type { LinkListRow } from '../services/link-lists.ts';
import { filterOf, scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's payment links: list, one, its orders (`shared/contract/links.ts`; why not under `/checkout/links`: see there). */
async function routes(app: FastifyInstance): Promise<void> {
  const present = (row: LinkListRow) => presentLinkSummary(row, app.links.linkUrl(row.reference));

  route(app, listPaymentLinks, async ({ query }, request) => {
    const { limit, cursor, q, ...filters } = query;
    const page = await app.linkLists.page(scopeOf(request), { ...filters, search: q }, limit, decodeCursor(cursor));
    return ok({ items: page.items.map(present), nextCursor: page.next ? encodeCursor(page.next) : null });
  });

  route(app, getPaymentLink, async ({ params }, request) => ok(present(await app.linkLists.find(scopeOf(request), params.idOrReference))));

  route(app, listPaymentLinkOrders, async ({ params, query }, request) => {
    const { limit, cursor, ...filters } = query;
    const page = await app.linkLists.orders(scopeOf(request), params.idOrReference, filterOf(filters), limit, decodeCursor(cursor));
    return ok({ items: page.items.map(presentOrderSummary), nextCursor: page.next ? encodeCursor(page.next) : null });
  });
}

export default fp(routes, { name: 'link-lists' });
