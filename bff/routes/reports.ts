import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { reportSummary } from '../../shared/contract/reports.ts';
import { presentReport } from '../presenters/reports.ts';
import { scopeOf } from './order-lists.ts';
import { ok, route } from './register.ts';

/** The merchant's figures over a range (`shared/contract/reports.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, reportSummary, async ({ query }, request) => ok(presentReport(await app.reports.summary(scopeOf(request), query))));
}

export default fp(routes, { name: 'reports' });
