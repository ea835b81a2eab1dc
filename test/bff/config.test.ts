import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readConfig } from '../../bff/config.ts';

describe('configuration', () => {
  it('uses the documented defaults on an empty environment', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      publicBaseUrl: 'http://localhost:8080',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      masterKey: undefined,
      logLevel: 'info',
      transferExpiryMinutes: 30,
      environment: 'development',
    });
  });

  it('derives the public base URL from PORT unless PUBLIC_BASE_URL is given, without a trailing slash', () => {
    expect(readConfig({ PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000');
    expect(readConfig({ PUBLIC_BASE_URL: 'https://pay.example.com/' }).publicBaseUrl).toBe('https://pay.example.com');
  });

  it('treats empty variables as unset', () => {
    expect(readConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT .*"eighty"/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^Invalid configuration: PUBLIC_BASE_URL /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL /],
    [{ CHECKOUT_MASTER_KEY: 'c2hvcnQ=' }, /^Invalid configuration: CHECKOUT_MASTER_KEY must be 32 bytes in base64/],
    [{ CHECKOUT_MASTER_KEY: '#'.repeat(43) + '=' }, /^Invalid configuration: CHECKOUT_MASTER_KEY must be 32 bytes in base64/],
    [{ CHECKOUT_MASTER_KEY: 'a b'.repeat(20) }, /^Invalid configuration: CHECKOUT_MASTER_KEY must be 32 bytes in base64/],
    [{ PUBLIC_BASE_URL: 'https://pay.example.test/?a=1' }, /^Invalid configuration: PUBLIC_BASE_URL must not carry a query/],
    [{ PUBLIC_BASE_URL: 'https://pay.example.test/#top' }, /^Invalid configuration: PUBLIC_BASE_URL must not carry a query/],
    [{ PUBLIC_BASE_URL: 'https://user:pw@pay.example.test' }, /^Invalid configuration: PUBLIC_BASE_URL must not carry a query/],
    [{ LEGACY_RSA_THREADS: '0' }, /^Invalid configuration: LEGACY_RSA_THREADS /],
    [{ NODE_ENV: 'production' }, /^Invalid configuration: CHECKOUT_MASTER_KEY is required when NODE_ENV=production\.$/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
    try {
      readConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('names a bad secret without echoing its value', () => {
    const secret = 'not-a-key-but-secret-anyway-' + 'x'.repeat(16);
    expect(() => readConfig({ CHECKOUT_MASTER_KEY: secret })).toThrow(/CHECKOUT_MASTER_KEY/);
    expect(() => readConfig({ CHECKOUT_MASTER_KEY: secret })).not.toThrow(new RegExp(secret));
    expect(() => readConfig({ DATABASE_URL: 'mysql://app:hunter2@db' })).not.toThrow(/hunter2/);
  });

  it('keeps a path prefix in the public base URL, for a service behind a proxy', () => {
    expect(readConfig({ PUBLIC_BASE_URL: 'https://shop.example.test/pay/' }).publicBaseUrl).toBe('https://shop.example.test/pay');
  });

  it('accepts a production configuration with a master key', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(readConfig({ NODE_ENV: 'production', CHECKOUT_MASTER_KEY: key }).masterKey).toEqual(Buffer.alloc(32, 7));
  });

  it('runs one server process on PGlite whatever WORKERS asks, and WORKERS or one per core on PostgreSQL', () => {
    const postgres = 'postgres://postgres@127.0.0.1:5432/test';
    expect(readConfig({ WORKERS: '4' }).workers).toEqual({ count: 1, requested: 4 });
    expect(readConfig({ DATABASE_URL: postgres }).workers).toEqual({ count: availableParallelism(), requested: undefined });
    expect(readConfig({ DATABASE_URL: postgres, WORKERS: '3' }).workers).toEqual({ count: 3, requested: 3 });
  });

  it('leaves the number of legacy RSA threads to the server unless LEGACY_RSA_THREADS sets it', () => {
    expect(readConfig({}).legacyRsa).toEqual({ threads: undefined, queuePerThread: 16 });
    expect(readConfig({ LEGACY_RSA_THREADS: '3', LEGACY_RSA_QUEUE_PER_THREAD: '4' }).legacyRsa).toEqual({ threads: 3, queuePerThread: 4 });
  });

  it('sends webhooks to public addresses only unless WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1, in every mode', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    for (const NODE_ENV of ['development', 'test', 'production']) {
      expect(readConfig({ NODE_ENV, CHECKOUT_MASTER_KEY: key }).webhookDestinations, NODE_ENV).toEqual({ allowPrivate: false });
      expect(readConfig({ NODE_ENV, CHECKOUT_MASTER_KEY: key, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '0' }).webhookDestinations).toEqual({ allowPrivate: false });
      expect(readConfig({ NODE_ENV, CHECKOUT_MASTER_KEY: key, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1' }).webhookDestinations).toEqual({ allowPrivate: true });
    }
    expect(() => readConfig({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'yes' })).toThrow('Invalid configuration: WEBHOOK_ALLOW_PRIVATE_DESTINATIONS must be 0 or 1 (got "yes").');
  });

});
