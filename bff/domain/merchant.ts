import type { KeyKind, Mode } from '../crypto/api-keys.ts';
import type { SignedInMember } from './team.ts';

/** The merchant ("subsidiary" on the wire) as the services see it. */
export type Merchant = {
  id: number;
  name: string;
  country: string;
  supportEmail: string;
  logoUrl: string | null;
  customization: Record<string, unknown>[] | null;
  allowedOrigins: string[];
  feeRules: unknown;
  legacyEncryption: boolean;
  disabled: boolean;
  createdAt: Date;
};

/** A customer the merchant's server vouched for: its id here and the merchant's own id for it. */
export type Shopper = { id: number; reference: string };

/**
 * Who is calling: resolved from the `api-key` header, with what the merchant's server granted this browser (a
 * publishable-key caller): the order of a client token, and the customer of a customer session. `frameOrigin` is
 * the page origin of the checkout frame session the call came with (`checkout-session`), checked by the auth plugin.
 */
export type KeyCaller = { merchant: Merchant; mode: Mode; kind: KeyKind; orderGrant?: string; shopper?: Shopper; frameOrigin?: string; member?: undefined };

/**
 * A signed-in team member (the dashboard): its merchant, the mode it chose, and the member; it reaches only the
 * contract's endpoints that accept a session, each within its role's permissions (`domain/roles.ts`).
 */
export type MemberCaller = { merchant: Merchant; mode: Mode; kind: 'member'; member: SignedInMember; orderGrant?: undefined; shopper?: undefined; frameOrigin?: undefined };

export type Caller = KeyCaller | MemberCaller;

export type { KeyKind, Mode };
