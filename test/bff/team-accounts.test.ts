import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { invitationToken, signedInMember, STRONG_PASSWORD, TeamBrowser, totpCode } from '../support/team.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { ROLE_PERMISSIONS } from '../../bff/domain/roles.ts';
import { readFileSync } from 'node:fs';
import { SoftwarePasskey } from '../support/passkey.ts';

const MINUTE = 60_000;

describe.each(drivers)('team accounts on %s', (driver) => {
  const clock = new ManualClock();
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
  });

  it('accepts an invitation once, with a password that passes the rules, and opens a session', async () => {
    const email = 'ada.owner@acme.test';
    const token = await invitationToken(app, keys.subsidiaryId, email, 'owner');
    const browser = new TeamBrowser(app);

    const short = await browser.accept(token, 'short');
    expect(short.statusCode).toBe(400);
    for (const weak of ['ada.owner@acme.test!', 'password1234', 'aaaaaaaaaaaaaaa', 'AdaOwner-2026-x']) {
      const refused = await browser.accept(token, weak);
      expect(refused.statusCode, weak).toBe(400);
      expect(refused.json(), weak).toMatchObject({ statusCode: 'VAL400', reason: 'password_rejected' });
    }

    const accepted = await browser.accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({ status: 'signed_in', csrfToken: expect.any(String) });
    const setCookie = String(accepted.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);

    const me = await browser.call('GET', '/checkout/team/me');
    expect(me.json().data).toMatchObject({
      user: { email, role: 'owner' },
      merchant: { id: keys.subsidiaryId },
      mode: 'test',
      permissions: [...ROLE_PERMISSIONS.owner],
      twoFactor: { required: false, totp: false, passkeys: [], backupCodesLeft: 0 },
    });

    const again = await new TeamBrowser(app).accept(token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ statusCode: 'AUTH401', reason: 'token_invalid' });
  });

  it('refuses an invitation after it expired', async () => {
    const token = await invitationToken(app, keys.subsidiaryId, 'late@acme.test', 'viewer');
    clock.advance(7 * 24 * 60 * MINUTE + MINUTE);
    const late = await new TeamBrowser(app).accept(token);
    expect(late.json()).toMatchObject({ statusCode: 'AUTH401', reason: 'token_invalid' });
  });

  it('signs in with password then TOTP, and a backup code works once', async () => {
    const { browser, email } = await signedInMember(app, keys.subsidiaryId, 'admin');
    const { secret, backupCodes } = await browser.enrolTotp(clock);
    expect(backupCodes).toHaveLength(10);
    expect((await browser.call('POST', '/checkout/team/sign-out')).statusCode).toBe(200);

    clock.advance(MINUTE);
    const second = new TeamBrowser(app);
    const first = await second.signIn(email);
    expect(first.json().data).toMatchObject({ status: 'second_factor_required', secondFactors: ['totp', 'backup_code'] });
    // The half-signed-in session opens nothing but the second step.
    expect((await second.call('GET', '/checkout/team/me')).statusCode).toBe(401);

    const wrong = await second.call('POST', '/checkout/team/sign-in/second-factor', { method: 'totp', code: '000000' });
    expect(wrong.json()).toMatchObject({ statusCode: 'AUTH401', reason: 'second_factor_invalid' });
    const right = await second.call('POST', '/checkout/team/sign-in/second-factor', { method: 'totp', code: await totpCode(secret, clock) });
    expect(right.json().data).toMatchObject({ status: 'signed_in' });
    expect((await second.call('GET', '/checkout/team/me')).json().data).toMatchObject({ user: { email }, twoFactor: { totp: true, backupCodesLeft: 10 } });

    const withBackup = async () => {
      const browserWithCode = new TeamBrowser(app);
      await browserWithCode.signIn(email);
      return browserWithCode.call('POST', '/checkout/team/sign-in/second-factor', { method: 'backup_code', code: backupCodes[0]!.toLowerCase() });
    };
    expect((await withBackup()).json().data).toMatchObject({ status: 'signed_in' });
    expect((await withBackup()).json()).toMatchObject({ statusCode: 'AUTH401', reason: 'second_factor_invalid' });
  });

  it('makes every member enrol TOTP before a first session once the owner requires two factors', async () => {
    const other = await createMerchant(app);
    const { browser: owner } = await signedInMember(app, other.subsidiaryId, 'owner');
    const { secret } = await owner.enrolTotp(clock);
    clock.advance(6 * MINUTE);
    expect((await owner.call('PUT', '/checkout/team/settings/two-factor', { required: true })).json()).toMatchObject({ reason: 'step_up_required' });
    expect((await owner.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) })).statusCode).toBe(200);
    expect((await owner.call('PUT', '/checkout/team/settings/two-factor', { required: true })).json().data).toEqual({ required: true });

    const invited = await owner.call('POST', '/checkout/team/invitations', { email: 'dev@other.test', role: 'developer' });
    expect(invited.statusCode, invited.body).toBe(200);
    const { acceptUrl } = invited.json().data as { acceptUrl: string };
    expect(acceptUrl).toMatch(/^http:\/\/localhost:8080\/dashboard\/#\/accept\?token=[\w-]{43}$/);

    const developer = new TeamBrowser(app);
    const accepted = await developer.accept(new URL(acceptUrl.replace('#/', '')).searchParams.get('token')!);
    const state = accepted.json().data;
    expect(state).toMatchObject({ status: 'enrolment_required', totp: { secret: expect.any(String), uri: expect.stringMatching(/^otpauth:\/\/totp\//) } });
    expect((await developer.call('GET', '/checkout/team/me')).statusCode).toBe(401);
    const enrolled = await developer.call('POST', '/checkout/team/sign-in/totp', { code: await totpCode(state.totp.secret, clock) });
    expect(enrolled.json().data).toMatchObject({ status: 'signed_in', backupCodes: expect.arrayContaining([expect.stringMatching(/^\w{4}-\w{4}-\w{4}$/)]) });
    expect((await developer.call('GET', '/checkout/team/me')).json().data).toMatchObject({ user: { role: 'developer' }, twoFactor: { required: true, totp: true } });

    const members = (await owner.call('GET', '/checkout/team/members')).json().data as { email: string; role: string; twoFactor: { totp: boolean } }[];
    expect(members.map((member) => [member.role, member.twoFactor.totp])).toEqual([['owner', true], ['developer', true]]);
  });

  it('adds a passkey, which then signs in alone, serves as a second factor and proves a step-up, each challenge once', async () => {
    const { browser, email } = await signedInMember(app, keys.subsidiaryId, 'developer');
    const passkey = new SoftwarePasskey('http://localhost:8080');
    expect((await browser.call('POST', '/checkout/team/me/passkeys/options', { password: 'not-my-password-really' })).json()).toMatchObject({ reason: 'credentials_invalid' });
    const creation = (await browser.call('POST', '/checkout/team/me/passkeys/options', { password: STRONG_PASSWORD })).json().data.options;
    expect(creation).toMatchObject({ rp: { id: 'localhost' }, authenticatorSelection: { userVerification: 'required' } });
    const added = await browser.call('POST', '/checkout/team/me/passkeys', { response: passkey.register(creation), name: 'Laptop' });
    expect(added.json().data, added.body).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    await browser.call('POST', '/checkout/team/sign-out');

    const visitor = new TeamBrowser(app);
    const request = (await visitor.call('POST', '/checkout/team/sign-in/passkey/options')).json().data.options;
    const assertion = passkey.authenticate(request);
    const signedIn = await visitor.call('POST', '/checkout/team/sign-in/passkey', { response: assertion });
    expect(signedIn.json().data).toMatchObject({ status: 'signed_in' });
    const me = (await visitor.call('GET', '/checkout/team/me')).json().data;
    expect(me).toMatchObject({ user: { email }, twoFactor: { passkeys: [{ name: 'Laptop', lastUsedAt: expect.any(String) }] }, stepUpUntil: expect.any(String) });
    // The same assertion again: its challenge was spent.
    expect((await new TeamBrowser(app).call('POST', '/checkout/team/sign-in/passkey', { response: assertion })).json()).toMatchObject({ reason: 'passkey_invalid' });

    const withPassword = new TeamBrowser(app);
    expect((await withPassword.signIn(email)).json().data).toMatchObject({ status: 'second_factor_required', secondFactors: ['passkey'] });
    const second = passkey.authenticate((await withPassword.call('POST', '/checkout/team/sign-in/passkey/options')).json().data.options);
    expect((await withPassword.call('POST', '/checkout/team/sign-in/second-factor', { method: 'passkey', response: second })).json().data).toMatchObject({ status: 'signed_in' });

    clock.advance(6 * MINUTE);
    const options = (await withPassword.call('POST', '/checkout/team/step-up/passkey/options')).json().data.options;
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: passkey.id })]);
    const stepped = await withPassword.call('POST', '/checkout/team/step-up', { method: 'passkey', response: passkey.authenticate(options) });
    expect(stepped.statusCode, stepped.body).toBe(200);
  });

  it("lists the merchant's orders to a signed-in member, in the mode it chooses", async () => {
    const reference = await new CheckoutClient(app, keys).newOrder();
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    const list = await browser.call('GET', '/checkout/orders');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items.map((item: { reference: string }) => item.reference)).toContain(reference);
    expect(list.headers['cache-control']).toBe('no-store');
    const csv = await browser.call('GET', '/checkout/orders/export');
    expect(csv.body).toContain(reference);
    browser.mode = 'live';
    expect((await browser.call('GET', '/checkout/orders')).json().data.items).toEqual([]);
  });

  it('lists my open sessions and ends another one', async () => {
    const { browser, email } = await signedInMember(app, keys.subsidiaryId, 'support');
    const laptop = new TeamBrowser(app);
    await laptop.signIn(email);
    const sessions = (await browser.call('GET', '/checkout/team/sessions')).json().data as { id: number; current: boolean }[];
    expect(sessions).toHaveLength(2);
    const other = sessions.find((session) => !session.current)!;
    expect((await browser.call('DELETE', `/checkout/team/sessions/${other.id}`)).statusCode).toBe(200);
    expect((await laptop.call('GET', '/checkout/team/me')).json()).toMatchObject({ statusCode: 'AUTH401', reason: 'session_expired' });
    expect((await browser.call('DELETE', `/checkout/team/sessions/${other.id}`)).statusCode).toBe(404);
  });

  it('records sign-ins, failures and team changes in the audit log, paged newest first', async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'developer');
    await new TeamBrowser(app).signIn('ada.owner@acme.test', 'not-the-password-at-all');
    const first = (await browser.call('GET', '/checkout/team/audit?limit=3')).json().data;
    expect(first.items).toHaveLength(3);
    expect(first.items[0]).toMatchObject({ action: 'sign_in_failed', actor: { email: 'ada.owner@acme.test', role: 'owner' }, ip: '127.0.0.1' });
    const second = (await browser.call('GET', `/checkout/team/audit?limit=100&cursor=${first.nextCursor}`)).json().data;
    const actions = [...first.items, ...second.items].map((item: { action: string }) => item.action);
    expect(actions).toEqual(expect.arrayContaining(['invitation_created', 'invitation_accepted', 'sign_in', 'sign_out', 'totp_enabled', 'session_revoked', 'backup_code_used']));
    expect(new Set([...first.items, ...second.items].map((item: { id: number }) => item.id)).size).toBe(actions.length);
  });

  it('shows the same roles table in the README as in the code', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Roles'));
    for (const [role, permissions] of Object.entries(ROLE_PERMISSIONS)) {
      const row = section.split('\n').find((line) => line.startsWith(`| ${role} `));
      expect(row, role).toBeDefined();
      const cells = row!.split('|').slice(2, -1).map((cell) => cell.trim());
      const header = section.split('\n').find((line) => line.startsWith('| role '))!.split('|').slice(2, -1).map((cell) => cell.trim().replace(/`/g, ''));
      expect(header.filter((_, index) => cells[index] === 'yes').sort(), role).toEqual([...permissions].sort());
    }
  });

  it('never answers a password or a session id, and stores none in the clear', async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'viewer', 'clear.text@acme.test');
    const tables = ['team_users', 'team_sessions', 'team_tokens', 'team_backup_codes', 'team_audit'];
    const rows = await Promise.all(tables.map((table) => app.storage.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${table} t`)));
    const stored = rows.flat().map((row) => row.row).join('\n');
    expect(stored).not.toContain(STRONG_PASSWORD);
    expect(stored).not.toContain(browser.cookie!);
    expect(stored).toContain('$argon2id$');
  });
});
