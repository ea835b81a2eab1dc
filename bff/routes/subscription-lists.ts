import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cancelSubscription, exportSubscriptions, listSubscriptions, type SubscriptionListQuery } from '../../shared/contract/subscriptions.ts';
import { customerKeyOf, decodeCursor, encodeCursor } from '../presenters/operations.ts';
import { presentSubscriptionSummary, SUBSCRIPTION_CSV_COLUMNS, subscriptionCsvLine } from '../presenters/operation-lists.ts';
import type { SubscriptionListFilter } from '../services/subscription-lists.ts';
import { auditTarget, callerOf } from '../plugins/auth.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's subscriptions across its links: list, export and cancel (`shared/contract/subscriptions.ts`). */
function filterOf(query: Omit<SubscriptionListQuery, 'limit' | 'cursor'>): SubscriptionListFilter {
  return {
    states: query.state,
    linkReference: query.link,
    customer: query.customer === undefined ? undefined : customerKeyOf(query.customer),
    from: query.from,
    to: query.to,
  };
}

async function routes(app: FastifyInstance): Promise<void> {
  route(app, listSubscriptions, async ({ query }, request) => {
    const { limit, cursor, ...filters } = query;
    const page = await app.subscriptionLists.page(scopeOf(request), filterOf(filters), limit, decodeCursor(cursor));
    return ok({ items: page.items.map(presentSubscriptionSummary), nextCursor: page.next ? encodeCursor(page.next) : null });
  });

  route(app, exportSubscriptions, async ({ query }, request, reply) => {
    const rows = app.subscriptionLists.all(scopeOf(request), filterOf(query));
    async function* lines() {
      yield `${SUBSCRIPTION_CSV_COLUMNS.join(',')}\r\n`;
      for await (const row of rows) yield subscriptionCsvLine(row);
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="subscriptions.csv"')
      .send(Readable.from(lines()));
  });

  route(app, cancelSubscription, async ({ params }, request) => {
    const { chargeOut } = await app.subscriptions.cancel(callerOf(request), String(params.subscriptionId));
    auditTarget(request, `subscription:${params.subscriptionId}`);
    return ok({ id: params.subscriptionId, cancelled: true as const, chargeInFlight: chargeOut }, 'Subscription cancelled');
  });
}

export default fp(routes, { name: 'subscription-lists' });
