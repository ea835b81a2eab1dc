import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, readConfig, type Config } from '../config.ts';
import { loadMasterKey } from '../crypto/master-key.ts';
import { openStorage, storageOptions } from '../storage/open.ts';
import { StorageUnavailableError } from '../storage/storage.ts';
import { LEGACY_KEY_ALGORITHM } from '../crypto/legacy-rsa.ts';
import { MerchantService } from '../services/merchants.ts';
import { MerchantCache } from '../services/merchant-cache.ts';
import { toGatewayKeyFromPem } from '../crypto/gateway-key.ts';
import * as merchants from '../repositories/merchants.ts';
import { isAppError } from '../errors.ts';
import { endpointUrlProblem } from '../domain/webhooks.ts';
import { presentDelivery, presentEndpoint } from '../presenters/webhooks.ts';
import { systemClock } from '../services/clock.ts';
import { WebhookService, type WebhookScope } from '../services/webhooks.ts';
import { createWebhookEndpointRequestSchema, webhookDeliveryIdSchema, webhookEndpointIdSchema } from '../../shared/webhooks.ts';
import type { Storage } from '../storage/storage.ts';
import { teamServices } from '../services/team-services.ts';
import { ROLES } from '../../shared/contract/permissions.ts';

/**
 * `npm run merchant -- <command>`: create, list, rotate-keys, origins, logo, webhook <action>. Stdout carries exactly one JSON document, so
 * scripts can pipe it; everything else goes to stderr.
 */
const USAGE = `Usage:
  npm run merchant -- create --name "Acme Stores" --country NG --email support@acme.test [--origin https://acme.test]... [--mode test|live]
  npm run merchant -- list
  npm run merchant -- rotate-keys --id 1 [--mode test|live]
  npm run merchant -- origins --id 1 --origin https://shop.example [--origin ...]   (replaces the allowed origins; none clears them)
  npm run merchant -- logo --id 1 --url https://shop.example/logo.png   (the checkout's header and hosted pages; no --url clears it)
  npm run merchant -- webhook add --id 1 --url https://shop.example/hooks [--mode test|live]   (prints the signing secret, once)
  npm run merchant -- webhook list --id 1 [--mode test|live]
  npm run merchant -- webhook rotate --id 1 --endpoint we_... [--mode test|live]               (prints the new secret, once)
  npm run merchant -- webhook disable --id 1 --endpoint we_... [--mode test|live]
  npm run merchant -- webhook deliveries --id 1 --endpoint we_... [--limit 20] [--mode test|live]
  npm run merchant -- webhook resend --id 1 --delivery wd_... [--mode test|live]
  npm run merchant -- user invite --id 1 --email owner@acme.test --role owner   (prints a one-time link, valid 7 days)
  npm run merchant -- user reset-password --email owner@acme.test               (prints a one-time link, valid 1 hour)`;

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

const logoSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  url: z
    .url({ protocol: /^https$/, message: '--url must be an https address' })
    .max(2048, '--url must be at most 2048 characters')
    .optional(),
});

const rotateSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  mode: z.enum(['test', 'live'], { message: '--mode must be test or live' }).default('test'),
});

const webhookScopeSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  mode: z.enum(['test', 'live'], { message: '--mode must be test or live' }).default('test'),
});
const webhookUrlSchema = z.object({ url: z.string({ message: '--url is required' }).pipe(createWebhookEndpointRequestSchema.shape.url) });
const endpointOption = z.object({ endpoint: z.string({ message: '--endpoint is required' }).pipe(webhookEndpointIdSchema) });
const deliveryOption = z.object({ delivery: z.string({ message: '--delivery is required' }).pipe(webhookDeliveryIdSchema) });
const limitOption = z.object({
  limit: z.coerce.number({ message: '--limit must be a whole number from 1 to 100' }).int('--limit must be a whole number from 1 to 100').min(1, '--limit must be a whole number from 1 to 100').max(100, '--limit must be a whole number from 1 to 100').default(20),
});

const inviteSchema = z.object({
  id: z.coerce.number({ message: '--id must be a merchant id' }).int().positive('--id must be a merchant id'),
  email: z.string({ message: '--email is required' }).trim().pipe(z.email({ message: '--email must be an e-mail address' })),
  role: z.enum(ROLES, { message: `--role must be one of ${ROLES.join(', ')}` }),
});
const resetSchema = z.object({ email: z.string({ message: '--email is required' }).trim().pipe(z.email({ message: '--email must be an e-mail address' })) });

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function parse<T extends z.ZodType>(schema: T, values: unknown): z.infer<T> {
  const result = schema.safeParse(values);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    // Issues of the shared API schemas say what is wrong but not with which option.
    throw new UsageError(issue.message.startsWith('--') ? issue.message : `--${String(issue.path[0])} ${issue.message}`);
  }
  return result.data;
}

