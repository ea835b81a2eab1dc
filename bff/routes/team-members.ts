import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import * as team from '../../shared/contract/team.ts';
import { invalid } from '../errors.ts';
import { auditTarget, memberOf } from '../plugins/auth.ts';
import { decodeCursor, encodeCursor } from '../presenters/operations.ts';
import { presentAuditEntry, presentMember } from '../presenters/team.ts';
import { requestOrigin } from '../security/session-cookie.ts';
import { ok, route } from './register.ts';

/** The team as its managers see it: members, invitations, roles, the two-factor rule, the audit log; key rotation. */
async function routes(app: FastifyInstance): Promise<void> {
  route(app, team.listMembers, async (_input, request) => ok((await app.team.members(memberOf(request).merchant.id)).map(presentMember)));

  route(app, team.inviteMember, async ({ body }, request) => {
    const { member, merchant } = memberOf(request);
    const invited = await app.team.invite(merchant.id, body.email, body.role, member.user, requestOrigin(request));
    // The service writes the invitation's own audit entry (the CLI's too); this one would repeat it.
    return ok({ member: presentMember(invited.member), acceptUrl: invited.link.url, expiresAt: invited.link.expiresAt.toISOString() });
  });

  route(app, team.changeRole, async ({ params, body }, request) => {
    const { member } = memberOf(request);
    const changed = await app.team.changeRole(member.user, params.memberId, body.role);
    auditTarget(request, `member:${changed.id} ${body.role}`);
    return ok(presentMember(changed));
  });

  route(app, team.removeMember, async ({ params }, request) => {
    const { member } = memberOf(request);
    const removed = await app.team.remove(member.user, params.memberId);
    auditTarget(request, `member:${removed.id} ${removed.email}`);
    return ok({});
  });

  route(app, team.setTwoFactorRequirement, async ({ body }, request) => {
    const { member } = memberOf(request);
    await app.team.setTwoFactorRequired(member.user, body.required);
    auditTarget(request, body.required ? 'required' : 'optional');
    return ok({ required: body.required });
  });

  route(app, team.listAudit, async ({ query }, request) => {
    const { merchant } = memberOf(request);
    if (query.from && query.to && query.from >= query.to) throw invalid('from must be before to.', undefined, 'invalid_date_range');
    const rows = await app.audit.page({ merchantId: merchant.id, from: query.from, to: query.to }, query.limit, decodeCursor(query.cursor));
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return ok({ items: items.map(presentAuditEntry), nextCursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null });
  });

  route(app, team.rotateKeys, async (_input, request) => {
    const caller = memberOf(request);
    const keys = await app.merchants.rotateKeys(caller.merchant.id, caller.mode);
    auditTarget(request, `${caller.mode} keys`);
    return ok({ subsidiaryId: keys!.subsidiaryId, publishableKey: keys!.publishableKey, secretKey: keys!.secretKey, encryptionKey: keys!.encryptionKey });
  });
}

export default fp(routes, { name: 'team-members' });
