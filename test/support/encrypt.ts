import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompactEncrypt, importJWK } from 'jose';
import { z } from 'zod';
import { app as checkout, serverOptions } from '../../bff/app.ts';
import { fromGatewayKey } from '../../bff/crypto/gateway-key.ts';
import { encryptedBodySchema } from '../../shared/encrypted.ts';
import type { EncryptionJwk, JweKeyAlgorithm } from '../../shared/keys.ts';
import { testConfig, type Place } from './app.ts';

/**
 * Client-side payload encryption, built the way the client SDKs build it, plus an app with a test-only echo
 * route for exercising `request.decryptPayload` before the order routes exist.
 */
const toText = (plain: unknown): string => (typeof plain === 'string' ? plain : JSON.stringify(plain));

/** Legacy scheme as the gateway SDKs do it: read the 1016-character key's XML, PKCS#1 v1.5, standard base64. */
export function encryptLegacy(gatewayKey: string, plain: unknown | string): string {
  return publicEncrypt({ key: fromGatewayKey(gatewayKey), padding: constants.RSA_PKCS1_PADDING }, Buffer.from(toText(plain), 'utf8')).toString('base64');
}

/** The raw `00 02 PS 00 M` block a client would pad, with PS of `psByte` (the Dart client uses 0xFF). */
export function pkcs1Block(message: Buffer, options: { psByte?: number; blockLength?: number } = {}): Buffer {
  const blockLength = options.blockLength ?? 512;
  const padding = Buffer.alloc(blockLength - 3 - message.length);
  if (options.psByte === undefined) {
    for (let index = 0; index < padding.length; index += 1) padding[index] = 1 + (randomBytes(1)[0]! % 255);
  } else {
    padding.fill(options.psByte);
  }
  return Buffer.concat([Buffer.from([0x00, 0x02]), padding, Buffer.from([0x00]), message]);
}

/** Legacy scheme with a hand-built block whose padding string is all 0xFF bytes, encrypted with the raw RSA primitive. */
export function encryptLegacyWithFfPadding(gatewayKey: string, plain: unknown | string): string {
  const block = pkcs1Block(Buffer.from(toText(plain), 'utf8'), { psByte: 0xff });
  return publicEncrypt({ key: fromGatewayKey(gatewayKey), padding: constants.RSA_NO_PADDING }, block).toString('base64');
}

/** The JWKs the server publishes for this key's merchant and mode. */
export async function fetchEncryptionKeys(app: FastifyInstance, apiKey: string): Promise<EncryptionJwk[]> {
  const response = await app.inject({ method: 'GET', url: '/checkout/keys', headers: { 'api-key': apiKey } });
  if (response.statusCode !== 200) throw new Error(`GET /checkout/keys answered ${response.statusCode}`);
  return response.json().data.keys as EncryptionJwk[];
}

/** Modern scheme as the widget does it: fetch the JWK for `alg`, encrypt with A256GCM, name the key by `kid`. */
export async function encryptJwe(
  app: FastifyInstance,
  publishableKey: string,
  plain: unknown | string,
  alg: JweKeyAlgorithm = 'ECDH-ES+A256KW',
): Promise<string> {
  const jwk = (await fetchEncryptionKeys(app, publishableKey)).find((key) => key.alg === alg);
  if (!jwk) throw new Error(`no ${alg} key published`);
  return encryptJweFor(jwk, plain);
}

export async function encryptJweFor(jwk: EncryptionJwk, plain: unknown | string, header: Record<string, unknown> = {}): Promise<string> {
  const key = await importJWK(jwk, jwk.alg);
  return new CompactEncrypt(Buffer.from(toText(plain), 'utf8'))
    .setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid, ...header })
    .encrypt(key);
}

export type EchoAppOptions = {
  /** The schema the echo route decrypts with; any JSON object by default. */
  schema?: z.ZodType;
  /** Awaited by the echo handler before it decrypts, so a test can line requests up. */
  beforeDecrypt?: () => Promise<void>;
  overrides?: Record<string, string>;
};

/**
 * The app exactly as `buildApp` makes it, plus `POST /test/echo` (any key, encrypted body) answering with the
 * decrypted and validated payload.
 */
export async function startEchoApp(place: Place, options: EchoAppOptions = {}): Promise<FastifyInstance> {
  const config = testConfig(place, options.overrides);
  const fastify = Fastify(serverOptions(config));
  await fastify.register(fp(checkout, { name: 'checkout' }), { config });
  const schema = options.schema ?? z.record(z.string(), z.unknown());
  fastify.withTypeProvider<ZodTypeProvider>().post(
    '/test/echo',
    { config: { auth: 'any' }, schema: { body: encryptedBodySchema, hide: true } },
    async (request) => {
      await options.beforeDecrypt?.();
      return { status: 'success', statusCode: '00', message: 'Decrypted', data: await request.decryptPayload(schema) };
    },
  );
  await fastify.ready();
  return fastify;
}
