import fp from 'fastify-plugin';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { rateLimited } from '../errors.ts';

/**
 * Abuse limits (@fastify/rate-limit), checked before anything else reads the request, each a count per window:
 * - per client address, every request but the health probes;
 * - failed answers (401, 403, 404) per client address, far fewer: guessing keys or references stops early;
 * - per api-key (its digest, whatever it turns out to be), so one merchant's traffic cannot starve the others;
 * - per payment-link page, the posts of its form (each makes an order), whoever sends them.
 * Counts live in Redis when `REDIS_URL` is set, so every process shares them, else in this process's memory. A
 * request over a limit gets `RATE429` with `Retry-After`. When Redis does not answer the request is let through
 * (logged): an outage of the counter store must not stop payments.
 */
const HEALTH_PROBES = new Set(['/health', '/ready']);
const LINK_PAGE = '/l/:reference';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts a request against the per-api-key limit when the key travels in its body (the form embed.js posts into
     * the checkout's frame) rather than in the `api-key` header, which is counted before anything reads the request.
     * Resolves with the seconds to wait when the key is over its limit, else undefined.
     */
    limitApiKey(request: FastifyRequest, apiKey: string): Promise<number | undefined>;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export default fp<{ limits: Config['rateLimits'] }>(
  async (app, { limits }) => {
    const redis = limits.redisUrl
      ? new Redis(limits.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, commandTimeout: 500, lazyConnect: true })
      : undefined;
    if (redis) {
      redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store unavailable'));
      await redis.connect().catch((error: unknown) => app.log.warn({ err: error }, 'rate-limit store unavailable'));
      app.addHook('onClose', async () => {
        redis.disconnect();
      });
    }
    await app.register(rateLimit, {
      global: false,
      timeWindow: limits.windowMs,
      ...(redis ? { redis } : {}),
      nameSpace: 'checkout-rate-',
      skipOnError: true,
    });

    const address = (request: FastifyRequest) => normalizeIP(request.ip);
    const perIp = app.createRateLimit({ max: limits.perIp, keyGenerator: (request) => `ip:${address(request)}` });
    const failures = app.createRateLimit({ max: limits.failuresPerIp, keyGenerator: (request) => `failed:${address(request)}` });
    const bodyKeys = new WeakMap<FastifyRequest, string>();
    const perKey = app.createRateLimit({
      max: limits.perKey,
      keyGenerator: (request) => `key:${digest(String(request.headers['api-key'] ?? bodyKeys.get(request)))}`,
    });
    const perLink = app.createRateLimit({
      max: limits.perLink,
      keyGenerator: (request) => `link:${digest((request.params as { reference: string }).reference)}`,
    });

    async function check(limiter: typeof perIp, request: FastifyRequest, increment = true): Promise<void> {
      const limit = await limiter(request, { increment });
      if (!limit.isAllowed && limit.isExceeded) throw rateLimited(Math.max(1, limit.ttlInSeconds));
    }

    app.decorate('limitApiKey', async (request: FastifyRequest, apiKey: string) => {
      if (request.headers['api-key'] !== undefined) return undefined;
      bodyKeys.set(request, apiKey);
      const limit = await perKey(request);
      return !limit.isAllowed && limit.isExceeded ? Math.max(1, limit.ttlInSeconds) : undefined;
    });

    app.addHook('onRequest', async (request) => {
      if (HEALTH_PROBES.has(request.url.split('?')[0]!)) return;
      await check(failures, request, false);
      await check(perIp, request);
      const apiKey = request.headers['api-key'];
      if (typeof apiKey === 'string' && apiKey !== '') await check(perKey, request);
      if (request.method === 'POST' && request.routeOptions.url === LINK_PAGE) await check(perLink, request);
    });

    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401 || reply.statusCode === 403 || reply.statusCode === 404) await failures(request);
    });
  },
  { name: 'rate-limit', dependencies: ['envelope'] },
);