/** `webhook <action>`: the same operations as the secret-key webhook API, for the merchant `--id` in `--mode`. */
async function webhookCommand(storage: Storage, masterKey: Buffer, config: Config, action: string | undefined, values: Record<string, unknown>): Promise<unknown> {
  const input = parse(webhookScopeSchema, values);
  if (!(await merchants.findMerchant(storage, input.id))) throw new UsageError(`No merchant has id ${input.id}.`);
  const scope: WebhookScope = { merchantId: input.id, mode: input.mode };
  const service = new WebhookService(storage, systemClock, masterKey, { timeoutMs: config.webhookTimeoutMs, destinations: config.webhookDestinations });
  try {
    switch (action) {
      case 'add': {
        const { url } = parse(webhookUrlSchema, values);
        const problem = endpointUrlProblem(url, scope.mode, config.webhookDestinations);
        if (problem) throw new UsageError(`--url ${problem}`);
        const { endpoint, secret } = await service.create(scope, url);
        return { ...presentEndpoint(endpoint), secret };
      }
      case 'list':
        return (await service.list(scope)).map(presentEndpoint);
      case 'rotate': {
        const { endpoint, secret } = await service.rotateSecret(scope, parse(endpointOption, values).endpoint);
        return { ...presentEndpoint(endpoint), secret };
      }
      case 'disable':
        return presentEndpoint(await service.disable(scope, parse(endpointOption, values).endpoint));
      case 'deliveries':
        return (await service.deliveries(scope, parse(endpointOption, values).endpoint, parse(limitOption, values).limit)).map(presentDelivery);
      case 'resend':
        return presentDelivery(await service.resend(scope, parse(deliveryOption, values).delivery));
      default:
        throw new UsageError(`Unknown webhook command "${action ?? ''}": use add, list, rotate, disable, deliveries or resend.`);
    }
  } catch (error) {
    // The service's refusals (unknown endpoint, disabled endpoint, too many endpoints) are the operator's to fix.
    if (isAppError(error)) throw new UsageError(error.message);
    throw error;
  }
}

/** `user <action>`: the first owner's invitation, and password-reset links (printed: this build sends no e-mail). */
async function userCommand(storage: Storage, masterKey: Buffer, publicBaseUrl: string, action: string | undefined, values: Record<string, unknown>): Promise<unknown> {
  const { team } = teamServices(storage, systemClock, masterKey, publicBaseUrl);
  const origin = { ip: null, userAgent: 'npm run merchant' };
  try {
    switch (action) {
      case 'invite': {
        const input = parse(inviteSchema, values);
        if (!(await merchants.findMerchant(storage, input.id))) throw new UsageError(`No merchant has id ${input.id}.`);
        const existing = await team.findByEmail(input.email);
        if (existing && (existing.merchantId !== input.id || existing.status === 'active' || existing.role !== input.role)) {
          throw new UsageError(`${input.email} already has an account${existing.status === 'active' ? '' : ' (invited)'}; use user reset-password for a new link.`);
        }
        const { member, link } = existing ? { member: existing, link: await team.reinvite(existing) } : await team.invite(input.id, input.email, input.role, null, origin);
        return { memberId: member.id, subsidiaryId: member.merchantId, email: member.email, role: member.role, acceptUrl: link.url, expiresAt: link.expiresAt.toISOString() };
      }
      case 'reset-password': {
        const input = parse(resetSchema, values);
        const issued = await team.resetLink(input.email, origin);
        if (!issued) throw new UsageError(`No team member has the e-mail ${input.email}.`);
        const field = issued.member.status === 'invited' ? 'acceptUrl' : 'resetUrl';
        return { memberId: issued.member.id, email: issued.member.email, [field]: issued.link.url, expiresAt: issued.link.expiresAt.toISOString() };
      }
      default:
        throw new UsageError(`Unknown user command "${action ?? ''}": use invite or reset-password.`);
    }
  } catch (error) {
    if (isAppError(error)) throw new UsageError(error.message);
    throw error;
  }
}

async function main(): Promise<void> {
  const [command, ...afterCommand] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') fail(USAGE, command ? 0 : 2);
  const grouped = command === 'webhook' || command === 'user';
  const action = grouped ? afterCommand[0] : undefined;
  const rest = grouped ? afterCommand.slice(1) : afterCommand;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      country: { type: 'string' },
      email: { type: 'string' },
      origin: { type: 'string', multiple: true },
      mode: { type: 'string' },
      id: { type: 'string' },
      url: { type: 'string' },
      endpoint: { type: 'string' },
      delivery: { type: 'string' },
      limit: { type: 'string' },
      role: { type: 'string' },
    },
    strict: true,
  });

  const config = readConfig(process.env);
  const storage = await openStorage(storageOptions(config));
  try {
    const masterKey = loadMasterKey(config);
    const service = new MerchantService(storage, masterKey, new MerchantCache());
    let output: unknown;
    switch (command) {
      case 'webhook':
        output = await webhookCommand(storage, masterKey, config, action, values);
        break;
      case 'user':
        output = await userCommand(storage, masterKey, config.publicBaseUrl, action, values);
        break;
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
      case 'logo': {
        const input = parse(logoSchema, values);
        const merchant = await service.setLogo(input.id, input.url ?? null);
        if (!merchant) throw new UsageError(`No merchant has id ${input.id}.`);
        output = { subsidiaryId: merchant.id, name: merchant.name, logoUrl: merchant.logoUrl };
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
              logoUrl: merchant.logoUrl,
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
