import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Mode } from '../domain/merchant.ts';

/**
 * The checkout frame's URL names the merchant and the one page origin allowed to frame it, without any key in
 * the URL: a short signed token (HMAC-SHA256 under a key derived from the master key).
 */
export type FrameClaims = { merchantId: number; mode: Mode; origin: string; expiresAt: number };

export class FrameTokens {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout frame tokens', 32));
  }

  sign(claims: FrameClaims): string {
    const body = Buffer.from(JSON.stringify([claims.merchantId, claims.mode, claims.origin, claims.expiresAt])).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a genuine, unexpired token; undefined for anything else. */
  verify(token: string, now: Date): FrameClaims | undefined {
    const [body, mac] = token.split('.');
    if (!body || !mac || token.length > 2048) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [merchantId, mode, origin, expiresAt] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [number, Mode, string, number];
      if (expiresAt < now.getTime()) return undefined;
      return { merchantId, mode, origin, expiresAt };
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
