import type { Mode } from '../domain/merchant.ts';
import type { SignedTokens } from './signed-tokens.ts';

/**
 * The capabilities a merchant's server hands to the browser, as short-lived signed tokens (`SignedTokens`: HS256
 * JWTs, one key per audience, accepted only exactly as signed):
 *
 * - an order client token: the browser may see and pay this one order the merchant's server created;
 * - a customer session: the browser may see, use and add saved cards of this one customer the merchant vouches for.
 *
 * Both name the merchant and the mode; the auth plugin checks them against the api-key of each call.
 */
export const ORDER_TOKEN_TTL_SECONDS = 24 * 3600;
export const CUSTOMER_SESSION_TTL_SECONDS = 30 * 60;

const AUDIENCES = { order: 'checkout:order', customer: 'checkout:customer-session' } as const;

export type OrderGrant = { merchantId: number; mode: Mode; reference: string };
export type CustomerGrant = { merchantId: number; mode: Mode; shopperId: number; shopperReference: string };
type Signed = { token: string; expiresAt: Date };

export class ClientTokens {
  constructor(private readonly tokens: SignedTokens) {}

  signOrder(grant: OrderGrant, now: Date): Promise<Signed> {
    return this.sign(AUDIENCES.order, { m: grant.merchantId, md: grant.mode, ref: grant.reference }, now, ORDER_TOKEN_TTL_SECONDS);
  }

  signCustomer(grant: CustomerGrant, now: Date): Promise<Signed> {
    const claims = { m: grant.merchantId, md: grant.mode, sid: grant.shopperId, ref: grant.shopperReference };
    return this.sign(AUDIENCES.customer, claims, now, CUSTOMER_SESSION_TTL_SECONDS);
  }

  async verifyOrder(token: string, now: Date): Promise<OrderGrant | undefined> {
    const claims = await this.tokens.verify(AUDIENCES.order, token, now);
    if (!claims || typeof claims.m !== 'number' || !isMode(claims.md) || typeof claims.ref !== 'string') return undefined;
    return { merchantId: claims.m, mode: claims.md, reference: claims.ref };
  }

  async verifyCustomer(token: string, now: Date): Promise<CustomerGrant | undefined> {
    const claims = await this.tokens.verify(AUDIENCES.customer, token, now);
    if (!claims || typeof claims.m !== 'number' || !isMode(claims.md) || typeof claims.sid !== 'number' || typeof claims.ref !== 'string') return undefined;
    return { merchantId: claims.m, mode: claims.md, shopperId: claims.sid, shopperReference: claims.ref };
  }

  private async sign(audience: string, claims: Record<string, string | number>, now: Date, ttlSeconds: number): Promise<Signed> {
    const expiresAt = new Date((Math.floor(now.getTime() / 1000) + ttlSeconds) * 1000);
    return { token: await this.tokens.sign(audience, claims, { now, expiresAt }), expiresAt };
  }
}

const isMode = (value: unknown): value is Mode => value === 'test' || value === 'live';
