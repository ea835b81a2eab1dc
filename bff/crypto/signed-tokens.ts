import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';

/**
 * Short-lived tokens the server hands out and later takes back (the checkout frame's session, and any other
 * capability that must name what it grants without a database row): compact JWS (JWT) with HS256, each audience
 * under its own key derived from the master key, with `iss`, `aud`, `iat` and `exp`. A token is accepted only as
 * it was signed: exactly three parts, the signature in its one canonical base64url spelling, HS256 only, the
 * audience asked for, and not expired at the caller's `now`.
 */
export const TOKEN_ISSUER = 'checkout';

/** The claims a caller puts in a token; the registered ones (`iss`, `aud`, `iat`, `exp`) are the signer's. */
export type TokenClaims = Record<string, string | number | boolean>;

const HS256_SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const MAX_TOKEN_LENGTH = 2048;

export class SignedTokens {
  readonly #masterKey: Buffer;
  readonly #keys = new Map<string, Uint8Array>();

  constructor(masterKey: Buffer) {
    this.#masterKey = masterKey;
  }

  /** A token for `audience` carrying `claims`, issued at `now` and valid until `expiresAt` (whole seconds). */
  async sign(audience: string, claims: TokenClaims, { now, expiresAt }: { now: Date; expiresAt: Date }): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.#key(audience));
  }

  /** The claims of a genuine token for `audience`, unexpired at `now`; undefined for anything else. */
  async verify(audience: string, token: string, now: Date): Promise<JWTPayload | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const parts = token.split('.');
    // The last base64url character of a 32-byte signature has spare bits: only the canonical spelling is the token.
    const signature = parts[2];
    if (parts.length !== 3 || !signature || !HS256_SIGNATURE.test(signature)) return undefined;
    if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.#key(audience), {
        algorithms: ['HS256'],
        typ: 'JWT',
        issuer: TOKEN_ISSUER,
        audience,
        currentDate: now,
        requiredClaims: ['iat', 'exp'],
      });
      return payload;
    } catch {
      return undefined;
    }
  }

  /** One key per audience, so a token made for one purpose can never be taken for another's, even by mistake. */
  #key(audience: string): Uint8Array {
    let key = this.#keys.get(audience);
    if (!key) {
      key = new Uint8Array(hkdfSync('sha256', this.#masterKey, Buffer.alloc(0), `checkout signed tokens: ${audience}`, 32));
      this.#keys.set(audience, key);
    }
    return key;
  }
}
