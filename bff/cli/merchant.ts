import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, readConfig } from '../config.ts';
import { loadMasterKey } from '../crypto/master-key.ts';
import { openStorage, storageOptions } from '../storage/open.ts';
import { StorageUnavailableError } from '../storage/storage.ts';
import { LEGACY_KEY_ALGORITHM } from '../crypto/legacy-rsa.ts';
import { MerchantService } from '../services/merchants.ts';
import { toGatewayKeyFromPem } from '../crypto/gateway-key.ts';
import * as merchants from '../repositories/merchants.ts';

/**
 * `npm run merchant -- <command>`: create, list, rotate-keys. Stdout carries exactly one JSON document, so
 * scripts can pipe it; everything else goes to stderr.
 */
const USAGE = `Usage:
  npm run merchant -- create --name "Acme Stores" --country NG --email support@acme.test [--origin https://acme.test]... [--mode test|live]
  npm run merchant -- list
  npm run merchant -- rotate-keys --id 1 [--mode test|live]
  npm run merchant -- origins --id 1 --origin https://shop.example [--origin ...]   (replaces the allowed origins; none clears them)`;

const createSchema = z.object({
  name: z.string({ message: '--name is required' }).trim().min(1, '--name is required').max(200, '--name must be at most 200 characters'),
  country: z
    .string({ message: '--country is required' })
    .regex(/^[A-Za-z]{2}$/, '--country must be a two-letter country code')
    .transform((code) => code.toUpperCase()),
  email: z.string({ message: '--email is required' }).pipe(z.email({ message: '--email must be an e-mail address' })),
  origin: z.array(z.url({ protocol: /^https?$/, message: '--origin must be an http(s) origin' })).default([]),
  mode: z.enum(['test', 'live'], { message: '--mode must be test or live' }).default('test'),
});

const originsSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  origin: z.array(z.url({ protocol: /^https?$/, message: '--origin must be an http(s) origin' })).default([]),
});

const rotateSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  mode: z.enum(['test', 'live'], { message: '--mode must be test or live' }).default('test'),
});

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function parse<T extends z.ZodType>(schema: T, values: unknown): z.infer<T> {
  const result = schema.safeParse(values);
  if (!result.success) throw new UsageError(result.error.issues[0]!.message);
  return result.data;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') fail(USAGE, command ? 0 : 2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      country: { type: 'string' },
      email: { type: 'string' },
      origin: { type: 'string', multiple: true },
      mode: { type: 'string' },
      id: { type: 'string' },
    },
    strict: true,
  });

  const config = readConfig(process.env);
  const storage = await openStorage(storageOptions(config));
  try {
    const service = new MerchantService(storage, loadMasterKey(config));
    let output: unknown;
    switch (command) {
      case 'create': {
        const input = parse(createSchema, values);
        output = await service.create({ name: input.name, country: input.country, supportEmail: input.email, allowedOrigins: input.origin }, input.mode);
        break;
      }
      case 'rotate-keys': {
        const input = parse(rotateSchema, values);
        output = await service.rotateKeys(input.id, input.mode);
        if (!output) throw new UsageError(`No merchant has id ${input.id}.`);
        break;
      }
      case 'origins': {
        const input = parse(originsSchema, values);
        const merchant = await service.setAllowedOrigins(input.id, input.origin);
        if (!merchant) throw new UsageError(`No merchant has id ${input.id}.`);
        output = { subsidiaryId: merchant.id, name: merchant.name, allowedOrigins: merchant.allowedOrigins };
        break;
      }
      case 'list': {
        const list = await service.list();
        output = await Promise.all(
          list.map(async (merchant) => {
            const gatewayKey = async (mode: 'test' | 'live') => {
              const keys = await merchants.findActiveEncryptionKeys(storage, merchant.id, mode);
              const legacy = keys.find((key) => key.algorithm === LEGACY_KEY_ALGORITHM);
              return legacy ? toGatewayKeyFromPem(legacy.publicKey) : null;
            };
            return {
              subsidiaryId: merchant.id,
              name: merchant.name,
              country: merchant.country,
              supportEmail: merchant.supportEmail,
              allowedOrigins: merchant.allowedOrigins,
              disabled: merchant.disabled,
              testPublishableKey: (await service.publishableKey(merchant.id, 'test')) ?? null,
              livePublishableKey: (await service.publishableKey(merchant.id, 'live')) ?? null,
              testEncryptionKey: await gatewayKey('test'),
              liveEncryptionKey: await gatewayKey('live'),
            };
          }),
        );
        break;
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
    }
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await storage.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) fail(error.message);
  if (error instanceof StorageUnavailableError) fail(error.message, 1);
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) fail(`${error.message}\n${USAGE}`);
  fail(`The command failed: ${error instanceof Error ? error.message : String(error)}`, 1);
});
