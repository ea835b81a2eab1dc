import fp from 'fastify-plugin';
import { enqueue } from '../jobs/queue.ts';
import { JobRunner, DEFAULT_RUNNER_OPTIONS } from '../jobs/runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue's runner in this process (`runDue()` runs what is due now). */
    jobs: JobRunner;
  }
}

/**
 * Durable jobs in the database, run on the app's clock: each process polls for due jobs every `pollMs` (and once at
 * start, catching up on whatever fell due while no process ran) and claims them with a lease, so any number of
 * processes share the work and each job runs once. On close it stops claiming and lets running jobs finish.
 */
export default fp<{ pollMs: number; leaseMs: number }>(
  async (app, { pollMs, leaseMs }) => {
    const runner = new JobRunner(app.storage, app.clock, app.jobHandlers, app.log, { ...DEFAULT_RUNNER_OPTIONS, leaseMs });
    app.decorate('jobs', runner);
    let timer: NodeJS.Timeout | undefined;
    let closing = false;
    let round: Promise<unknown> | undefined;
    const poll = () => {
      round = runner
        .runDue()
        .catch((error: unknown) => app.log.error({ err: error }, 'running due jobs failed'))
        .finally(() => {
          round = undefined;
          if (!closing && pollMs > 0) {
            timer = setTimeout(poll, pollMs);
            timer.unref();
          }
        });
    };
    app.addHook('onReady', async () => {
      // The periodic jobs exist once whatever the number of processes (their key is unique while pending).
      const now = app.clock.now();
      await enqueue(app.storage, { kind: 'maintenance.purge-idempotency-keys', payload: {} }, now, now);
      // Catch up at start on whatever fell due while no process ran, then keep polling.
      await runner.runDue().catch((error: unknown) => app.log.error({ err: error }, 'running due jobs failed'));
      if (pollMs > 0) {
        timer = setTimeout(poll, pollMs);
        timer.unref();
      }
    });
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(timer);
      await round;
      await runner.idle();
    });
  },
  { name: 'jobs', dependencies: ['services'] },
);
