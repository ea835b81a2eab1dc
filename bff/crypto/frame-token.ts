import type { Mode } from '../domain/merchant.ts';
import type { SignedTokens } from './signed-tokens.ts';

/**
 * The checkout frame's URL names the merchant and the one page origin allowed to frame it, without any key in
 * the URL: a signed token (`SignedTokens`, audience `checkout-frame`).
 */
export type FrameClaims = { merchantId: number; mode: Mode; origin: string; expiresAt: number };

const AUDIENCE = 'checkout-frame';

export class FrameTokens {
  constructor(private readonly tokens: SignedTokens) {}

  /** A token for `claims`; `expiresAt` (milliseconds) is kept to the second, as a JWT's `exp` is. */
  sign(claims: FrameClaims, now: Date): Promise<string> {
    return this.tokens.sign(
      AUDIENCE,
      { mid: claims.merchantId, mode: claims.mode, origin: claims.origin },
      { now, expiresAt: new Date(claims.expiresAt) },
    );
  }

  /** The claims of a genuine, unexpired token; undefined for anything else. */
  async verify(token: string, now: Date): Promise<FrameClaims | undefined> {
    const payload = await this.tokens.verify(AUDIENCE, token, now);
    if (!payload) return undefined;
    const { mid, mode, origin, exp } = payload;
    if (typeof mid !== 'number' || (mode !== 'test' && mode !== 'live') || typeof origin !== 'string' || typeof exp !== 'number') return undefined;
    return { merchantId: mid, mode, origin, expiresAt: exp * 1000 };
  }
}
