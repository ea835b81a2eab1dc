import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exportRefunds, listRefunds, type RefundListQuery } from '../../shared/contract/refunds.ts';
import { decodeCursor, encodeCursor } from '../presenters/operations.ts';
import { presentRefundSummary, REFUND_CSV_COLUMNS, refundCsvLine } from '../presenters/refund-lists.ts';
import type { RefundFilter } from '../services/refund-lists.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's refunds: list and export (`shared/contract/refunds.ts`). */
function filterOf(query: Omit<RefundListQuery, 'limit' | 'cursor'>): Omit<RefundFilter, 'merchantId' | 'mode'> {
  return { state: query.state, orderReference: query.order, currency: query.currency, from: query.from, to: query.to };
}

async function routes(app: FastifyInstance): Promise<void> {
  route(app, listRefunds, async ({ query }, request) => {
    const { limit, cursor, ...filters } = query;
    const page = await app.refundLists.page(scopeOf(request), filterOf(filters), limit, decodeCursor(cursor));
    return ok({ items: page.items.map(presentRefundSummary), nextCursor: page.next ? encodeCursor(page.next) : null });
  });

  route(app, exportRefunds, async ({ query }, request, reply) => {
    // The filter is checked here, before the first byte: a bad one is an envelope, never a cut stream.
    const rows = app.refundLists.all(scopeOf(request), filterOf(query));
    async function* lines() {
      yield `${REFUND_CSV_COLUMNS.join(',')}\r\n`;
      for await (const row of rows) yield refundCsvLine(row);
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="refunds.csv"')
      .send(Readable.from(lines()));
  });
}

export default fp(routes, { name: 'refund-lists' });
