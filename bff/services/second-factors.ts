import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { seal, unseal } from '../crypto/sealed.ts';
import { newBackupCode, type TeamKeys } from '../crypto/team-secrets.ts';
import { newTotpSecret, totpUri, verifyTotp } from '../crypto/totp.ts';
import { TEAM_LIMITS, type TeamUser } from '../domain/team.ts';
import * as challenges from '../repositories/team-sessions.ts';
import * as users from '../repositories/team-users.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';

/** What the browser's WebAuthn calls answer (validated in shape by the contract, in substance here). */
export type WebAuthnResponse = { id: string; rawId: string; type: 'public-key'; response: Record<string, unknown>; clientExtensionResults: Record<string, unknown>; authenticatorAttachment?: string | undefined };

/**
 * EdDSA, ES256, RS256: what platform authenticators and security keys use. Named, rather than the library's default
 * list, whose post-quantum entries make it probe Node's experimental WebCrypto (a warning on stderr).
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** The relying party: the dashboard's origin and its host (PUBLIC_BASE_URL). */
export type RelyingParty = { id: string; origin: string; name: string };

/**
 * The second factors of team members: TOTP (secret sealed under the master key, each code once), backup codes
 * (keyed digests, each once) and passkeys (WebAuthn with user verification; challenges stored and spent once).
 */
export class SecondFactors {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly masterKey: Buffer,
    private readonly keys: TeamKeys,
    readonly relyingParty: RelyingParty,
  ) {}

  /** A new secret, kept pending (sealed) until a code confirms it. */
  async startTotp(user: TeamUser, issuer: string, on: Queryable = this.storage): Promise<{ secret: string; uri: string }> {
    const secret = newTotpSecret();
    await users.setPendingTotp(on, user.id, seal(this.masterKey, Buffer.from(secret)), this.clock.now());
    return { secret, uri: totpUri(secret, issuer, user.email) };
  }

  /** Confirms the pending secret with a code; answers the new backup codes, or undefined for a wrong code. */
  async confirmTotp(user: TeamUser, code: string): Promise<string[] | undefined | 'nothing_pending'> {
    const { pending } = await users.findTotp(this.storage, user.id);
    if (!pending) return 'nothing_pending';
    const step = await verifyTotp(unseal(this.masterKey, pending).toString(), code, this.clock.now(), null);
    if (step === undefined) return undefined;
    return this.storage.transaction(async (tx) => {
      if (!(await users.activateTotp(tx, user.id, pending, step, this.clock.now()))) return 'nothing_pending' as const;
      return this.replaceBackupCodes(user, tx);
    });
  }

  async verifyTotp(user: TeamUser, code: string): Promise<boolean> {
    const { sealed, lastStep } = await users.findTotp(this.storage, user.id);
    if (!sealed) return false;
    const step = await verifyTotp(unseal(this.masterKey, sealed).toString(), code, this.clock.now(), lastStep);
    return step !== undefined && (await users.acceptTotpStep(this.storage, user.id, step));
  }

  useBackupCode(user: TeamUser, code: string): Promise<boolean> {
    return users.useBackupCode(this.storage, user.id, this.keys.backupCodeDigest(user.id, code), this.clock.now());
  }

  async replaceBackupCodes(user: TeamUser, on: Queryable = this.storage): Promise<string[]> {
    const codes = Array.from({ length: TEAM_LIMITS.backupCodes }, newBackupCode);
    await users.replaceBackupCodes(on, user.id, codes.map((code) => this.keys.backupCodeDigest(user.id, code)));
    return codes;
  }

  async disableTotp(user: TeamUser): Promise<void> {
    await users.clearTotp(this.storage, user.id, this.clock.now());
  }

  backupCodesLeft(user: TeamUser): Promise<number> {
    return users.countBackupCodesLeft(this.storage, user.id);
  }

  passkeys(user: TeamUser) {
    return users.listPasskeys(this.storage, user.id);
  }

  removePasskey(user: TeamUser, id: number): Promise<boolean> {
    return users.deletePasskey(this.storage, user.id, id);
  }

  async registrationOptions(user: TeamUser): Promise<Record<string, unknown>> {
    const existing = await users.listPasskeys(this.storage, user.id);
    const options = await generateRegistrationOptions({
      rpName: this.relyingParty.name,
      rpID: this.relyingParty.id,
      userName: user.email,
      userID: new TextEncoder().encode(`team-user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
    await challenges.insertChallenge(this.storage, options.challenge, 'registration', user.id, this.expiry());
    return options as unknown as Record<string, unknown>;
  }

  async register(user: TeamUser, response: WebAuthnResponse, name: string) {
    const challenge = challengeOf(response);
    if (!challenge || !(await challenges.useChallenge(this.storage, challenge, 'registration', user.id, this.clock.now()))) return undefined;
    const verified = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    }).catch(() => undefined);
    if (!verified?.verified) return undefined;
    const { credential } = verified.registrationInfo;
    if (await users.findPasskeyByCredential(this.storage, credential.id)) return undefined;
    return users.insertPasskey(
      this.storage,
      { userId: user.id, credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? [], name },
      this.clock.now(),
    );
  }

  /** Options for signing in (any discoverable passkey) or for a member's step-up (its own passkeys). */
  async authenticationOptions(user: TeamUser | null): Promise<Record<string, unknown>> {
    const allow = user ? (await users.listPasskeys(this.storage, user.id)).map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })) : undefined;
    const options = await generateAuthenticationOptions({ rpID: this.relyingParty.id, userVerification: 'required', ...(allow ? { allowCredentials: allow } : {}) });
    await challenges.insertChallenge(this.storage, options.challenge, 'authentication', user?.id ?? null, this.expiry());
    return options as unknown as Record<string, unknown>;
  }

  /**
   * The member a passkey assertion proves, or undefined. `user` is the member expected (a step-up); its challenge
   * must have been made for it. For a sign-in any member's passkey answers, with a challenge made for nobody.
   */
  async authenticate(response: WebAuthnResponse, user: TeamUser | null): Promise<number | undefined> {
    const challenge = challengeOf(response);
    if (!challenge || !(await challenges.useChallenge(this.storage, challenge, 'authentication', user?.id ?? null, this.clock.now()))) return undefined;
    const passkey = await users.findPasskeyByCredential(this.storage, response.id);
    if (!passkey || (user && passkey.userId !== user.id)) return undefined;
    const verified = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      credential: { id: passkey.credentialId, publicKey: passkey.publicKey as Uint8Array<ArrayBuffer>, counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) return undefined;
    await users.recordPasskeyUse(this.storage, passkey.id, verified.authenticationInfo.newCounter, this.clock.now());
    return passkey.userId;
  }

  private expiry(): Date {
    return new Date(this.clock.now().getTime() + TEAM_LIMITS.challengeMs);
  }
}

/** The challenge a WebAuthn answer signed (in its client data), to find the stored one. */
function challengeOf(response: WebAuthnResponse): string | undefined {
  const clientData = response.response.clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 200 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}
