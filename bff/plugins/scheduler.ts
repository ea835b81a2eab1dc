import fp from 'fastify-plugin';

/**
 * Timed work in-process: transfer accounts past their expiry are closed by a periodic sweep, which also runs
 * once at start so a restart catches up on whatever expired while the process was down. Reads of an order
 * (status, verify, transfer arrivals) also expire its own account on the spot, so answers never lag the sweep.
 */
export default fp<{ intervalMs: number }>(
  async (app, { intervalMs }) => {
    let running: Promise<unknown> = Promise.resolve();
    const sweep = () => {
      running = app.payments.expireTransferAccounts().catch((error: unknown) => app.log.error({ err: error }, 'transfer expiry sweep failed'));
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
