import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request (or job) on whose behalf code runs: its request id follows the work it starts, so a job enqueued by a
 * request, and every log line of that job (a webhook delivery's included), carries the request's `reqId`.
 */
type Context = { reqId: string; origin: 'request' | 'job' };

const storage = new AsyncLocalStorage<Context>();

/** The request id of the request or job running now, if any. */
export function currentReqId(): string | undefined {
  return storage.getStore()?.reqId;
}

export function runInRequest<T>(reqId: string, work: () => T): T {
  return storage.run({ reqId, origin: 'request' }, work);
}

export function runInJob<T>(reqId: string | undefined, work: () => T): T {
  return reqId ? storage.run({ reqId, origin: 'job' }, work) : storage.exit(work);
}

/**
 * What every log line gets (pino's `mixin`): a job's `reqId`. A request's lines already carry theirs (Fastify's
 * request logger), so nothing is added there and no line has the key twice.
 */
export function logBindings(): { reqId?: string } {
  const context = storage.getStore();
  return context?.origin === 'job' ? { reqId: context.reqId } : {};
}
