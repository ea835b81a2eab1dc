import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
/** An HTTP status to answer, or `hold` to keep the request open without answering. */
export type Answer = number | 'hold';

/**
 * A merchant's webhook endpoint: a real HTTP server on 127.0.0.1 that records every request (raw body and
 * headers) and answers what the test says, by the request's number (0-based) among all it received.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The most requests each path had open at once (received and not yet answered or abandoned by the sender). */
  readonly mostOpen = new Map<string, number>();
  private readonly open = new Map<string, number>();
  private server: Server | undefined;
  private waiters: (() => void)[] = [];

  constructor(public answer: (index: number, request: ReceivedWebhook) => Answer = () => 200) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      const opened = (this.open.get(path) ?? 0) + 1;
      this.open.set(path, opened);
      this.mostOpen.set(path, Math.max(this.mostOpen.get(path) ?? 0, opened));
      response.on('close', () => this.open.set(path, (this.open.get(path) ?? 1) - 1));
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received = { path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const index = this.received.push(received) - 1;
        for (const wake of this.waiters.splice(0)) wake();
        const answer = this.answer(index, received);
        if (answer === 'hold') return;
        response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The address of a path on this receiver. */
  url(path = '/webhooks'): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  /** Resolves once `count` requests have arrived (real time, up to `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.received.length} of ${count} webhooks in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The README's signature check, run exactly as a merchant would paste it (extracted from README.md). */
export async function readmeVerifier(): Promise<(rawBody: string, header: string | undefined, secret: string) => boolean> {
  const { readFileSync, mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split('#### Verifying a signature')[1];
  const snippet = section && /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!snippet) throw new Error('README.md has no js block under "Verifying a signature"');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'readme-snippet-')), 'verify.mjs');
  writeFileSync(file, snippet);
  const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { verifyCheckoutSignature?: unknown };
  if (typeof module.verifyCheckoutSignature !== 'function') throw new Error('the README snippet does not export verifyCheckoutSignature');
  return module.verifyCheckoutSignature as (rawBody: string, header: string | undefined, secret: string) => boolean;
}
