import type { BankTransferDetails, CreateOrderData } from '../api/wire.ts';

/**
 * What lets the checkout pick up after a reload or a 3-D Secure round trip: the order reference, the order as
 * created (for the summary), the chosen method and the transfer account. Never card data. Stored in
 * sessionStorage, so it lives as long as the tab, one record per order reference (checkouts framed from one origin
 * share a tab's storage: an inline checkout and a modal one on the same page keep apart), and read back through
 * the same schemas as network answers.
 */
const SESSION_PREFIX = 'ck-checkout:session:';

export interface CheckoutSession {
  reference: string;
  order?: CreateOrderData;
  option?: string;
  transfer?: BankTransferDetails;
  /** The customer said the transfer is sent: keep polling after a reload. */
  waiting?: boolean;
  /** The bank's authentication page of a card payment in progress: offered again after a reload. */
  authUrl?: string;
}

/** Reads the record back through the wire schemas; its reader (`session-schema.ts`) is fetched only when there is one. */
export async function loadSession(reference: string, storage: Storage | undefined = safeStorage()): Promise<CheckoutSession | undefined> {
  try {
    const raw = storage?.getItem(SESSION_PREFIX + reference);
    if (!raw) return undefined;
    const { readSession } = await import('./session-schema.ts');
    const session = readSession(JSON.parse(raw));
    return session?.reference === reference ? session : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: CheckoutSession, storage: Storage | undefined = safeStorage()): void {
  try {
    storage?.setItem(SESSION_PREFIX + session.reference, JSON.stringify(session));
  } catch {
    // Private browsing or a full quota: the checkout still works, it just cannot resume after a reload.
  }
}

/** sessionStorage throws in some sandboxed frames; treat that as "no storage". */
function safeStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}
