import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { exportOrders, listOrders, type OrderListQuery } from '../../shared/contract/orders.ts';
import { toMinorUnits } from '../../shared/money.ts';
import { invalid } from '../errors.ts';
import { callerOf } from '../plugins/auth.ts';
import { customerKeyOf, decodeCursor, encodeCursor, ORDER_CSV_COLUMNS, orderCsvLine, presentOrderSummary } from '../presenters/operations.ts';
import type { MerchantScope, OrderFilter } from '../services/order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's orders: list, search, export (`shared/contract/orders.ts`). */
export const scopeOf = (request: FastifyRequest): MerchantScope => {
  const caller = callerOf(request);
  return { merchantId: caller.merchant.id, mode: caller.mode };
};

/** The list's query as the domain's filter: method names, the customer's key, amounts in minor units. */
export function filterOf(query: Omit<OrderListQuery, 'limit' | 'cursor'>): Omit<OrderFilter, 'merchantId' | 'mode'> {
  const minor = (name: string, amount: string | undefined) => {
    if (amount === undefined) return undefined;
    if (!query.currency) throw invalid(`${name} needs currency: amounts are compared in one currency's units.`, undefined, 'invalid_field');
    const value = toMinorUnits(Number(amount), query.currency);
    if (value === undefined) throw invalid(`${name} has more decimals than ${query.currency} has.`, undefined, 'invalid_field');
    return value;
  };
  return {
    search: query.q,
    states: query.state,
    method: query.method === undefined ? undefined : query.method === 'card' ? 'C' : 'bank-transfer',
    currency: query.currency,
    amountMinMinor: minor('amountMin', query.amountMin),
    amountMaxMinor: minor('amountMax', query.amountMax),
    from: query.from,
    to: query.to,
    linkReference: query.link,
    subscriptionReference: query.subscription,
    customer: query.customer === undefined ? undefined : customerKeyOf(query.customer),
  };
}

async function routes(app: FastifyInstance): Promise<void> {
  route(app, listOrders, async ({ query }, request) => {
    const { limit, cursor, ...filters } = query;
    const page = await app.orderLists.page(scopeOf(request), filterOf(filters), limit, decodeCursor(cursor));
    return ok({ items: page.items.map(presentOrderSummary), nextCursor: page.next ? encodeCursor(page.next) : null });
  });

  route(app, exportOrders, async ({ query }, request, reply) => {
    // The filter is checked here, before the first byte: a bad one is an envelope, never a cut stream.
    const rows = app.orderLists.all(scopeOf(request), filterOf(query));
    async function* lines() {
      yield `${ORDER_CSV_COLUMNS.join(',')}\r\n`;
      for await (const row of rows) yield orderCsvLine(row);
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="orders.csv"')
      .send(Readable.from(lines()));
  });
}

export default fp(routes, { name: 'order-lists' });
