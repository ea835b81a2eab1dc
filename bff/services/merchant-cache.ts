import type { Listener } from '../storage/storage.ts';

/** The channel the database announces merchant, API key and encryption key changes on (migration 010). */
export const MERCHANT_CHANGES_CHANNEL = 'checkout_merchants';

/**
 * What every request reads and almost nothing writes, kept in memory: the merchant behind an API key, and a
 * merchant's active encryption keys. Exact, not timed: the database announces every change of a merchant or its
 * keys when it commits (a trigger, whoever writes), and the entries of that merchant are dropped. While the
 * announcements cannot be heard (before listening starts, or while the PostgreSQL connection that listens is
 * lost) nothing is cached and every read goes to the database.
 *
 * A read that started before a change and ends after its announcement must not store what it read: each read
 * notes the epoch (bumped by every announcement) when it starts, and stores only if it is unchanged.
 */
export class MerchantCache {
  #live = false;
  #epoch = 0;
  readonly #entries = new Map<string, { merchantId: number; value: unknown }>();

  constructor(private readonly capacity = 10_000) {}

  /** How the storage's announcements reach the cache. */
  readonly listener: Listener = {
    notice: (payload) => this.#drop(Number(payload)),
    lost: () => this.#reset(false),
    listening: () => this.#reset(true),
  };

  /**
   * The value under `key`, loaded (and kept, while announcements are heard) when absent. `merchantOf` says which
   * merchant's changes make it stale; nothing is kept for an absent value, so unknown keys cannot fill the cache.
   */
  async read<V>(key: string, load: () => Promise<V | undefined>, merchantOf: (value: V) => number): Promise<V | undefined> {
    const held = this.#entries.get(key);
    if (held) return held.value as V;
    const epoch = this.#epoch;
    const value = await load();
    if (value !== undefined && this.#live && epoch === this.#epoch) {
      if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { merchantId: merchantOf(value), value });
    }
    return value;
  }

  /**
   * This process changed a merchant: its entries go at once, without waiting for the database's notice (which
   * other processes hear, and which arrives here too, shortly after).
   */
  changed(merchantId: number): void {
    this.#drop(merchantId);
  }

  #drop(merchantId: number): void {
    this.#epoch += 1;
    if (!Number.isSafeInteger(merchantId)) return this.#reset(this.#live);
    for (const [key, entry] of this.#entries) if (entry.merchantId === merchantId) this.#entries.delete(key);
  }

  #reset(live: boolean): void {
    this.#epoch += 1;
    this.#live = live;
    this.#entries.clear();
  }
}
