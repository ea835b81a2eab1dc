import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as team from '../../shared/contract/team.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { auditTarget, memberOf, requireStepUp } from '../plugins/auth.ts';
import { presentPasskey } from '../presenters/team.ts';
import { requestOrigin } from '../security/session-cookie.ts';
import { totpIssuer } from '../services/team.ts';
import { ok, route } from './register.ts';

/** A member's own second factors: TOTP, backup codes, passkeys (`shared/contract/team.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  /**
   * Adding a second factor needs a step-up when the member has one, else its password again: a session left open
   * on someone's desk must not be enough to bind a stranger's authenticator.
   */
  const reauthenticate = async (request: FastifyRequest, password: string | undefined) => {
    const { member } = memberOf(request);
    if (member.user.hasTotp || member.user.passkeys > 0) {
      requireStepUp(request);
      return member;
    }
    if (password === undefined) throw invalid('password is required: confirm your password to add your first second factor.', undefined, 'invalid_field');
    if (!(await app.signIn.passwordConfirms(member.user, password, requestOrigin(request)))) {
      throw forbidden('The password is not right.', 'credentials_invalid');
    }
    return member;
  };

  route(app, team.startTotp, async ({ body }, request) => {
    const member = await reauthenticate(request, body.password);
    return ok(await app.team.factors.startTotp(member.user, await totpIssuer(app.storage, member.user.merchantId)));
  });

  route(app, team.confirmTotp, async ({ body }, request) => {
    const { member } = memberOf(request);
    const codes = await app.team.factors.confirmTotp(member.user, body.code);
    if (codes === 'nothing_pending') throw conflict('Start the enrolment first (POST /checkout/team/me/totp).', 'totp_not_pending');
    if (codes === undefined) throw invalid('code is not right: check the app has the new secret, and its clock.', undefined, 'invalid_field');
    await app.audit.record('totp_enabled', member.user, requestOrigin(request));
    return ok({ backupCodes: codes });
  });

  route(app, team.disableTotp, async (_input, request) => {
    const { member } = memberOf(request);
    await app.team.refuseLosingLastFactor(member.user, 'totp');
    await app.team.factors.disableTotp(member.user);
    return ok({});
  });

  route(app, team.regenerateBackupCodes, async (_input, request) => {
    const { member } = memberOf(request);
    if (!member.user.hasTotp) throw conflict('Backup codes go with an authenticator app: enrol TOTP first.', 'totp_not_pending');
    return ok({ backupCodes: await app.team.factors.replaceBackupCodes(member.user) });
  });

  route(app, team.passkeyRegistrationOptions, async ({ body }, request) => {
    const member = await reauthenticate(request, body.password);
    return ok({ options: await app.team.factors.registrationOptions(member.user) });
  });

  route(app, team.registerPasskey, async ({ body }, request) => {
    const { member } = memberOf(request);
    const passkey = await app.team.factors.register(member.user, body.response, body.name);
    if (!passkey) throw invalid('The passkey was not accepted: start again from the options (they work once, for 5 minutes).', undefined, 'invalid_body');
    await app.audit.record('passkey_added', member.user, requestOrigin(request), `passkey:${passkey.id}`);
    return ok(presentPasskey(passkey));
  });

  route(app, team.removePasskey, async ({ params }, request) => {
    const { member } = memberOf(request);
    await app.team.refuseLosingLastFactor(member.user, 'passkey');
    if (!(await app.team.factors.removePasskey(member.user, params.passkeyId))) throw notFound('You have no passkey with this id.', 'passkey_not_found');
    auditTarget(request, `passkey:${params.passkeyId}`);
    return ok({});
  });
}

export default fp(routes, { name: 'team-account' });
