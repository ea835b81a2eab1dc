import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  activatePaymentLink,
  createPaymentLink,
  disablePaymentLink,
  editPaymentLink,
  getPaymentLink,
  listPaymentLinkOrders,
  listPaymentLinks,
} from '../../shared/contract/links.ts';
import { callerOf } from '../plugins/auth.ts';
import { decodeCursor, encodeCursor, presentOrderSummary } from '../presenters/operations.ts';
import { presentLinkSummary } from '../presenters/operation-lists.ts';
import type { LinkListRow } from '../services/link-lists.ts';
import { filterOf, scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's payment links: list, one, its orders, and making, editing, activating and disabling them (`shared/contract/links.ts`; why not under `/checkout/links`: see there). */
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

  // Through the links service, as the gateway's own link routes; the answer is the link as the list shows it.
  route(app, createPaymentLink, async ({ body }, request) => {
    const { paymentLink } = await app.links.create(callerOf(request), body);
    return ok(present(await app.linkLists.find(scopeOf(request), String(paymentLink.id))));
  });

  route(app, editPaymentLink, async ({ params, body }, request) => {
    const link = await app.linkLists.find(scopeOf(request), params.idOrReference);
    await app.links.edit(callerOf(request), link.id, body);
    return ok(present(await app.linkLists.find(scopeOf(request), String(link.id))));
  });

  for (const [endpoint, active] of [[activatePaymentLink, true], [disablePaymentLink, false]] as const) {
    route(app, endpoint, async ({ params }, request) => {
      const link = await app.linkLists.find(scopeOf(request), params.idOrReference);
      await app.links.setActive(callerOf(request), link.id, active);
      return ok(present(await app.linkLists.find(scopeOf(request), String(link.id))));
    });
  }
}

export default fp(routes, { name: 'link-lists' });
