import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { chromium, type Page, type Route } from 'playwright-core';
import { build } from 'vite';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { authenticationPage } from '../../bff/pages/authentication.ts';
import { inlineScriptHashes } from '../../bff/security/csp.ts';
import { pageTokensCss } from '../../shared/design-tokens.ts';
import { ENGLISH, localeFrom } from '../../bff/pages/i18n.ts';
import {
  authenticateAnswer,
  createOrderAnswer,
  declinedAnswer,
  orderData,
  paidStatus,
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
  'transfer-confirmed',
  'authentication-grown',
  'branded',
  'success',
  'failure',
  'expired',
  'error',
] as const;
type State = (typeof STATES)[number];

type Answer = { status?: number; body: unknown } | 'hang' | 'network-error';
type Plan = Partial<Record<string, Answer[] | ((plain: Record<string, unknown>) => Answer)>>;

const nextYear = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');

/**
 * The backend's page policy (bff/security/csp.ts): no inline script or style, but the scripts a page's template names
 * by hash; no eval. Framable from the merchant page's other origin.
 */
const policyWith = (scriptHashes: string[] = []) =>
  `default-src 'self'; script-src ${["'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' ')}; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'`;
const CONTENT_SECURITY_POLICY = policyWith();

/** The branded scene's merchant logo. */
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 44 44"><rect width="44" height="44" rx="8" fill="#0a7c59"/><path d="M12 31V13h5v7l7-7h6l-8 8 9 10h-6l-6-7-2 2v5z" fill="#fff"/></svg>';

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The sandbox bank's 3-D Secure page after a wrong code, as the backend renders it inside a merchant's checkout frame. */
function bankPage(url: URL): string {
  const locale = url.searchParams.get('lang') === 'fr' ? localeFrom('fr') : ENGLISH;
  return authenticationPage({
    merchantName: 'Kola Books',
    amountMinor: 1_278_750,
    currency: 'NGN',
    instrument: 'Visa •••• 4242',
    oneTimeCode: '123456',
    action: url.pathname,
    error: locale.t.authentication.wrongCode(2),
    locale,
    parentOrigin: url.searchParams.get('parent') ?? undefined,
  });
}

