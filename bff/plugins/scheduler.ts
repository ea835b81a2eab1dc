import fp from 'fastify-plugin';

/**
 * Timed work in-process, on the app's clock: transfer accounts past their expiry, 3-D Secure attempts the
 * customer abandoned, and attempts interrupted while processing are resolved by a periodic sweep, which also runs
 * once at start so a restart catches up on whatever fell due while the process was down. Reads of an order
 * (status, verify, transfer arrivals, the 3-D Secure page) also resolve its own attempts on the spot, so answers
 * never lag the sweep.
 */
export default fp<{ intervalMs: number }>(
  async (app, { intervalMs }) => {
    let running: Promise<unknown> | undefined;
    // One run at a time: a slow run (a large backlog after a restart) is not joined by the next tick.
    const sweep = () => {
      running ??= app.deadlines
        .runTimedWork()
        .catch((error: unknown) => app.log.error({ err: error }, 'timed payment work failed'))
        .finally(() => {
          running = undefined;
        });
      return running;
    };
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      await sweep();
      timer = setInterval(sweep, intervalMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'scheduler', dependencies: ['services'] },
);
