import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

/** A fresh merchant with test-mode keys, so no test depends on another's state. */
export async function createMerchant(app: FastifyInstance, name = `Test Store ${randomBytes(3).toString('hex')}`): Promise<IssuedKeys> {
  return app.merchants.create({ name, country: 'NG', supportEmail: 'support@store.test' });
}
