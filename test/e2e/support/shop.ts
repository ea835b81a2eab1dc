import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's page on an origin of its own (127.0.0.1, a free port), as a shop that embeds the checkout serves it. */
export interface Shop {
  origin: string;
  close(): Promise<void>;
}

export async function startShop(handler: RequestListener): Promise<Shop> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
