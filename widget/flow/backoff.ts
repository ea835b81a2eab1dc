/**
 * Status polling waits longer after each answer that is not final, with "equal jitter" (half fixed, half random)
 * so that many customers returning at once do not poll in step.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1500, maxMs: 20_000, factor: 1.7 };

/** An open transfer account: money that arrives is noticed within five seconds, and two at first. */
export const TRANSFER_WATCH_BACKOFF: BackoffOptions = { baseMs: 2000, maxMs: 5000, factor: 1.3 };

export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * options.factor ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
