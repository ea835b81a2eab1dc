import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { forbidden } from '../errors.ts';
import { callerOf } from '../plugins/auth.ts';
import type { AdvancingClock } from '../services/clock.ts';

const advanceBody = z.object({ advanceSeconds: z.number().int().min(1).max(10 * 366 * 24 * 3600) });

/**
 * Registered only when NODE_ENV=test and CHECKOUT_TEST_CLOCK=1 (config.ts refuses it otherwise): end-to-end tests
 * move the server's clock forward and run what fell due, as time passing would (a subscription's next charge).
 * Absent from every other process, and from the OpenAPI document.
 */
const routes: FastifyPluginAsyncZod<{ clock: AdvancingClock }> = async (app, { clock }) => {
  app.post(
    '/checkout/sandbox/clock',
    { config: { auth: 'secret' }, schema: { hide: true, body: advanceBody } },
    async (request) => {
      if (callerOf(request).mode !== 'test') throw forbidden('The test clock moves in test mode only.');
      clock.advance(request.body.advanceSeconds * 1000);
      const ran = await app.jobs.runDue();
      return { status: 'success' as const, statusCode: '00', message: 'Clock advanced', data: { now: formatTimestamp(clock.now()), jobsRun: ran } };
    },
  );
};

export default routes;
