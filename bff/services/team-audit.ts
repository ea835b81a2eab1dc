import type { AuditAction } from '../../shared/contract/audit-actions.ts';
import type { Role } from '../domain/roles.ts';
import type { TeamUser } from '../domain/team.ts';
import * as audit from '../repositories/team-sessions.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';

/** Where a team action came from: the client's address and browser (never a secret). */
export type RequestOrigin = { ip: string | null; userAgent: string | null };

/** The team's audit log: who (and with which role), from where, did what to what, when. */
export class AuditLog {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async record(action: AuditAction, actor: TeamUser | { merchantId: number | null; email: string } | null, origin: RequestOrigin, target: string | null = null): Promise<void> {
    const member = actor && 'role' in actor ? actor : undefined;
    await audit.insertAudit(this.storage, {
      merchantId: actor?.merchantId ?? null,
      actorId: member?.id ?? null,
      actorEmail: actor?.email ?? null,
      actorRole: (member?.role as Role | undefined) ?? null,
      ip: origin.ip,
      action,
      target,
      at: this.clock.now(),
    });
  }

  page(filter: audit.AuditFilter, limit: number, after?: { createdAt: Date; id: number }) {
    return audit.pageAudit(this.storage, filter, limit, after);
  }
}
