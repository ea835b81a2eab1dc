import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { openStorage, storageOptions } from '../storage/open.ts';
import type { Storage } from '../storage/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

/** Opens the configured database (migrated) for the app's lifetime and closes it on shutdown. */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const storage = await openStorage(storageOptions(config));
    app.decorate('storage', storage);
    app.addHook('onClose', async () => storage.close());
  },
  { name: 'storage' },
);
