import { forbidden } from '../errors.ts';
import type { PaymentMethod, PaymentProcessor } from './port.ts';

export const LIVE_PAYMENTS_DISABLED = 'Live payments are not enabled for this merchant: no acquirer is connected.';

/**
 * Picks the processor for a payment by merchant, mode, method and currency: the first registered one that says it
 * supports the route. This build registers the sandbox (test mode); an acquirer connector registers beside it.
 */
export class ProcessorRegistry {
  constructor(private readonly processors: readonly PaymentProcessor[]) {}

  pick(route: { merchantId: number; mode: 'test' | 'live'; method: PaymentMethod; currency: string }): PaymentProcessor {
    const processor = this.processors.find((candidate) => candidate.supports(route));
    if (!processor) {
      if (route.mode === 'live') throw forbidden(LIVE_PAYMENTS_DISABLED);
      throw forbidden(`No payment processor takes ${route.method === 'C' ? 'card' : 'bank transfer'} payments in ${route.currency} for this merchant.`);
    }
    return processor;
  }

  /** The processor that handled an attempt, by the name recorded on it. */
  byName(name: string): PaymentProcessor | undefined {
    return this.processors.find((candidate) => candidate.name === name);
  }
}

/**
 * A processor call that takes too long ends as `unknown`, like one that throws: the attempt stays processing and
 * the processor's record decides later. Never a decline: the acquirer may have taken the money.
 */
export async function withDeadline<T>(call: () => Promise<T>, timeoutMs: number, unknown: (detail: string) => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(unknown(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([
      call().catch((error: unknown) => unknown(error instanceof Error ? `${error.name}: ${error.message}` : 'the call failed')),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
