import type { KeyKind, Mode } from '../crypto/api-keys.ts';

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

/** Who is calling: resolved from the `api-key` header. */
export type Caller = { merchant: Merchant; mode: Mode; kind: KeyKind };

export type { KeyKind, Mode };
