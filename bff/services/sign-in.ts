import { createHash } from 'node:crypto';
import { decoyPasswordHash, hashPassword, passwordMatches, tokenDigest } from '../crypto/team-secrets.ts';
import { passwordProblem } from '../domain/password-policy.ts';
import { TEAM_LIMITS, type TeamSession, type TeamUser } from '../domain/team.ts';
import { invalid, signInLocked, unauthenticated } from '../errors.ts';
import * as failures from '../repositories/team-sessions.ts';
import * as users from '../repositories/team-users.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { SecondFactors, WebAuthnResponse } from './second-factors.ts';
import type { AuditLog, RequestOrigin } from './team-audit.ts';
import type { IssuedSession, TeamSessions } from './team-sessions.ts';

/** Where a sign-in stands after a step, with the session (cookie) that step opened. */
export type SignInOutcome = {
  status: 'signed_in' | 'second_factor_required' | 'enrolment_required';
  secondFactors: ('totp' | 'backup_code' | 'passkey')[];
  totp: { secret: string; uri: string } | null;
  backupCodes: string[] | null;
  issued: IssuedSession;
};

export type SecondFactorProof = { method: 'totp'; code: string } | { method: 'backup_code'; code: string } | { method: 'passkey'; response: WebAuthnResponse };

const CREDENTIALS_INVALID = 'The e-mail address or the password is not right.';

/**
 * Signing in: the password step, then a second factor (or TOTP enrolment when the merchant requires two factors
 * and the member has none), or a passkey alone; accepting an invitation; resetting a password. Failed steps count
 * per account (by the e-mail's digest, whether an account has it or not) and per address; too many lock both out.
 */
