import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as team from '../../shared/contract/team.ts';
import { forbidden, notFound, unauthenticated } from '../errors.ts';
import { memberOf } from '../plugins/auth.ts';
import { presentPasskey, presentSession, presentSignIn } from '../presenters/team.ts';
import { clearSessionCookie, requestOrigin, setSessionCookie } from '../security/session-cookie.ts';
import type { SignInOutcome } from '../services/sign-in.ts';
import { ok, route } from './register.ts';

/** Signing in and out, the member's sessions, and step-up (`shared/contract/team.ts`). */
async function routes(app: FastifyInstance): Promise<void> {
  const cookie = app.sessionCookieName;

  /** Every sign-in step opens a new session: the cookie gets its id, the answer its CSRF token. */
  const answer = (reply: FastifyReply, outcome: SignInOutcome) => {
    setSessionCookie(reply, cookie, outcome.issued.token);
    return ok(presentSignIn(outcome));
  };

  /** The sign-in in progress this request's cookie names, with its CSRF token checked. */
  const pendingSignIn = async (request: FastifyRequest) => {
    const resolved = await app.teamSessions.resolve(request.cookies[cookie]);
    if (!resolved) throw unauthenticated('This sign-in has expired; start again with your e-mail and password.', 'session_expired');
    const sent = request.headers[team.CSRF_HEADER];
    if (!app.teamSessions.csrfTokenMatches(resolved.digest, typeof sent === 'string' ? sent : undefined)) {
      throw unauthenticated(`This step needs the CSRF token of the previous answer in ${team.CSRF_HEADER}.`, 'csrf_token_invalid');
    }
    return resolved.session;
  };

  route(app, team.signIn, async ({ body }, request, reply) => answer(reply, await app.signIn.withPassword(body.email, body.password, requestOrigin(request))));

  route(app, team.signInSecondFactor, async ({ body }, request, reply) => {
    const pending = await pendingSignIn(request);
    return answer(reply, await app.signIn.withSecondFactor(pending, body, requestOrigin(request)));
  });

  route(app, team.signInEnrolTotp, async ({ body }, request, reply) => {
    const pending = await pendingSignIn(request);
    return answer(reply, await app.signIn.withEnrolment(pending, body.code, requestOrigin(request)));
  });

  route(app, team.signInPasskeyOptions, async () => ok({ options: await app.team.factors.authenticationOptions(null) }));

  route(app, team.signInPasskey, async ({ body }, request, reply) => answer(reply, await app.signIn.withPasskey(body.response, requestOrigin(request))));

  route(app, team.acceptInvitation, async ({ body }, request, reply) =>
    answer(reply, await app.signIn.acceptInvitation(body.token, body.password, requestOrigin(request))),
  );

  route(app, team.resetPassword, async ({ body }, request) => {
    await app.signIn.resetPassword(body.token, body.password, requestOrigin(request));
    return ok({});
  });

  route(app, team.signOut, async (_input, request, reply) => {
    const { member } = memberOf(request);
    await app.teamSessions.end(member.session);
    await app.audit.record('sign_out', member.user, requestOrigin(request));
    clearSessionCookie(reply, cookie);
    return ok({});
  });

  route(app, team.me, async (_input, request) => {
    const profile = await app.team.profile(memberOf(request).member);
    return ok({
      ...profile,
      user: { id: profile.user.id, email: profile.user.email, role: profile.user.role },
      merchant: { id: profile.merchant.id, name: profile.merchant.name },
      twoFactor: { ...profile.twoFactor, passkeys: profile.twoFactor.passkeys.map(presentPasskey) },
      stepUpUntil: profile.stepUpUntil?.toISOString() ?? null,
    });
  });

  route(app, team.listSessions, async (_input, request) => {
    const { member } = memberOf(request);
    return ok((await app.teamSessions.list(member.user.id)).map((session) => presentSession(session, member.session.id)));
  });

  route(app, team.revokeSession, async ({ params }, request, reply) => {
    const { member } = memberOf(request);
    if (!(await app.teamSessions.revoke(member.user.id, params.sessionId))) {
      throw notFound('You have no open session with this id.', 'session_not_found');
    }
    await app.audit.record('session_revoked', member.user, requestOrigin(request), `session:${params.sessionId}`);
    if (params.sessionId === member.session.id) clearSessionCookie(reply, cookie);
    return ok({});
  });

  route(app, team.stepUpPasskeyOptions, async (_input, request) => ok({ options: await app.team.factors.authenticationOptions(memberOf(request).member.user) }));

  route(app, team.stepUp, async ({ body }, request, reply) => {
    const { member } = memberOf(request);
    if (!member.user.hasTotp && member.user.passkeys === 0) {
      throw forbidden('You have no second factor yet: add an authenticator app or a passkey first.', 'second_factor_not_enrolled');
    }
    if (!(await app.signIn.provesAgain(member.user, body, requestOrigin(request)))) {
      throw forbidden('The code or passkey was not accepted (a code works once).', 'second_factor_invalid');
    }
    // A new session id at every step-up: an id seen before the second factor is worth nothing after it.
    const issued = await app.teamSessions.rotate(member.session, true);
    if (!issued) throw unauthenticated('Your session has ended. Sign in again.', 'session_expired');
    await app.audit.record('step_up', member.user, requestOrigin(request), body.method);
    setSessionCookie(reply, cookie, issued.token);
    return ok({ stepUpUntil: app.teamSessions.stepUpUntil(issued.session)!.toISOString(), csrfToken: issued.csrfToken });
  });
}

export default fp(routes, { name: 'team' });
