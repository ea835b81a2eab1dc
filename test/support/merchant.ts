import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

/** The test merchant's own web origin. */
export const MERCHANT_SHOP = 'https://merchant.test';

/**
 * A fresh merchant with test-mode keys, so no test depends on another's state. Its shop is at `https://merchant.test`
 * (an allowed origin), where `orderPayload`'s return address points: a browser's order may return there.
 */
export async function createMerchant(app: FastifyInstance, name = `Test Store ${randomBytes(3).toString('hex')}`): Promise<IssuedKeys> {
  return app.merchants.create({ name, country: 'NG', supportEmail: 'support@store.test', allowedOrigins: [MERCHANT_SHOP] });
}