/** A merchant's page at 320 px with an inline checkout whose frame shows the bank's page (see `bankPage`). */
const MERCHANT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kola Books</title><link rel="stylesheet" href="/merchant.css"><script src="/widget/embed.js"></script></head>
<body><h1>Kola Books</h1><checkout-widget api-key="pk_test_demo" reference="ORD-1001" amount="12500"></checkout-widget></body></html>`;
const MERCHANT_CSS = 'body { margin: 0; padding: 0.75rem; font-family: system-ui, sans-serif; background: #fafaf9; } h1 { font-size: 1.25rem; }';

function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const page = (type: string, body: string) =>
      response.writeHead(200, { 'content-type': type, 'content-security-policy': CONTENT_SECURITY_POLICY }).end(body);
    if (url.pathname.startsWith('/checkout/3ds/')) return page('text/html', bankPage(url));
    if (url.pathname === '/assets/pages.css') return page('text/css', `${pageTokensCss()}\n${readFileSync(join(ROOT, 'bff/pages/pages.css'), 'utf8')}`);
    if (url.pathname === '/assets/pages.js') return page('text/javascript', readFileSync(join(ROOT, 'bff/pages/pages.js'), 'utf8'));
    // The merchant's own page has no policy of ours (it frames the checkout's other origin).
    if (url.pathname === '/merchant.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(MERCHANT_PAGE);
    if (url.pathname === '/merchant.css') return page('text/css', MERCHANT_CSS);
    // Built assets are addressed under the build's base, /widget/, as the backend serves them.
    const path = url.pathname.replace(/^\/widget\//, '/');
    // axe-core, served from this origin so that the accessibility check runs under the same CSP.
    const file = path === '/axe.min.js' ? AXE : normalize(join(DIST, path === '/' ? 'checkout.html' : path));
    if (!file.startsWith(DIST) && file !== AXE) return void response.writeHead(403).end();
    try {
      const body = readFileSync(file);
      const policy = extname(file) === '.html' ? policyWith(inlineScriptHashes(body.toString('utf8'))) : CONTENT_SECURITY_POLICY;
      response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': policy }).end(body);
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
    if (path.startsWith('/checkout/3ds/')) return route.continue();
    if (path === '/checkout/embed/sessions') {
      // The frame the embed opens: the bank's page on the other loopback name, as after a wrong code.
      const frameOrigin = origin.replace('127.0.0.1', 'localhost');
      const frameUrl = `${frameOrigin}/checkout/3ds/PAY-1?parent=${encodeURIComponent(origin)}&lang=${plan['lang'] ? 'fr' : 'en'}`;
      return route.fulfill({ json: { status: 'success', statusCode: '00', message: 'Embedding session opened', data: { frameUrl, frameOrigin, parentOrigin: origin, expiresAt: '2099-01-01T00:00:00.000' } } });
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

  async function open(variant: Variant, plan: Plan, extra: Record<string, unknown> = {}, path = '/checkout.html'): Promise<Page> {
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
      ...extra,
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
    // A merchant's logo on its own address (https), answered here: nothing leaves the machine.
    await page.route('https://cdn.kola.test/**', (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO }));
    await page.goto(`${origin}${path}`);
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
      await page.getByText(label(variant, 'Enter the 3-digit code.', 'Saisissez les 3 chiffres.')).waitFor();
      await page.getByText(label(variant, 'Enter the name on the card.', 'Saisissez le nom sur la carte.')).waitFor();
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
    // Money arrives while the account is shown: the checkout notices by itself, nobody pressed "I have sent the money".
    'transfer-confirmed': async (variant) => {
      const page = await open(variant, {
        '/checkout/order/create': [{ body: createOrderAnswer() }],
        '/checkout/order/pay': [{ body: transferAnswer() }],
        '/checkout/order/status': [{ body: paidStatus({ total_charged_amount: 12500, fee: 50, subsidiary_fee: 50, customer_fee: 0, payment_type: 'Bank Transfer' }) }],
      });
      await openTransfer(page, variant);
      await page.getByText(label(variant, 'Payment successful', 'Paiement réussi')).waitFor({ timeout: 15_000 });
      return page;
    },
    // The bank's page after a wrong code inside a merchant's inline checkout at 320 px: the frame grows with it.
    'authentication-grown': async (variant) => {
      const page = await open(variant, variant === 'fr' ? { lang: [] } : {}, {}, '/merchant.html');
      await page.setViewportSize({ width: 320, height: 760 });
      const frame = page.frameLocator('checkout-widget iframe');
      await frame.getByRole('button', { name: label(variant, 'Fail authentication', "Faire échouer l'authentification") }).waitFor();
      await page.waitForFunction(() => {
        const iframe = document.querySelector('checkout-widget')!.shadowRoot!.querySelector('iframe')!;
        return iframe.getBoundingClientRect().height > 400;
      });
      return page;
    },
    // A merchant's branding: brand colour, radius, font and compact density from its attributes, its logo from its record.
    branded: async (variant) => {
      const order = orderData({ subsidiary: { id: 7, name: 'Kola Books', country: 'NG', supportEmail: 'help@kola.test', customization: [], logo: 'https://cdn.kola.test/logo.svg' } });
      const page = await open(variant, { '/checkout/order/create': [{ body: createOrderAnswer(order) }] }, { 'brand-color': '#0a7c59', radius: '6', font: 'serif', density: 'compact' });
      await choose(page, variant, 'card');
      await page.getByRole('button', { name: label(variant, 'Continue with card', 'Continuer avec la carte') }).click();
      await page.getByLabel(label(variant, 'Card number', 'Numéro de carte')).pressSequentially('5123450000784608');
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
