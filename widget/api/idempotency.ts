/**
 * One `Idempotency-Key` per action. A request sent again before an answer settled the first send (the network
 * failed, the answer was not the server's, the request was abandoned, or the server said to retry) carries the
 * same key, so the server answers with the first run's answer instead of running it twice: a customer pressing
 * Pay again after a lost answer is never charged twice. An answer settles the action; the next send is a new
 * action with a fresh key (a stored error is not replayed to a customer trying again).
 *
 * "Sent again" means the same API, key, path and plain payload. They are compared by an HMAC under a key made
 * for this page and never exported, so no card data is kept here. Kept per page, not per client: the checkout
 * makes a new client when it starts again ("Try again" after a failed create).
 */
export interface PendingAction {
  readonly key: string;
  /** An answer arrived that the server stored (or nothing was run): the next send is a new action. */
  settle(): void;
}

const pending = new Map<string, string>();
let hmacKey: Promise<CryptoKey> | undefined;

async function identify(parts: readonly string[]): Promise<string> {
  hmacKey ??= crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('HMAC', await hmacKey, new TextEncoder().encode(JSON.stringify(parts)));
  return btoa(String.fromCharCode(...new Uint8Array(signature)));
}

export async function beginAction(apiBase: string, apiKey: string, path: string, plain: unknown): Promise<PendingAction> {
  const id = await identify([apiBase, apiKey, path, JSON.stringify(plain)]);
  let key = pending.get(id);
  if (!key) {
    key = crypto.randomUUID();
    pending.set(id, key);
  }
  const held = key;
  return {
    key: held,
    settle: () => {
      if (pending.get(id) === held) pending.delete(id);
    },
  };
}
