import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { bindKeys } from '../../shared/binding.ts';
import { UNREADABLE_DATA_MESSAGE } from '../../shared/encrypted.ts';
import { describeIssue } from '../../shared/validation.ts';
import { deriveRejectionSecret } from '../crypto/legacy-rsa.ts';
import { PayloadDecryptor } from '../crypto/payload-decryptor.ts';
import { PayloadKeys } from '../crypto/payload-keys.ts';
import { RsaPool, RsaPoolSaturatedError } from '../crypto/rsa-pool.ts';
import { invalid, rateLimited } from '../errors.ts';
import { findActiveEncryptionKeys } from '../repositories/merchants.ts';
import { findUnstorableText, RequestValidationError, unstorableTextError } from '../validation.ts';
import { callerOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payloadKeys: PayloadKeys;
    rsaPool: RsaPool;
  }
  interface FastifyRequest {
    /**
     * Decrypts `body.data` (route body schema `encryptedBodySchema`) with the caller's keys, binds the JSON's keys
     * case-insensitively and validates it. Unreadable data is always the same VAL400; an invalid field is the
     * VAL400 naming it, as for a plain body.
     */
    decryptPayload<T>(schema: z.ZodType<T>): Promise<T>;
  }
}

/** Each request's decrypted JSON, so a payload read twice (idempotency check, then handler) costs one decryption. */
const decryptedBodies = new WeakMap<FastifyRequest, Promise<Record<string, unknown> | undefined>>();

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJsonObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(utf8.decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export default fp<{ masterKey: Buffer; legacyRsa: { threads: number | undefined; queuePerThread: number } }>(
  async (app, { masterKey, legacyRsa }) => {
    const keys = new PayloadKeys(masterKey, async (merchantId, mode) => {
      const active = await app.merchantCache.read(`encryption-keys:${merchantId}:${mode}`, () => findActiveEncryptionKeys(app.storage, merchantId, mode), () => merchantId);
      return active ?? [];
    });
    const pool = new RsaPool({ queuePerThread: legacyRsa.queuePerThread, ...(legacyRsa.threads ? { threads: legacyRsa.threads } : {}) });
    const decryptor = new PayloadDecryptor(keys, pool, deriveRejectionSecret(masterKey));
    app.decorate('payloadKeys', keys);
    app.decorate('rsaPool', pool);
    app.addHook('onClose', async () => pool.close());

    async function decryptJson(request: FastifyRequest): Promise<Record<string, unknown> | undefined> {
      const data = (request.body as { data?: unknown } | null | undefined)?.data;
      let plaintext: Uint8Array | undefined;
      try {
        plaintext = typeof data === 'string' ? await decryptor.decrypt(callerOf(request), data) : undefined;
      } catch (error) {
        if (error instanceof RsaPoolSaturatedError) throw rateLimited(1);
        throw error;
      }
      return plaintext && parseJsonObject(plaintext);
    }

    app.decorateRequest('decryptPayload', async function decryptPayload<T>(this: FastifyRequest, schema: z.ZodType<T>): Promise<T> {
      // Decrypted once per request: the idempotency check reads the payload before the handler does.
      let decrypted = decryptedBodies.get(this);
      if (!decrypted) {
        decrypted = decryptJson(this);
        decryptedBodies.set(this, decrypted);
      }
      const json = await decrypted;
      if (!json) throw invalid(UNREADABLE_DATA_MESSAGE);
      const unstorable = findUnstorableText(json, false);
      if (unstorable) throw unstorableTextError(unstorable);
      const result = schema.safeParse(bindKeys(json, schema), { reportInput: true });
      if (!result.success) throw new RequestValidationError(describeIssue(result.error.issues[0]!));
      return result.data;
    });
  },
  { name: 'decrypt', dependencies: ['services', 'auth'] },
);
