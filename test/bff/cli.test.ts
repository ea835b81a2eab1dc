import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, newPlace, startApp, testConfig, type Place } from '../support/app.ts';

const run = promisify(execFile);

/** The merchant CLI, run the way the README says: `npm run merchant -- ...`. */
describe('npm run merchant', () => {
  let place: Place;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    place = newPlace('pglite');
    const config = testConfig(place);
    env = { ...process.env, CHECKOUT_DATA_DIR: place.dataDir, CHECKOUT_MASTER_KEY: config.masterKey!.toString('base64'), NODE_ENV: 'test' };
    delete env.DATABASE_URL;
  });
  afterAll(async () => cleanPlace(place));

  const merchant = (...args: string[]) => run('npm', ['run', 'merchant', '--', ...args], { env, cwd: process.cwd() });

  it('creates a merchant and prints exactly one JSON object with its keys, which then work against the API', async () => {
    const { stdout } = await merchant('create', '--name', 'Acme Stores', '--country', 'NG', '--email', 'support@acme.test');
    const created = JSON.parse(stdout);
    expect(Object.keys(created)).toEqual(['subsidiaryId', 'name', 'publishableKey', 'secretKey', 'encryptionKey']);
    expect(created.name).toBe('Acme Stores');
    expect(created.publishableKey).toMatch(/^pk_test_/);
    expect(created.secretKey).toMatch(/^sk_test_/);
    expect(created.encryptionKey).toHaveLength(1016);

    const { stdout: listed } = await merchant('list');
    const list = JSON.parse(listed);
    expect(list.find((entry: { subsidiaryId: number }) => entry.subsidiaryId === created.subsidiaryId)).toMatchObject({
      name: 'Acme Stores',
      testPublishableKey: created.publishableKey,
      testEncryptionKey: created.encryptionKey,
    });
    expect(listed).not.toContain(created.secretKey);

    const { stdout: rotatedText } = await merchant('rotate-keys', '--id', String(created.subsidiaryId));
    const rotated = JSON.parse(rotatedText);
    expect(rotated.secretKey).not.toBe(created.secretKey);

    const app: FastifyInstance = await startApp(place);
    try {
      const call = (key: string) => app.inject({ method: 'GET', url: '/checkout/frequencies', headers: { 'api-key': key } });
      expect((await call(created.secretKey)).statusCode).toBe(401);
      expect((await call(rotated.secretKey)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("invites a merchant's first owner and prints reset links, each a one-time link the dashboard accepts", async () => {
    const created = JSON.parse((await merchant('create', '--name', 'Team Stores', '--country', 'NG', '--email', 'support@team.test')).stdout);
    const { stdout } = await merchant('user', 'invite', '--id', String(created.subsidiaryId), '--email', 'first.owner@team.test', '--role', 'owner');
    const invited = JSON.parse(stdout);
    expect(invited).toMatchObject({ subsidiaryId: created.subsidiaryId, email: 'first.owner@team.test', role: 'owner' });
    expect(invited.acceptUrl).toMatch(/^http:\/\/localhost:8080\/dashboard\/#\/accept\?token=[\w-]{43}$/);
    const refused = await merchant('user', 'invite', '--id', String(created.subsidiaryId), '--email', 'x@team.test', '--role', 'boss').catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('--role must be one of owner, admin, developer, support, viewer');

    const tokenOf = (url: string) => new URL(url.replace('#/', '')).searchParams.get('token');
    let app: FastifyInstance = await startApp(place);
    try {
      const accepted = await app.inject({ method: 'POST', url: '/checkout/team/invitations/accept', payload: { token: tokenOf(invited.acceptUrl), password: 'violet-harbour-lantern-42' } });
      expect(accepted.json().data).toMatchObject({ status: 'signed_in' });
    } finally {
      await app.close();
    }
    const reset = JSON.parse((await merchant('user', 'reset-password', '--email', 'first.owner@team.test')).stdout);
    expect(reset.resetUrl).toMatch(/\/dashboard\/#\/reset-password\?token=/);
    app = await startApp(place);
    try {
      const changed = await app.inject({ method: 'POST', url: '/checkout/team/password-reset', payload: { token: tokenOf(reset.resetUrl), password: 'amber-meadow-compass-77' } });
      expect(changed.statusCode, changed.body).toBe(200);
      const signIn = await app.inject({ method: 'POST', url: '/checkout/team/sign-in', payload: { email: 'first.owner@team.test', password: 'amber-meadow-compass-77' } });
      expect(signIn.json().data).toMatchObject({ status: 'signed_in' });
    } finally {
      await app.close();
    }
  });

  it("sets a merchant's logo (https only), which the create-order answer then carries, and clears it", async () => {
    const { stdout } = await merchant('create', '--name', 'Logo Stores', '--country', 'NG', '--email', 'support@logo.test');
    const created = JSON.parse(stdout);
    const id = String(created.subsidiaryId);
    const refused = await merchant('logo', '--id', id, '--url', 'http://cdn.logo.test/logo.png').catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('--url must be an https address');
    const { stdout: set } = await merchant('logo', '--id', id, '--url', 'https://cdn.logo.test/logo.png');
    expect(JSON.parse(set)).toEqual({ subsidiaryId: created.subsidiaryId, name: 'Logo Stores', logoUrl: 'https://cdn.logo.test/logo.png' });

    const app: FastifyInstance = await startApp(place);
    try {
      const link = await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: { 'api-key': created.secretKey },
        payload: { Name: 'Mugs', Description: 'Two mugs', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: '5000' },
      });
      expect(link.json().data.subsidiary.logo).toBe('https://cdn.logo.test/logo.png');
      expect(link.json().data.paymentLink.logo).toBe('https://cdn.logo.test/logo.png');
    } finally {
      await app.close();
    }
    const { stdout: cleared } = await merchant('logo', '--id', id);
    expect(JSON.parse(cleared).logoUrl).toBeNull();
  }, 120_000);

  it('refuses bad arguments with a one-line reason on stderr and nothing on stdout', async () => {
    const failure = await merchant('create', '--name', 'X', '--country', 'Nigeria', '--email', 'x@y.test').catch((error) => error);
    expect(failure.code).toBe(2);
    expect(failure.stdout).toBe('');
    expect(failure.stderr.trim()).toBe('--country must be a two-letter country code');

    const unknown = await merchant('rotate-keys', '--id', '999').catch((error) => error);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe('No merchant has id 999.');

    const nameless = await merchant('create', '--country', 'NG', '--email', 'x@y.test').catch((error) => error);
    expect(nameless.code).toBe(2);
    expect(nameless.stderr.trim()).toBe('--name is required');
    const mailless = await merchant('create', '--name', 'X', '--country', 'NG').catch((error) => error);
    expect(mailless.stderr.trim()).toBe('--email is required');
  });

  it('refuses to touch the embedded database while a server has it open, and loses nothing', async () => {
    const app: FastifyInstance = await startApp(place);
    try {
      const before = (await app.merchants.list()).length;
      const refused = await merchant('create', '--name', 'Concurrent', '--country', 'NG', '--email', 'c@c.test').catch((error) => error);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim()).toMatch(/^The embedded database in .* is in use by another process \(pid \d+\): stop it first, or use PostgreSQL \(DATABASE_URL\)/);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect((await app.merchants.list()).length).toBe(before);
    } finally {
      await app.close();
    }
    // Once the server has stopped, the same command works.
    const { stdout } = await merchant('create', '--name', 'Concurrent', '--country', 'NG', '--email', 'c@c.test');
    expect(JSON.parse(stdout).name).toBe('Concurrent');
  });
});