export class SignIn {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly sessions: TeamSessions,
    private readonly factors: SecondFactors,
    private readonly audit: AuditLog,
    private readonly issuer: (merchantId: number) => Promise<string>,
  ) {}

  async withPassword(email: string, password: string, origin: RequestOrigin): Promise<SignInOutcome> {
    await this.refuseWhileLocked(email, origin);
    const found = await users.findUserByEmail(this.storage, email);
    // The same work for an unknown e-mail or a pending invitation as for a wrong password: one answer, similar time.
    const matches = await passwordMatches(found?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!found || found.passwordHash === null || !matches) {
      await this.failed(email, found?.user ?? null, origin, 'sign_in_failed');
      throw unauthenticated(CREDENTIALS_INVALID, 'credentials_invalid');
    }
    return this.afterPassword(found.user, origin);
  }

  /** The second step, on the session the password step opened. */
  async withSecondFactor(pending: TeamSession, proof: SecondFactorProof, origin: RequestOrigin): Promise<SignInOutcome> {
    const user = await this.pendingUser(pending, 'second_factor');
    await this.refuseWhileLocked(user.email, origin);
    if (!(await this.proves(user, proof, null))) {
      await this.failed(user.email, user, origin, 'sign_in_failed');
      throw unauthenticated('The code is not right, or was already used.', 'second_factor_invalid');
    }
    if (proof.method === 'backup_code') await this.audit.record('backup_code_used', user, origin);
    await this.sessions.end(pending);
    return this.signedIn(user, origin, true, null);
  }

  /** TOTP enrolment before the first session, when the merchant requires two factors. */
  async withEnrolment(pending: TeamSession, code: string, origin: RequestOrigin): Promise<SignInOutcome> {
    const user = await this.pendingUser(pending, 'enrolment');
    await this.refuseWhileLocked(user.email, origin);
    const codes = await this.factors.confirmTotp(user, code);
    if (codes === undefined || codes === 'nothing_pending') {
      await this.failed(user.email, user, origin, 'sign_in_failed');
      throw unauthenticated('The code is not right: check the authenticator app has the secret shown, and its clock.', 'second_factor_invalid');
    }
    await this.audit.record('totp_enabled', user, origin);
    await this.sessions.end(pending);
    return this.signedIn(user, origin, true, codes);
  }

  async withPasskey(response: WebAuthnResponse, origin: RequestOrigin): Promise<SignInOutcome> {
    const userId = await this.factors.authenticate(response, null);
    const user = userId === undefined ? undefined : await users.findUser(this.storage, userId);
    if (!user) {
      await this.audit.record('sign_in_failed', null, origin, 'passkey');
      throw unauthenticated('The passkey was not accepted. Try again, or sign in with your password.', 'passkey_invalid');
    }
    return this.signedIn(user, origin, true, null);
  }

  async acceptInvitation(token: string, password: string, origin: RequestOrigin): Promise<SignInOutcome> {
    const user = await this.spendToken(token, 'invitation', password);
    await this.audit.record('invitation_accepted', user, origin);
    return this.afterPassword(user, origin);
  }

  async resetPassword(token: string, password: string, origin: RequestOrigin): Promise<void> {
    const user = await this.spendToken(token, 'password_reset', password);
    await this.sessions.revokeAll(user.id);
    await failures.clearFailures(this.storage, accountKey(user.email));
    await this.audit.record('password_reset', user, origin);
  }

  /** The member's password, for enrolling a first second factor (no step-up is possible yet). */
  async passwordConfirms(user: TeamUser, password: string, origin: RequestOrigin): Promise<boolean> {
    await this.refuseWhileLocked(user.email, origin);
    const stored = await users.findPasswordHash(this.storage, user.id);
    if (stored !== null && (await passwordMatches(stored, password))) return true;
    await this.failed(user.email, user, origin, 'step_up_failed');
    return false;
  }

  /** A second factor proved again by a signed-in member (step-up); failures count towards the lockout. */
  async provesAgain(user: TeamUser, proof: SecondFactorProof, origin: RequestOrigin): Promise<boolean> {
    await this.refuseWhileLocked(user.email, origin);
    if (await this.proves(user, proof, user)) {
      if (proof.method === 'backup_code') await this.audit.record('backup_code_used', user, origin);
      return true;
    }
    await this.failed(user.email, user, origin, 'step_up_failed');
    return false;
  }

  /** `challengeFor`: the member a passkey challenge was made for (a step-up), or null (the sign-in's options). */
  private async proves(user: TeamUser, proof: SecondFactorProof, challengeFor: TeamUser | null): Promise<boolean> {
    switch (proof.method) {
      case 'totp':
        return this.factors.verifyTotp(user, proof.code);
      case 'backup_code':
        return this.factors.useBackupCode(user, proof.code);
      case 'passkey':
        return (await this.factors.authenticate(proof.response, challengeFor)) === user.id;
    }
  }

  private async afterPassword(user: TeamUser, origin: RequestOrigin): Promise<SignInOutcome> {
    if (user.hasTotp || user.passkeys > 0) {
      const issued = await this.sessions.open(user.id, 'second_factor', origin, false);
      const secondFactors: SignInOutcome['secondFactors'] = [];
      if (user.hasTotp) secondFactors.push('totp', 'backup_code');
      if (user.passkeys > 0) secondFactors.push('passkey');
      return { status: 'second_factor_required', secondFactors, totp: null, backupCodes: null, issued };
    }
    if (await users.requiresTwoFactor(this.storage, user.merchantId)) {
      const totp = await this.factors.startTotp(user, await this.issuer(user.merchantId));
      const issued = await this.sessions.open(user.id, 'enrolment', origin, false);
      return { status: 'enrolment_required', secondFactors: [], totp, backupCodes: null, issued };
    }
    return this.signedIn(user, origin, false, null);
  }

  private async signedIn(user: TeamUser, origin: RequestOrigin, secondFactor: boolean, backupCodes: string[] | null): Promise<SignInOutcome> {
    const issued = await this.sessions.open(user.id, 'full', origin, secondFactor);
    await users.recordSignIn(this.storage, user.id, this.clock.now());
    await failures.clearFailures(this.storage, accountKey(user.email));
    await this.audit.record('sign_in', user, origin, secondFactor ? 'two_factors' : 'password');
    return { status: 'signed_in', secondFactors: [], totp: null, backupCodes, issued };
  }

  private async pendingUser(session: TeamSession, stage: TeamSession['stage']): Promise<TeamUser> {
    const user = session.stage === stage ? await users.findUser(this.storage, session.userId) : undefined;
    if (!user) throw unauthenticated('This sign-in has expired; start again with your e-mail and password.', 'session_expired');
    return user;
  }

  private async spendToken(token: string, purpose: users.TokenPurpose, password: string): Promise<TeamUser> {
    const hashed = await hashPassword(password);
    return this.storage.transaction(async (tx) => {
      const userId = await users.useToken(tx, tokenDigest(token), purpose, this.clock.now());
      const user = userId === undefined ? undefined : await users.findUser(tx, userId);
      if (!user) throw unauthenticated('This link is not valid: it was already used, replaced by a newer one, or has expired. Ask for a new one.', 'token_invalid');
      const problem = passwordProblem(password, user.email);
      // Thrown inside the transaction: the token stays unused, so the member can try another password.
      if (problem) throw invalid(problem, undefined, 'password_rejected');
      await users.setPassword(tx, user.id, hashed, this.clock.now());
      return { ...user, status: 'active' as const };
    });
  }

  private async refuseWhileLocked(email: string, origin: RequestOrigin): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - TEAM_LIMITS.failureWindowMs);
    const checks: [string, number][] = [[accountKey(email), TEAM_LIMITS.failuresPerAccount]];
    if (origin.ip) checks.push([`ip:${origin.ip}`, TEAM_LIMITS.failuresPerAddress]);
    for (const [key, threshold] of checks) {
      const recent = await failures.recentFailures(this.storage, key, since);
      if (recent.length >= threshold) {
        const until = recent[0]!.getTime() + TEAM_LIMITS.lockoutMs;
        throw signInLocked(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
      }
    }
  }

  private async failed(email: string, user: TeamUser | null, origin: RequestOrigin, action: 'sign_in_failed' | 'step_up_failed'): Promise<void> {
    const key = accountKey(email);
    await failures.recordFailures(this.storage, origin.ip ? [key, `ip:${origin.ip}`] : [key], this.clock.now());
    await this.audit.record(action, user ?? { merchantId: null, email: email.toLowerCase().slice(0, 254) }, origin);
    const since = new Date(this.clock.now().getTime() - TEAM_LIMITS.failureWindowMs);
    if ((await failures.recentFailures(this.storage, key, since)).length === TEAM_LIMITS.failuresPerAccount) {
      await this.audit.record('sign_in_locked', user ?? { merchantId: null, email: email.toLowerCase().slice(0, 254) }, origin);
    }
  }
}

/** An account's failure counter: by the e-mail's digest, so an unknown e-mail is counted (and locked) the same. */
function accountKey(email: string): string {
  return `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;
}
