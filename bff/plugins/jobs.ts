import fp from 'fastify-plugin';
import type { Lane } from '../jobs/kinds.ts';
import { enqueue } from '../jobs/queue.ts';
import { JobRunner, DEFAULT_RUNNER_OPTIONS } from '../jobs/runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue's runner in this process (`runDue()` runs what is due now). */
    jobs: JobRunner;
  }
}

/**
 * Durable jobs in the database, run on the app's clock: each process claims due jobs with a lease into each lane's
 * free slots every `pollMs` (and at start, catching up on whatever fell due while no process ran), and a job that
 * finishes claims its lane's next one, so any number of processes share the work and each job runs once. On close
 * it stops claiming and lets running jobs finish.
 */
export default fp<{ pollMs: number; leaseMs: number; concurrency: Record<Lane, number> }>(
  async (app, { pollMs, leaseMs, concurrency }) => {
    const runner = new JobRunner(app.storage, app.clock, app.jobHandlers, app.log, { ...DEFAULT_RUNNER_OPTIONS, leaseMs, concurrency });
    app.decorate('jobs', runner);
    let timer: NodeJS.Timeout | undefined;
    let closing = false;
    let claiming: Promise<unknown> | undefined;
    const schedule = () => {
      if (closing || pollMs <= 0) return;
      timer = setTimeout(poll, pollMs);
      timer.unref();
    };
    // A poll only claims: the jobs it starts run in their slots while the next polls fill the slots others free.
    const poll = () => {
      claiming = runner
        .fill()
        .catch((error: unknown) => app.log.error({ err: error }, 'claiming due jobs failed'))
        .finally(() => {
          claiming = undefined;
          schedule();
        });
    };
    app.addHook('onReady', async () => {
      // The periodic jobs exist once whatever the number of processes (their key is unique while pending).
      const now = app.clock.now();
      await enqueue(app.storage, { kind: 'maintenance.purge-idempotency-keys', payload: {} }, now, now);
      if (pollMs > 0) {
        // Catch up at start on whatever fell due while no process ran, without holding the start on it.
        poll();
        await claiming;
      } else {
        // Jobs run when asked (tests); what fell due while no process ran is run before the app is ready.
        await runner.runDue().catch((error: unknown) => app.log.error({ err: error }, 'running due jobs failed'));
      }
    });
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(timer);
      runner.stop();
      await claiming;
      await runner.idle();
    });
  },
  { name: 'jobs', dependencies: ['services'] },
);
