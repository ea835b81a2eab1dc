import type { Mode } from '../domain/merchant.ts';
import { can, ROLE_PERMISSIONS, type Role } from '../domain/roles.ts';
import { TEAM_LIMITS, type SignedInMember, type TeamUser } from '../domain/team.ts';
import { randomToken, tokenDigest } from '../crypto/team-secrets.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import * as users from '../repositories/team-users.ts';
import { findMerchant } from '../repositories/merchants.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { SecondFactors } from './second-factors.ts';
import type { AuditLog, RequestOrigin } from './team-audit.ts';
import type { TeamSessions } from './team-sessions.ts';

/** A one-time link just issued: the link (shown once) and when it stops working. */
export type IssuedLink = { url: string; expiresAt: Date };

/**
 * The merchant's team: invitations and password-reset links, members and roles, the two-factor requirement, and
 * a member's own second factors. Who may call what is the auth plugin's (permissions, step-up); the rules that
 * hold whoever calls are here: only an owner makes or unmakes an owner, and a merchant never loses its last owner.
 */
export class TeamService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
    private readonly sessions: TeamSessions,
    readonly factors: SecondFactors,
    private readonly audit: AuditLog,
  ) {}

  /** Invites `email` with `role` (the CLI's first owner, or a member with `team.manage`). */
  async invite(merchantId: number, email: string, role: Role, by: TeamUser | null, origin: RequestOrigin): Promise<{ member: TeamUser; link: IssuedLink }> {
    if (by && role === 'owner' && by.role !== 'owner') throw forbidden('Only an owner can invite an owner.', 'owner_only');
    const member = await users.insertUser(this.storage, merchantId, email, role, this.clock.now());
    if (!member) throw conflict('Someone already has an account with this e-mail address.', 'member_exists');
    const link = await this.issueLink(member, 'invitation');
    await this.audit.record('invitation_created', by ?? { merchantId, email: 'cli' }, origin, `member:${member.id} ${role}`);
    return { member, link };
  }

  /** A new invitation link for a member who has not accepted yet (the CLI, when the first one was lost). */
  async reinvite(member: TeamUser): Promise<IssuedLink> {
    return this.issueLink(member, 'invitation');
  }

  async resetLink(email: string, origin: RequestOrigin): Promise<{ member: TeamUser; link: IssuedLink } | undefined> {
    const found = await users.findUserByEmail(this.storage, email);
    if (!found) return undefined;
    const link = await this.issueLink(found.user, found.user.status === 'invited' ? 'invitation' : 'password_reset');
    await this.audit.record('password_reset_issued', { merchantId: found.user.merchantId, email: 'cli' }, origin, `member:${found.user.id}`);
    return { member: found.user, link };
  }

  members(merchantId: number): Promise<TeamUser[]> {
    return users.listUsers(this.storage, merchantId);
  }

  findUser(id: number): Promise<TeamUser | undefined> {
    return users.findUser(this.storage, id);
  }

  findByEmail(email: string): Promise<TeamUser | undefined> {
    return users.findUserByEmail(this.storage, email).then((found) => found?.user);
  }

  async changeRole(by: TeamUser, memberId: number, role: Role): Promise<TeamUser> {
    return this.storage.transaction(async (tx) => {
      await users.lockOwners(tx, by.merchantId);
      const member = await users.findUser(tx, memberId);
      if (!member || member.merchantId !== by.merchantId) throw notFound('No member of this team has this id.', 'member_not_found');
      if ((member.role === 'owner' || role === 'owner') && by.role !== 'owner') throw forbidden('Only an owner can grant or take the owner role.', 'owner_only');
      if (member.role === 'owner' && role !== 'owner' && (await users.countOwners(tx, by.merchantId)) <= 1) {
        throw conflict('This is the last owner: make another member owner first.', 'last_owner');
      }
      await users.updateRole(tx, member.id, role, this.clock.now());
      return { ...member, role };
    });
  }

  async remove(by: TeamUser, memberId: number): Promise<TeamUser> {
    return this.storage.transaction(async (tx) => {
      await users.lockOwners(tx, by.merchantId);
      const member = await users.findUser(tx, memberId);
      if (!member || member.merchantId !== by.merchantId) throw notFound('No member of this team has this id.', 'member_not_found');
      if (member.role === 'owner' && by.role !== 'owner') throw forbidden('Only an owner can remove an owner.', 'owner_only');
      if (member.role === 'owner' && (await users.countOwners(tx, by.merchantId)) <= 1) {
        throw conflict('This is the last owner: make another member owner first.', 'last_owner');
      }
      // Its sessions, factors and links go with it (ON DELETE CASCADE): its cookie stops working at once.
      await users.deleteUser(tx, member.id);
      return member;
    });
  }

  async setTwoFactorRequired(by: TeamUser, required: boolean): Promise<void> {
    if (required && !by.hasTotp && by.passkeys === 0) {
      throw forbidden('Add a second factor to your own account before requiring one of everyone.', 'second_factor_not_enrolled');
    }
    await users.setRequiresTwoFactor(this.storage, by.merchantId, required);
  }

  twoFactorRequired(merchantId: number): Promise<boolean> {
    return users.requiresTwoFactor(this.storage, merchantId);
  }

  /** Turning a factor off is refused while the merchant requires two and it is the member's last. */
  async refuseLosingLastFactor(member: TeamUser, losing: 'totp' | 'passkey'): Promise<void> {
    const remaining = (losing === 'totp' ? 0 : member.hasTotp ? 1 : 0) + (losing === 'passkey' ? member.passkeys - 1 : member.passkeys);
    if (remaining <= 0 && (await users.requiresTwoFactor(this.storage, member.merchantId))) {
      throw forbidden('The merchant requires two factors: add another one before removing this one.', 'two_factor_required');
    }
  }

  /** What `GET /checkout/team/me` shows. */
  async profile(member: SignedInMember) {
    const { user } = member;
    const [required, passkeys, backupCodesLeft] = await Promise.all([
      users.requiresTwoFactor(this.storage, user.merchantId),
      this.factors.passkeys(user),
      this.factors.backupCodesLeft(user),
    ]);
    return {
      user,
      merchant: member.merchant,
      mode: member.mode as Mode,
      permissions: [...ROLE_PERMISSIONS[user.role]],
      csrfToken: member.csrfToken,
      twoFactor: { required, totp: user.hasTotp, passkeys, backupCodesLeft },
      stepUpUntil: this.sessions.stepUpUntil(member.session),
    };
  }

  can(user: TeamUser, permission: Parameters<typeof can>[1]): boolean {
    return can(user.role, permission);
  }

  private async issueLink(member: TeamUser, purpose: users.TokenPurpose): Promise<IssuedLink> {
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (purpose === 'invitation' ? TEAM_LIMITS.invitationMs : TEAM_LIMITS.passwordResetMs));
    await users.insertToken(this.storage, tokenDigest(token), member.id, purpose, now, expiresAt);
    const page = purpose === 'invitation' ? 'accept' : 'reset-password';
    return { url: `${this.publicBaseUrl}/dashboard/#/${page}?token=${token}`, expiresAt };
  }
}

/** How an authenticator app names the account: the merchant's name beside the member's e-mail. */
export async function totpIssuer(storage: Storage, merchantId: number): Promise<string> {
  const merchant = await findMerchant(storage, merchantId);
  return `Checkout${merchant ? ` (${merchant.name.replace(/:/g, ' ').slice(0, 60)})` : ''}`;
}
