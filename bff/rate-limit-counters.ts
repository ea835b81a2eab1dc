import type { Redis } from 'ioredis';

/**
 * The counts behind the abuse limits: fixed windows, one counter per key. `hit` counts a request and answers the
 * count so far; `peek` answers it without counting. A count that exceeds its limit waits `resetInMs` for its window
 * to end.
 */
export type Count = { current: number; resetInMs: number };

export interface Counters {
  hit(key: string, windowMs: number): Promise<Count>;
  peek(key: string, windowMs: number): Promise<Count>;
}

/** Keys held at most (the oldest window is forgotten first): a flood of made-up keys cannot fill the memory. */
const MEMORY_KEYS = 100_000;

/** Counts in this process's memory. */
export class MemoryCounters implements Counters {
  readonly #windows = new Map<string, { current: number; endsAt: number }>();

  async hit(key: string, windowMs: number): Promise<Count> {
    const now = Date.now();
    const window = this.#windows.get(key);
    if (window && window.endsAt > now) {
      window.current += 1;
      return { current: window.current, resetInMs: window.endsAt - now };
    }
    this.#windows.delete(key);
    if (this.#windows.size >= MEMORY_KEYS) this.#windows.delete(this.#windows.keys().next().value!);
    this.#windows.set(key, { current: 1, endsAt: now + windowMs });
    return { current: 1, resetInMs: windowMs };
  }

  async peek(key: string): Promise<Count> {
    const now = Date.now();
    const window = this.#windows.get(key);
    return window && window.endsAt > now ? { current: window.current, resetInMs: window.endsAt - now } : { current: 0, resetInMs: 0 };
  }
}

const HIT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

const PEEK = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

type CountingRedis = Redis & {
  checkoutRateHit(key: string, windowMs: number): Promise<[number, number]>;
  checkoutRatePeek(key: string): Promise<[number, number]>;
};

/** Counts in Redis, shared by every process that uses the same server. */
export class RedisCounters implements Counters {
  readonly #redis: CountingRedis;

  constructor(
    redis: Redis,
    private readonly prefix = 'checkout-rate-',
  ) {
    redis.defineCommand('checkoutRateHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('checkoutRatePeek', { numberOfKeys: 1, lua: PEEK });
    this.#redis = redis as CountingRedis;
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    const [current, resetInMs] = await this.#redis.checkoutRateHit(this.prefix + key, windowMs);
    return { current, resetInMs };
  }

  async peek(key: string): Promise<Count> {
    const [current, resetInMs] = await this.#redis.checkoutRatePeek(this.prefix + key);
    return { current, resetInMs };
  }

  /** Whether the server answers now (within the connection's command timeout). */
  async answers(): Promise<boolean> {
    return this.#redis.ping().then(
      () => true,
      () => false,
    );
  }
}

/**
 * Redis behind a circuit breaker. The first command that fails (a timeout included) opens it: from then on every
 * count is kept in this process's memory, answered at once, and Redis is asked whether it answers again at most
 * once per `probeEveryMs`; the first answer closes the breaker and the shared counts are used again. An outage of
 * the store therefore costs one request one timeout, not every request one timeout per counter; the limits still
 * hold meanwhile, per process.
 */
export class BreakerCounters implements Counters {
  #open = false;
  #probing = false;
  #lastProbe = 0;

  constructor(
    private readonly shared: RedisCounters,
    private readonly fallback: MemoryCounters,
    private readonly onChange: (open: boolean, error?: unknown) => void,
    private readonly probeEveryMs = 1000,
  ) {}

  get open(): boolean {
    return this.#open;
  }

  hit(key: string, windowMs: number): Promise<Count> {
    return this.#count((counters) => counters.hit(key, windowMs));
  }

  peek(key: string, windowMs: number): Promise<Count> {
    return this.#count((counters) => counters.peek(key, windowMs));
  }

  async #count(run: (counters: Counters) => Promise<Count>): Promise<Count> {
    if (!this.#open) {
      try {
        return await run(this.shared);
      } catch (error) {
        this.#trip(error);
      }
    } else {
      this.#probe();
    }
    return run(this.fallback);
  }

  #trip(error: unknown): void {
    if (this.#open) return;
    this.#open = true;
    this.#lastProbe = Date.now();
    this.onChange(true, error);
  }

  #probe(): void {
    if (this.#probing || Date.now() - this.#lastProbe < this.probeEveryMs) return;
    this.#probing = true;
    this.#lastProbe = Date.now();
    void this.shared.answers().then((answers) => {
      this.#probing = false;
      if (answers && this.#open) {
        this.#open = false;
        this.onChange(false);
      }
    });
  }
}
