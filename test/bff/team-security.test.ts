import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, drivers, logCapture, ManualClock, newPlace, testConfig, useTestApp } from '../support/app.ts';
import { buildApp } from '../../bff/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { invitationToken, SESSION_COOKIE, signedInMember, STRONG_PASSWORD, TeamBrowser, totpCode } from '../support/team.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const MINUTE = 60_000;

describe.each(drivers)('team sign-in security on %s', (driver) => {
  const clock = new ManualClock();
  const test = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = test.app;
    keys = await createMerchant(app);
  });

  it('answers an unknown e-mail like a wrong password, and locks both out after 10 failures in 15 minutes', async () => {
    const { email } = await signedInMember(app, keys.subsidiaryId, 'viewer', 'locked.out@acme.test');
    const attempt = (address: string, password = 'wrong-password-guess', ip = '203.0.113.7') =>
      app.inject({ method: 'POST', url: '/checkout/team/sign-in', payload: { email: address, password }, remoteAddress: ip });

    const wrong = await attempt(email);
    const unknown = await attempt('nobody.here@acme.test');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toMatchObject({ statusCode: 'AUTH401', reason: 'credentials_invalid' });
    expect(unknown.headers['set-cookie']).toBeUndefined();

    for (let failure = 2; failure <= 10; failure += 1) {
      await attempt(email);
      await attempt('nobody.here@acme.test');
    }
    const knownLocked = await attempt(email, 'violet-harbour-lantern-42', '198.51.100.1');
    const unknownLocked = await attempt('nobody.here@acme.test', 'anything-at-all', '198.51.100.1');
    expect(knownLocked.statusCode).toBe(429);
    expect(knownLocked.json()).toMatchObject({ statusCode: 'RATE429', reason: 'sign_in_locked' });
    expect(unknownLocked.json()).toEqual(knownLocked.json());
    expect(Number(knownLocked.headers['retry-after'])).toBeGreaterThan(14 * 60);

    clock.advance(15 * MINUTE + 1000);
    expect((await attempt(email, 'violet-harbour-lantern-42', '198.51.100.1')).statusCode).toBe(200);
  });

  it('locks out an address that fails on many accounts', async () => {
    for (let index = 0; index < 50; index += 1) {
      await app.inject({ method: 'POST', url: '/checkout/team/sign-in', payload: { email: `guess${index}@acme.test`, password: 'wrong-password-guess' }, remoteAddress: '192.0.2.99' });
    }
    const next = await app.inject({ method: 'POST', url: '/checkout/team/sign-in', payload: { email: 'fresh@acme.test', password: 'wrong-password-guess' }, remoteAddress: '192.0.2.99' });
    expect(next.json()).toMatchObject({ reason: 'sign_in_locked' });
    clock.advance(15 * MINUTE + 1000);
  });

  it('refuses a state-changing call without the CSRF token, or from another origin', async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'admin');
    const token = browser.csrfToken;
    browser.csrfToken = undefined;
    const missing = await browser.call('POST', '/checkout/team/sign-out');
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ statusCode: 'AUTH403', reason: 'csrf_token_invalid' });
    browser.csrfToken = 'x'.repeat(43);
    expect((await browser.call('POST', '/checkout/team/sign-out')).json()).toMatchObject({ reason: 'csrf_token_invalid' });
    browser.csrfToken = token;
    expect((await browser.call('POST', '/checkout/team/sign-out', undefined, { origin: 'https://evil.example' })).json()).toMatchObject({ reason: 'csrf_token_invalid' });
    // Reading needs no token; the session was never ended by the refused calls.
    expect((await browser.call('GET', '/checkout/team/me')).statusCode).toBe(200);
    expect((await browser.call('POST', '/checkout/team/sign-out', undefined, { origin: 'http://localhost:8080' })).statusCode).toBe(200);
  });

  it('never keeps a session id from before sign-in or before a step-up (no fixation)', async () => {
    const { browser, email } = await signedInMember(app, keys.subsidiaryId, 'owner');
    const { secret } = await browser.enrolTotp(clock);
    const planted = browser.cookie!;
    await browser.call('POST', '/checkout/team/sign-out');

    // A victim's browser carrying an id the attacker knows signs in: the server answers a new id at each step.
    const victim = new TeamBrowser(app);
    victim.cookie = planted;
    await victim.signIn(email);
    const pending = victim.cookie;
    expect(pending).not.toBe(planted);
    clock.advance(MINUTE);
    await victim.call('POST', '/checkout/team/sign-in/second-factor', { method: 'totp', code: await totpCode(secret, clock) });
    const signedIn = victim.cookie!;
    expect(signedIn).not.toBe(pending);
    for (const old of [planted, pending]) {
      const attacker = new TeamBrowser(app);
      attacker.cookie = old;
      expect((await attacker.call('GET', '/checkout/team/me')).statusCode).toBe(401);
    }

    clock.advance(MINUTE);
    const stepped = await victim.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) });
    expect(stepped.statusCode, stepped.body).toBe(200);
    expect(victim.cookie).not.toBe(signedIn);
    const before = new TeamBrowser(app);
    before.cookie = signedIn;
    expect((await before.call('GET', '/checkout/team/me')).statusCode).toBe(401);
    expect((await victim.call('GET', '/checkout/team/me')).statusCode).toBe(200);
  });

  it('refuses the session after sign-out, after 30 idle minutes, and after 12 hours', async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    const cookie = browser.cookie!;
    expect((await browser.call('POST', '/checkout/team/sign-out')).headers['set-cookie']).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    const replay = new TeamBrowser(app);
    replay.cookie = cookie;
    expect((await replay.call('GET', '/checkout/team/me')).json()).toMatchObject({ statusCode: 'AUTH401', reason: 'session_expired' });
    expect((await replay.call('GET', '/checkout/orders')).statusCode).toBe(401);

    const { browser: idle } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    clock.advance(31 * MINUTE);
    expect((await idle.call('GET', '/checkout/team/me')).statusCode).toBe(401);

    const { browser: busy } = await signedInMember(app, keys.subsidiaryId, 'viewer');
    for (let hour = 0; hour < 12 * 3; hour += 1) {
      clock.advance(20 * MINUTE);
      if ((await busy.call('GET', '/checkout/team/me')).statusCode !== 200) break;
    }
    expect((await busy.call('GET', '/checkout/team/me')).statusCode).toBe(401);
  });

  it("refuses a support member what its role does not allow, with 403", async () => {
    const { browser } = await signedInMember(app, keys.subsidiaryId, 'support');
    for (const [method, url, body] of [
      ['POST', '/checkout/keys/rotate', undefined],
      ['POST', '/checkout/team/invitations', { email: 'x@acme.test', role: 'viewer' }],
      ['GET', '/checkout/team/members', undefined],
      ['GET', '/checkout/team/audit', undefined],
      ['PUT', '/checkout/team/settings/two-factor', { required: true }],
    ] as const) {
      const refused = await browser.call(method, url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toMatchObject({ statusCode: 'AUTH403', reason: 'permission_denied' });
    }
    expect((await browser.call('GET', '/checkout/orders')).statusCode).toBe(200);
    // Routes that predate the contract's permissions still need an api-key.
    expect((await browser.call('GET', '/checkout/keys')).statusCode).toBe(401);
  });

  it("keeps another merchant's orders and members out of reach", async () => {
    const mine = await new CheckoutClient(app, keys).newOrder();
    const other = await createMerchant(app);
    const theirs = await new CheckoutClient(app, other).newOrder();
    const { browser: outsider } = await signedInMember(app, other.subsidiaryId, 'owner');
    const references = (await outsider.call('GET', '/checkout/orders')).json().data.items.map((item: { reference: string }) => item.reference);
    expect(references).toEqual([theirs]);
    expect((await outsider.call('GET', `/checkout/orders?q=${mine}`)).json().data.items).toEqual([]);

    const { browser: owner } = await signedInMember(app, keys.subsidiaryId, 'owner');
    const target = (await owner.call('GET', '/checkout/team/members')).json().data[0].id as number;
    expect((await outsider.call('GET', '/checkout/team/members')).json().data.map((member: { id: number }) => member.id)).not.toContain(target);
    // Even stepped up, an owner of another merchant finds no such member.
    const { secret } = await outsider.enrolTotp(clock);
    clock.advance(MINUTE);
    expect((await outsider.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) })).statusCode).toBe(200);
    for (const [method, body] of [['PATCH', { role: 'viewer' }], ['DELETE', undefined]] as const) {
      const answer = await outsider.call(method, `/checkout/team/members/${target}`, body);
      expect(answer.statusCode, method).toBe(404);
      expect(answer.json(), method).toMatchObject({ reason: 'member_not_found' });
    }
  });

  it('asks for a fresh second factor before team changes and key rotation, then allows them and audits them', async () => {
    const { browser, email } = await signedInMember(app, keys.subsidiaryId, 'admin');
    const { secret, backupCodes } = await browser.enrolTotp(clock);
    clock.advance(6 * MINUTE);
    const invite = () => browser.call('POST', '/checkout/team/invitations', { email: `new.${Date.now()}@acme.test`, role: 'support' });
    expect((await invite()).json()).toMatchObject({ statusCode: 'AUTH403', reason: 'step_up_required' });
    expect((await browser.call('POST', '/checkout/keys/rotate')).json()).toMatchObject({ reason: 'step_up_required' });

    expect((await browser.call('POST', '/checkout/team/step-up', { method: 'totp', code: '123456' })).json()).toMatchObject({ reason: 'second_factor_invalid' });
    const stepped = await browser.call('POST', '/checkout/team/step-up', { method: 'backup_code', code: backupCodes[3]! });
    expect(stepped.json().data).toMatchObject({ stepUpUntil: new Date(clock.now().getTime() + 5 * MINUTE).toISOString() });
    const invited = await invite();
    expect(invited.statusCode, invited.body).toBe(200);
    const member = invited.json().data.member as { id: number };
    const changed = await browser.call('PATCH', `/checkout/team/members/${member.id}`, { role: 'viewer' });
    expect(changed.json().data).toMatchObject({ id: member.id, role: 'viewer', status: 'invited' });
    // An admin makes no owner.
    expect((await browser.call('PATCH', `/checkout/team/members/${member.id}`, { role: 'owner' })).json()).toMatchObject({ reason: 'owner_only' });

    clock.advance(6 * MINUTE);
    expect((await browser.call('DELETE', `/checkout/team/members/${member.id}`)).json()).toMatchObject({ reason: 'step_up_required' });
    await browser.call('POST', '/checkout/team/step-up', { method: 'totp', code: await totpCode(secret, clock) });
    expect((await browser.call('DELETE', `/checkout/team/members/${member.id}`)).statusCode).toBe(200);

    const audit = (await browser.call('GET', '/checkout/team/audit?limit=20')).json().data.items as { action: string; actor: { email: string }; target: string | null }[];
    const mine = audit.filter((entry) => entry.actor.email === email).map((entry) => [entry.action, entry.target]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['member_removed', expect.stringMatching(/^member:\d+ /)],
        ['role_changed', `member:${member.id} viewer`],
        ['invitation_created', `member:${member.id} support`],
        ['step_up', 'backup_code'],
        ['step_up_failed', null],
      ]),
    );
  });

  it('writes no password, code, token, TOTP secret or session id to the log', async () => {
    const place = newPlace(driver);
    const { lines, stream } = logCapture();
    const logged = await buildApp(testConfig(place, { LOG_LEVEL: 'trace' }), { logStream: stream });
    const secrets: string[] = [STRONG_PASSWORD, 'a-wrong-password-typed'];
    try {
      const merchant = await createMerchant(logged);
      const token = await invitationToken(logged, merchant.subsidiaryId, 'logged@acme.test', 'owner');
      const browser = new TeamBrowser(logged);
      await browser.accept(token, 'short');
      await browser.accept(token);
      const { secret, backupCodes } = await browser.enrolTotp(logged.clock);
      await browser.signIn('logged@acme.test', 'a-wrong-password-typed');
      await browser.signIn('logged@acme.test');
      await browser.call('POST', '/checkout/team/sign-in/second-factor', { method: 'backup_code', code: backupCodes[0]! });
      secrets.push(token, secret, ...backupCodes, browser.cookie!, browser.csrfToken!);
    } finally {
      await logged.close();
      await cleanPlace(place);
    }
    const text = lines.join('');
    expect(text).toContain('/checkout/team/sign-in');
    for (const value of secrets) expect(text).not.toContain(value);
  });
});
