import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { CompactEncrypt, importJWK } from 'jose';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from './support/browser.ts';
import { freePort, merchantCli, newDataDir, serverCreateOrder, startServer, type RunningServer, type ServerKeys } from './support/server.ts';

/**
 * The merchant's dashboard on the real server (`npm start` on PGlite), in Chromium: the first owner invited from the
 * CLI accepts, chooses a password and adds an authenticator app; a card payment made through the API is found by its
 * card's last four digits, opened, and refunded in part after a step-up; the refund and its webhook delivery show on
 * the timeline; signing out ends the session (going back shows nothing); the owner signs in again with a code, then
 * with a passkey of Chromium's virtual authenticator.
 */
const OWNER = 'owner@acme.test';
const PASSWORD = 'violet-harbour-lantern-42';

describe('the merchant dashboard, end to end', () => {
  let server: RunningServer;
  let keys: ServerKeys;
  let browser: Browser;
  let receiver: Server;
  const received: { type: string }[] = [];
  let invitation: string;

  beforeAll(async () => {
    // On PGlite the CLI needs the server stopped: the merchant and the owner's invitation are made first.
    const dataDir = newDataDir();
    const merchant = await merchantCli(dataDir, ['create', '--name', 'Acme Stores', '--country', 'NG', '--email', 'support@acme.test']);
    const invited = (await merchantCli(dataDir, ['user', 'invite', '--id', String(merchant.subsidiaryId), '--email', OWNER, '--role', 'owner'])) as unknown as { acceptUrl: string };
    expect(invited.acceptUrl).toMatch(/\/dashboard\/#\/accept\?token=/);
    invitation = new URL(invited.acceptUrl.replace('#/', '')).searchParams.get('token')!;

    server = await startServer({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: '1' }, { dataDir, publicHost: 'localhost' });
    keys = { baseUrl: server.baseUrl, publishableKey: merchant.publishableKey, secretKey: merchant.secretKey };

    const port = await freePort();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body) as { type: string });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    const endpoint = await fetch(`${keys.baseUrl}/checkout/webhooks`, {
      method: 'POST',
      headers: { 'api-key': keys.secretKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks` }),
    });
    expect(endpoint.status, await endpoint.clone().text()).toBe(200);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    receiver?.close();
    await server?.stop();
  });

  /** A TOTP code of a 30-second window no code was used in yet (the server takes each code once). */
  let lastWindow = 0;
  async function freshCode(secret: string): Promise<string> {
    while (Math.floor(Date.now() / 30_000) <= lastWindow) await new Promise((resolve) => setTimeout(resolve, 500));
    lastWindow = Math.floor(Date.now() / 30_000);
    return generate({ secret });
  }

  /** A card payment as the merchant's server and the checkout make it: the order with the secret key, the card with the publishable key. */
  async function cardPayment(amount: number): Promise<string> {
    const reference = `ORD-${randomBytes(5).toString('hex').toUpperCase()}`;
    const created = await serverCreateOrder(keys, {
      customer: { firstname: 'Ada', lastname: 'Obi', mobile: '+2348012345678', country: 'NG', email: 'ada@example.test' },
      order: { amount, reference, description: 'Two books', currency: 'NGN' },
      payment: { RedirectUrl: 'https://acme.test/return' },
    });
    expect(created.data.clientToken, created.message).toBeTruthy();
    const published = (await (await fetch(`${keys.baseUrl}/checkout/keys`, { headers: { 'api-key': keys.publishableKey } })).json()) as { data: { keys: { alg: string; kid: string }[] } };
    const jwk = published.data.keys.find((key) => key.alg === 'ECDH-ES+A256KW')!;
    const plain = { reference, paymentoption: 'C', country: 'NG', card: { cardnumber: '5555555555554444', expirymonth: '01', expiryyear: '39', cvv: '193' } };
    const data = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(plain))).setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, jwk.alg));
    const paid = await fetch(`${keys.baseUrl}/checkout/order/pay`, {
      method: 'POST',
      headers: { 'api-key': keys.publishableKey, 'content-type': 'application/json', 'checkout-client-token': created.data.clientToken!.token },
      body: JSON.stringify({ data }),
    });
    const answer = (await paid.json()) as { statusCode: string; message: string };
    expect(answer.statusCode, answer.message).toBe('00');
    return reference;
  }

  const dashboard = (hash: string) => `${keys.baseUrl}/dashboard/${hash}`;

  async function signInWithCode(page: Page, secret: string): Promise<void> {
    await page.locator('dash-sign-in #email').fill(OWNER);
    await page.locator('dash-sign-in #password').fill(PASSWORD);
    await page.locator('dash-sign-in button[type=submit]').click();
    await page.locator('dash-sign-in #code').fill(await freshCode(secret));
    await page.locator('dash-sign-in button[type=submit]').click();
  }

  it('takes the first owner from the CLI invitation to a refund with step-up, a sign-out that holds, and a passkey sign-in', async () => {
    const { page, problems } = await newPage(browser, { width: 1200, height: 1000 });

    // The invitation: a password, then the authenticator app (QR code and key), then the backup codes, once.
    await page.goto(dashboard(`#/accept?token=${invitation}`));
    await page.locator('dash-accept #password').fill(PASSWORD);
    await page.locator('dash-accept button[type=submit]').click();
    const enrolment = page.locator('dash-totp-enrolment');
    await expect.poll(() => enrolment.locator('.qr svg path').count(), { timeout: 20_000 }).toBe(1);
    await screenshot(page, 'dashboard-enrol-totp');
    const secret = (await enrolment.locator('code.secret').textContent())!.trim();
    expect((await enrolment.locator('code.uri').textContent())!).toMatch(/^otpauth:\/\/totp\//);
    await enrolment.locator('#totp-code').fill(await freshCode(secret));
    await enrolment.locator('button[type=submit]').click();
    await enrolment.locator('.codes li').first().waitFor();
    const backupCodes = await enrolment.locator('.codes li').allTextContents();
    expect(backupCodes).toHaveLength(10);
    await screenshot(page, 'dashboard-backup-codes');
    await enrolment.locator('button.primary').click();
    await page.locator('dash-home h1').waitFor();
    await expect.poll(() => page.locator('dash-app').evaluate((app) => app.shadowRoot!.textContent ?? '')).toContain('owner@acme.test');

    // A card payment arrives; Home and the list show it, found by the card's last four digits.
    const reference = await cardPayment(25_000);
    await page.goto(dashboard('#/payments'));
    await page.locator('dash-payments #search').fill('4444');
    await page.locator('dash-payments form[role=search] button[type=submit]').click();
    const row = page.locator(`dash-payments a[href="#/payments/${reference}"]`);
    await row.waitFor({ timeout: 20_000 });
    await screenshot(page, 'dashboard-payments-search');
    await row.click();

    // The payment: its attempt and timeline; a partial refund asks for a second factor again, then goes through.
    const payment = page.locator('dash-payment');
    await payment.locator('dash-order-timeline').getByText('Payment approved').waitFor();
    await expect.poll(() => payment.locator('dl').textContent()).toMatch(/ending 4444/);
    const refund = payment.locator('dash-refund-form');
    await refund.locator('input[value=partial]').check();
    await refund.locator('#refund-amount').fill('5000');
    await refund.locator('#refund-reason').fill('One book arrived damaged');
    await refund.locator('button[type=submit]').click();
    const stepUp = refund.locator('dash-step-up');
    await stepUp.locator('#step-up-code').waitFor();
    await screenshot(page, 'dashboard-step-up');
    await stepUp.locator('#step-up-code').fill(await freshCode(secret));
    await stepUp.locator('button[type=submit]').click();
    await payment.locator('dash-order-timeline').getByText('Refund succeeded').waitFor({ timeout: 20_000 });
    await expect.poll(() => payment.locator('dl').textContent()).toMatch(/Left to refund\s*₦\s?20,[0-9]{3}\.[0-9]{2}/);

    // The refund's webhook reaches the merchant's endpoint, and its delivery is on the timeline.
    await expect.poll(() => received.map((event) => event.type), { timeout: 30_000 }).toContain('refund.succeeded');
    await page.reload();
    const timeline = page.locator('dash-payment dash-order-timeline');
    await timeline.getByText('Refund succeeded').waitFor({ timeout: 20_000 });
    await expect.poll(() => timeline.locator('li.webhook_delivery').allTextContents(), { timeout: 20_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/refund\.succeeded.*delivered/s)]));
    await screenshot(page, 'dashboard-payment-refunded');

    // Signing out ends the session on the server: going back shows the sign-in, and the API refuses the old cookie.
    await page.locator('dash-app button.sign-out').click();
    await page.locator('dash-sign-in #email').waitFor();
    await page.goBack();
    await page.locator('dash-sign-in #email').waitFor();
    expect(await page.locator('dash-payment').count()).toBe(0);
    expect(await page.evaluate(async () => (await fetch('/checkout/team/me')).status)).toBe(401);

    // Signing in again: password and a code; the page asked for comes back.
    await page.goto(dashboard(`#/payments/${reference}`));
    await page.locator('dash-sign-in #email').waitFor();
    await signInWithCode(page, secret);
    await page.locator('dash-payment dash-order-timeline').getByText('Refund succeeded').waitFor({ timeout: 20_000 });

    // A passkey, registered through Chromium's virtual authenticator, then signing in with it alone.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const registered = await page.evaluate(async () => {
      const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
      const csrf = ((await (await fetch('/checkout/team/me')).json()) as { data: { csrfToken: string } }).data.csrfToken;
      const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body) });
      const { options } = ((await (await post('/checkout/team/me/passkeys/options', {})).json()) as { data: { options: PublicKeyCredentialCreationOptionsJSON } }).data;
      const credential = (await navigator.credentials.create({
        publicKey: {
          ...(options as unknown as PublicKeyCredentialCreationOptions),
          challenge: bytes(options.challenge),
          user: { ...options.user, id: bytes(options.user.id) },
          excludeCredentials: (options.excludeCredentials ?? []).map((each) => ({ type: 'public-key' as const, id: bytes(each.id) })),
        },
      })) as PublicKeyCredential;
      return (await post('/checkout/team/me/passkeys', { response: credential.toJSON(), name: 'Laptop' })).status;
    });
    expect(registered).toBe(200);
    await page.locator('dash-app button.sign-out').click();
    await page.locator('dash-sign-in button.passkey').click();
    await page.locator('dash-home h1').waitFor({ timeout: 20_000 });
    await screenshot(page, 'dashboard-home-after-passkey');
    expect(problems).toEqual([]);
  }, 300_000);
});
