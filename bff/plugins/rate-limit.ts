import fp from 'fastify-plugin';
import { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { parseApiKey } from '../crypto/api-keys.ts';
import { rateLimited } from '../errors.ts';
import { BreakerCounters, MemoryCounters, RedisCounters, type Counters } from '../rate-limit-counters.ts';

/**
 * Abuse limits, checked before anything else reads the request, each a count per window:
 * - per client address, every request but the health probes;
 * - failed answers (401, 403, 404) per client address, far fewer: guessing keys or references stops early;
 * - per secret key (its digest, from every address), so one merchant's server cannot starve the others;
 * - per publishable key AND client address: a publishable key is public (every checkout page shows it), so a
 *   key-wide count would be a budget any stranger could empty, locking the merchant's checkout for every customer;
 * - per payment-link page and client address, the posts of its form (each makes an order), under a far higher
 *   ceiling per page from every address.
 * The counters of one request are checked together. Counts live in Redis when `REDIS_URL` is set, so every process
 * shares them, else in this process's memory; when Redis does not answer, a breaker keeps the counts in memory until
 * it does (`bff/rate-limit-counters.ts`). A request over a limit gets `RATE429` with `Retry-After`.
 */
const HEALTH_PROBES = new Set(['/health', '/ready']);
const LINK_PAGE = '/l/:reference';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts a request against the api-key limits when the key travels in its body (the form embed.js posts into
     * the checkout's frame) rather than in the `api-key` header, which is counted before anything reads the request.
     * Resolves with the seconds to wait when the key is over its limit, else undefined.
     */
    limitApiKey(request: FastifyRequest, apiKey: string): Promise<number | undefined>;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

type Limit = { key: string; max: number };

export default fp<{ limits: Config['rateLimits'] }>(
  async (app, { limits }) => {
    const counters = await openCounters(app, limits.redisUrl);
    const windowMs = limits.windowMs;

    const address = (request: FastifyRequest) => normalizeIP(request.ip);
    const failures = (request: FastifyRequest): Limit => ({ key: `failed:${address(request)}`, max: limits.failuresPerIp });
    /** A publishable key counts per client address; a secret key (or any other text) from every address. */
    const keyLimit = (request: FastifyRequest, apiKey: string): Limit => {
      const key = apiKey.trim();
      return parseApiKey(key)?.kind === 'publishable'
        ? { key: `pkey:${digest(key)}:${address(request)}`, max: limits.perPublishableKeyIp }
        : { key: `key:${digest(key)}`, max: limits.perKey };
    };

    /** Counts the request against every limit at once; throws RATE429 with the longest wait when any is exceeded. */
    async function check(counted: Limit[], peeked: Limit[] = []): Promise<void> {
      const answers = await Promise.all([
        ...counted.map(async (limit) => ({ limit, count: await counters.hit(limit.key, windowMs) })),
        ...peeked.map(async (limit) => ({ limit, count: await counters.peek(limit.key, windowMs) })),
      ]);
      const waits = answers.filter(({ limit, count }) => count.current > limit.max).map(({ count }) => Math.ceil(count.resetInMs / 1000));
      if (waits.length > 0) throw rateLimited(Math.max(1, ...waits));
    }

    app.decorate('limitApiKey', async (request: FastifyRequest, apiKey: string) => {
      if (request.headers['api-key'] !== undefined) return undefined;
      const limit = keyLimit(request, apiKey);
      const count = await counters.hit(limit.key, windowMs);
      return count.current > limit.max ? Math.max(1, Math.ceil(count.resetInMs / 1000)) : undefined;
    });

    app.addHook('onRequest', async (request) => {
      if (HEALTH_PROBES.has(request.url.split('?')[0]!)) return;
      const counted: Limit[] = [{ key: `ip:${address(request)}`, max: limits.perIp }];
      const apiKey = request.headers['api-key'];
      if (typeof apiKey === 'string' && apiKey.trim() !== '') counted.push(keyLimit(request, apiKey));
      const linkPost = request.method === 'POST' && request.routeOptions.url === LINK_PAGE;
      const link = linkPost ? digest((request.params as { reference: string }).reference) : undefined;
      if (link) counted.push({ key: `link-ip:${link}:${address(request)}`, max: limits.perLinkIp });
      await check(counted, [failures(request)]);
      // The link-wide ceiling counts only posts its address's own limits let through: an address refused at its
      // limit cannot go on spending the budget every customer of the link shares.
      if (link) await check([{ key: `link:${link}`, max: limits.perLink }]);
    });

    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401 || reply.statusCode === 403 || reply.statusCode === 404) await counters.hit(failures(request).key, windowMs);
    });
  },
  { name: 'rate-limit', dependencies: ['envelope'] },
);

/** Redis behind a breaker when a URL is given, else this process's memory. */
async function openCounters(app: FastifyInstance, redisUrl: string | undefined): Promise<Counters> {
  if (!redisUrl) return new MemoryCounters();
  // No offline queue: while the client reconnects a count fails at once (the breaker opens) instead of waiting, and a
  // count that timed out is not sent later, when Redis is back, to be counted twice.
  const redis = new Redis(redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, commandTimeout: 500, lazyConnect: true, enableOfflineQueue: false });
  redis.on('error', (error: Error) => app.log.debug({ err: error }, 'rate-limit store error'));
  await redis.connect().catch((error: unknown) => app.log.warn({ err: error }, 'rate-limit store unavailable'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return new BreakerCounters(new RedisCounters(redis), new MemoryCounters(), (open, error) => {
    if (open) app.log.warn({ err: error }, 'rate-limit store unavailable: counting in this process until it answers');
    else app.log.info('rate-limit store answers again: counts are shared again');
  });
}
