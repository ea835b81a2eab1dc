import { TEAM_LIMITS, type SessionStage, type TeamSession } from '../domain/team.ts';
import { randomToken, tokenDigest, type TeamKeys } from '../crypto/team-secrets.ts';
import * as sessions from '../repositories/team-sessions.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { RequestOrigin } from './team-audit.ts';

/** A session just opened or given a new id: the id (for the cookie, never stored) and its CSRF token. */
export type IssuedSession = { token: string; session: TeamSession; csrfToken: string };
/** A session found by its cookie. */
export type ResolvedSession = { session: TeamSession; digest: Buffer; csrfToken: string };

/** Only this often is a session's last use written, so a busy dashboard does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Server-side sessions: the cookie holds a random id, the table its digest. A session ends when unused for
 * `idleMs`, `absoluteMs` after sign-in, or when revoked (sign-out, the member's own revoke, a password reset, the
 * member's removal). Its id changes at every sign-in step and every step-up, so an id known before cannot be used after.
 */
export class TeamSessions {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly keys: TeamKeys,
  ) {}

  async open(userId: number, stage: SessionStage, origin: RequestOrigin, steppedUp: boolean): Promise<IssuedSession> {
    const now = this.clock.now();
    const token = randomToken();
    const digest = tokenDigest(token);
    const lifetime = stage === 'full' ? TEAM_LIMITS.absoluteMs : TEAM_LIMITS.pendingMs;
    const session = await sessions.insertSession(this.storage, {
      digest,
      userId,
      stage,
      createdAt: now,
      expiresAt: new Date(now.getTime() + lifetime),
      steppedUpAt: steppedUp ? now : null,
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, 300) ?? null,
    });
    return { token, session, csrfToken: this.keys.csrfToken(digest) };
  }

  async resolve(token: string | undefined): Promise<ResolvedSession | undefined> {
    if (!token || token.length > 100) return undefined;
    const now = this.clock.now();
    const digest = tokenDigest(token);
    const session = await sessions.findSession(this.storage, digest, now);
    if (!session) return undefined;
    if (now.getTime() - session.lastSeenAt.getTime() > TEAM_LIMITS.idleMs) {
      await sessions.revokeSession(this.storage, session.userId, session.id, now);
      return undefined;
    }
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await sessions.touchSession(this.storage, session.id, now);
    return { session, digest, csrfToken: this.keys.csrfToken(digest) };
  }

  /** A new id for the session (the old cookie stops working); `steppedUp` records a second factor proved now. */
  async rotate(session: TeamSession, steppedUp: boolean): Promise<IssuedSession | undefined> {
    const now = this.clock.now();
    const token = randomToken();
    const digest = tokenDigest(token);
    if (!(await sessions.rotateSession(this.storage, session.id, digest, now, steppedUp ? now : undefined))) return undefined;
    return { token, session: { ...session, lastSeenAt: now, steppedUpAt: steppedUp ? now : session.steppedUpAt }, csrfToken: this.keys.csrfToken(digest) };
  }

  csrfTokenMatches(digest: Buffer, sent: string | undefined): boolean {
    return this.keys.csrfTokenMatches(digest, sent);
  }

  /** True when a second factor was proved within the step-up window. */
  steppedUp(session: TeamSession): boolean {
    return session.steppedUpAt !== null && this.clock.now().getTime() - session.steppedUpAt.getTime() <= TEAM_LIMITS.stepUpMs;
  }

  stepUpUntil(session: TeamSession): Date | null {
    return this.steppedUp(session) ? new Date(session.steppedUpAt!.getTime() + TEAM_LIMITS.stepUpMs) : null;
  }

  end(session: TeamSession): Promise<boolean> {
    return sessions.revokeSession(this.storage, session.userId, session.id, this.clock.now());
  }

  revoke(userId: number, sessionId: number): Promise<boolean> {
    return sessions.revokeSession(this.storage, userId, sessionId, this.clock.now());
  }

  revokeAll(userId: number): Promise<void> {
    return sessions.revokeUserSessions(this.storage, userId, this.clock.now());
  }

  list(userId: number): Promise<TeamSession[]> {
    const now = this.clock.now();
    return sessions.listOpenSessions(this.storage, userId, now, new Date(now.getTime() - TEAM_LIMITS.idleMs));
  }
}
