import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { chromium, type Page, type Route } from 'playwright-core';
import { build } from 'vite';
import { formatTimestamp } from '../../shared/timestamps.ts';
import {
  authenticateAnswer,
  createOrderAnswer,
  declinedAnswer,
  feeAnswer,
  feeQuote,
  paidAnswer,
  transferAnswer,
  transferDetails,
  transferStatus,
} from './support/fixtures.ts';

/**
 * `npm run screenshots`: builds the checkout app, serves dist/widget on loopback, answers its API calls with the
 * same fixtures the tests use (decrypting each JWE with a key made for the run), drives Debian's Chromium through
 * every state, and writes docs/screenshots/<state>-<variant>.png for light, dark, French and 320 px. Each state is
 * also checked with axe-core, and the pages are served with the backend's strict CSP: a violation of either fails.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist/widget');
const OUT = join(ROOT, 'docs/screenshots');
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

const VARIANTS = {
  light: { width: 480, locale: 'en-NG', colorScheme: 'light' },
  dark: { width: 480, locale: 'en-NG', colorScheme: 'dark' },
  fr: { width: 480, locale: 'fr-FR', colorScheme: 'light' },
  '320': { width: 320, locale: 'en-NG', colorScheme: 'light' },
} as const;
type Variant = keyof typeof VARIANTS;

export const STATES = [
  'loading',
  'options',
  'card',
  'card-invalid',
  'authenticating',
  'transfer',
  'transfer-short',
  'success',
  'failure',
  'expired',
  'error',
] as const;
type State = (typeof STATES)[number];

type Answer = { status?: number; body: unknown } | 'hang' | 'network-error';
type Plan = Partial<Record<string, Answer[] | ((plain: Record<string, unknown>) => Answer)>>;

const nextYear = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');

/** The backend's page policy (bff/security/csp.ts): no inline script or style, no eval. */
const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'";

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    // Built assets are addressed under the build's base, /widget/, as the backend serves them.
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/^\/widget\//, '/');
    // axe-core, served from this origin so that the accessibility check runs under the same CSP.
    const file = path === '/axe.min.js' ? AXE : normalize(join(DIST, path === '/' ? 'checkout.html' : path));
    if (!file.startsWith(DIST) && file !== AXE) return void response.writeHead(403).end();
    try {
      const body = readFileSync(file);
      response
        .writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': CONTENT_SECURITY_POLICY })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main(): Promise<void> {
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const { privateKey, publicKey } = await generateKeyPair('ECDH-ES+A256KW', { crv: 'P-256', extractable: true });
  const jwk = await exportJWK(publicKey);
  const key = { ...jwk, alg: 'ECDH-ES+A256KW', use: 'enc', kid: await calculateJwkThumbprint(jwk) };
  const server = await serve();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: EXECUTABLE,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

  async function answerApi(route: Route, plan: Plan): Promise<void> {
    const path = new URL(route.request().url()).pathname;
    if (path === '/checkout/keys') {
      return route.fulfill({ json: { status: 'success', statusCode: '00', message: 'Operation successful', data: { keys: [key] } } });
    }
    const { data } = route.request().postDataJSON() as { data: string };
    const plain = JSON.parse(new TextDecoder().decode((await compactDecrypt(data, privateKey)).plaintext)) as Record<string, unknown>;
    const step = plan[path];
    const answer = typeof step === 'function' ? step(plain) : (step?.length ?? 0) > 1 ? step!.shift()! : step?.[0];
    if (!answer) return route.fulfill({ json: { status: 'success', statusCode: '00', message: 'Event logged successfully', data: null } });
    if (answer === 'hang') return;
    if (answer === 'network-error') return route.abort('internetdisconnected');
    return route.fulfill({ status: answer.status ?? 200, json: answer.body });
  }

  async function open(variant: Variant, plan: Plan): Promise<Page> {
    const settings = VARIANTS[variant];
    const context = await browser.newContext({
      viewport: { width: settings.width, height: 760 },
      deviceScaleFactor: 1,
      colorScheme: settings.colorScheme,
      locale: settings.locale,
    });
    const page = await context.newPage();
    // Every state is also a check that the app runs under the strict CSP: any violation stops the run.
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
    );
    page.on('console', (message) => {
      if (message.text().startsWith('CSP violation')) violations.push(`${variant}: ${message.text()}`);
    });
    page.on('pageerror', (error) => violations.push(`${variant}: ${error.message}`));
    const config = {
      'api-key': 'pk_test_demo',
      reference: 'ORD-1001',
      amount: 12500,
      currency: 'NGN',
      description: 'Two tickets',
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      'customer-country': 'NG',
      locale: settings.locale,
      items: [
        { name: 'Things Fall Apart', amount: 8000 },
        { name: 'Gift wrapping', amount: 4500 },
      ],
    };
    await page.route(
      (url) => url.pathname === '/checkout.html',
      async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace('>{}</script>', `>${JSON.stringify(config)}</script>`);
        await route.fulfill({ response, body: html });
      },
    );
    await page.route((url) => url.pathname.startsWith('/checkout/'), (route) => answerApi(route, plan));
    const fees = (plain: Record<string, unknown>): Answer => ({ body: feeAnswer(feeQuote(String(plain['paymentoption']))) });
    plan['/checkout/order/fee'] ??= fees;
    await page.goto(`${origin}/checkout.html`);
    return page;
  }

  const violations: string[] = [];

  /** axe-core's WCAG 2.x A/AA rules on the whole page, including colour contrast in dark mode and in French. */
  async function axeViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ url: '/axe.min.js' });
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; help: string }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
      return result.violations.map((violation) => `${violation.id}: ${violation.help}`);
    });
  }
  const label = (variant: Variant, english: string, french: string) => (variant === 'fr' ? french : english);

  async function choose(page: Page, variant: Variant, method: 'card' | 'transfer'): Promise<void> {
    const name = method === 'card' ? label(variant, 'Card', 'Carte') : label(variant, 'Bank transfer', 'Virement bancaire');
    await page.getByRole('radio', { name }).check();
    await page.getByText(label(variant, 'Total to pay', 'Total à payer')).waitFor();
  }

  async function fillCard(page: Page, variant: Variant, number = '4242424242424242'): Promise<void> {
    await choose(page, variant, 'card');
    await page.getByRole('button', { name: label(variant, 'Continue with card', 'Continuer avec la carte') }).click();
    await page.getByLabel(label(variant, 'Card number', 'Numéro de carte')).pressSequentially(number);
    await page.getByLabel(label(variant, 'Expiry date', 'Date d’expiration')).pressSequentially(`12${nextYear}`);
    await page.getByLabel(label(variant, 'Security code', 'Code de sécurité')).pressSequentially('123');
    await page.getByLabel(label(variant, 'Name on card', 'Nom sur la carte')).pressSequentially('Ada Obi');
  }

  async function openTransfer(page: Page, variant: Variant): Promise<void> {
    await choose(page, variant, 'transfer');
    await page.getByRole('button', { name: label(variant, 'Get account details', 'Obtenir les coordonnées du compte') }).click();
    await page.getByText('0123456789').waitFor();
  }

  const scenes: Record<State, (variant: Variant) => Promise<Page>> = {
    loading: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': ['hang'] });
      await page.getByText(label(variant, 'Preparing your checkout', 'Préparation de votre paiement')).waitFor();
      return page;
    },
    options: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }] });
      await choose(page, variant, 'card');
      return page;
    },
    card: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }] });
      await fillCard(page, variant);
      return page;
    },
    'card-invalid': async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }] });
      await choose(page, variant, 'card');
      await page.getByRole('button', { name: label(variant, 'Continue with card', 'Continuer avec la carte') }).click();
      await page.getByLabel(label(variant, 'Card number', 'Numéro de carte')).pressSequentially('4242424242424241');
      await page.getByLabel(label(variant, 'Expiry date', 'Date d’expiration')).pressSequentially('0120');
      await page.getByRole('button', { name: /Pay|Payer/ }).click();
      // The submit shows every field's mistake, the security code and the name included.
      await page.getByText(label(variant, 'Enter the 3-digit security code.', 'Saisissez le code de sécurité à 3 chiffres.')).waitFor();
      await page.getByText(label(variant, 'Enter the name as it is printed on the card.', 'Saisissez le nom tel qu’il figure sur la carte.')).waitFor();
      return page;
    },
    authenticating: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }], '/checkout/order/pay': [{ body: authenticateAnswer() }] });
      // Stay on the page to photograph it: the real checkout would now leave for the bank's page.
      await page.evaluate(() => (document.querySelector('ck-checkout')!.redirect = () => undefined));
      await fillCard(page, variant, '5123450000784608');
      await page.keyboard.press('Enter');
      await page.getByText(label(variant, 'Confirm with your bank', 'Confirmez auprès de votre banque')).waitFor();
      return page;
    },
    transfer: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }], '/checkout/order/pay': [{ body: transferAnswer() }] });
      await openTransfer(page, variant);
      return page;
    },
    'transfer-short': async (variant) => {
      const page = await open(variant, {
        '/checkout/order/create': [{ body: createOrderAnswer() }],
        '/checkout/order/pay': [{ body: transferAnswer() }],
        '/checkout/order/status': [{ body: transferStatus({ amount_due: 2500 }) }],
      });
      await openTransfer(page, variant);
      await page.getByRole('button', { name: label(variant, 'I have sent the money', 'J’ai envoyé l’argent') }).click();
      await page.getByText(label(variant, 'Send the remaining', 'Envoyez les')).waitFor();
      return page;
    },
    success: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }], '/checkout/order/pay': [{ body: paidAnswer() }] });
      await fillCard(page, variant);
      await page.keyboard.press('Enter');
      await page.getByText(label(variant, 'Payment successful', 'Paiement réussi')).waitFor();
      return page;
    },
    failure: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer() }], '/checkout/order/pay': [{ body: declinedAnswer('51') }] });
      await fillCard(page, variant);
      await page.keyboard.press('Enter');
      await page.getByText(label(variant, 'Payment not completed', 'Paiement non abouti')).waitFor();
      return page;
    },
    expired: async (variant) => {
      const page = await open(variant, {
        '/checkout/order/create': [{ body: createOrderAnswer() }],
        '/checkout/order/pay': [{ body: transferAnswer(transferDetails({ expiresAt: formatTimestamp(new Date(Date.now() + 1000)) })) }],
        '/checkout/order/status': [{ body: transferStatus({ payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired' }) }],
      });
      await openTransfer(page, variant);
      await page.getByText(label(variant, 'The account number has expired', 'Le numéro de compte a expiré')).waitFor();
      return page;
    },
    error: async (variant) => {
      const page = await open(variant, { '/checkout/order/create': ['network-error'] });
      await page.getByText(label(variant, 'Checkout unavailable', 'Paiement indisponible')).waitFor();
      return page;
    },
  };

  try {
    for (const state of STATES) {
      for (const variant of Object.keys(VARIANTS) as Variant[]) {
        const page = await scenes[state](variant);
        // Let transitions and the countdown settle; the caret would otherwise blink into some shots.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.waitForTimeout(150);
        for (const violation of await axeViolations(page)) violations.push(`${state}-${variant}: ${violation}`);
        const file = join(OUT, `${state}-${variant}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
        await page.context().close();
        console.log(`wrote docs/screenshots/${state}-${variant}.png`);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  if (violations.length > 0) throw new Error(`The checkout broke the CSP, threw, or failed axe:\n${violations.join('\n')}`);
}

await main();
