import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exportCustomers, getCustomer, listCustomers, revokeCustomerCard } from '../../shared/contract/customers.ts';
import { customerKeyOf, decodeCursor, encodeCursor, presentOrderSummary } from '../presenters/operations.ts';
import {
  cardNumberOf, CUSTOMER_CSV_COLUMNS, customerCsvLine, presentCustomer, presentSavedCard, presentSubscriptionSummary,
} from '../presenters/operation-lists.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's customers: list, export, one with its orders, subscriptions and cards, revoke a card (`shared/contract/customers.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, listCustomers, async ({ query }, request) => {
    const { limit, cursor, q, ...range } = query;
    const page = await app.customerLists.page(scopeOf(request), { ...range, search: q }, limit, decodeCursor(cursor));
    return ok({ items: page.items.map(presentCustomer), nextCursor: page.next ? encodeCursor(page.next) : null });
  });

  route(app, exportCustomers, async ({ query }, request, reply) => {
    const { q, ...range } = query;
    // The filter is checked here, before the first byte: a bad one is an envelope, never a cut stream.
    const rows = app.customerLists.all(scopeOf(request), { ...range, search: q });
    async function* lines() {
      yield `${CUSTOMER_CSV_COLUMNS.join(',')}\r\n`;
      for await (const row of rows) yield customerCsvLine(row);
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="customers.csv"')
      .send(Readable.from(lines()));
  });

  route(app, getCustomer, async ({ params }, request) => {
    const detail = await app.customerLists.detail(scopeOf(request), customerKeyOf(params.customerId));
    return ok({
      ...presentCustomer(detail.customer),
      orders: { items: detail.orders.items.map(presentOrderSummary), nextCursor: detail.orders.next ? encodeCursor(detail.orders.next) : null },
      subscriptions: detail.subscriptions.map(presentSubscriptionSummary),
      cards: detail.cards.map(presentSavedCard),
    });
  });

  route(app, revokeCustomerCard, async ({ params }, request) => {
    await app.customerLists.revokeCard(scopeOf(request), customerKeyOf(params.customerId), cardNumberOf(params.cardId));
    return ok({ id: params.cardId, revoked: true as const }, 'Saved card revoked');
  });
}

export default fp(routes, { name: 'customer-lists' });
