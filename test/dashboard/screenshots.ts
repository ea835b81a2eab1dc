import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer as createViteServer } from 'vite';
import { dashboardPolicy } from '../../bff/security/csp.ts';
import { dashboardConfig } from '../../vite.config.ts';
import { order, orderDetailAnswer, orderPage, ORDERS } from './support/fixtures.ts';
import { operationsAnswer } from './support/operations-fixtures.ts';

/**
 * `npm run dashboard:screenshots`: serves the dashboard's modules (Vite, no hot reload) under the production page's
 * strict policy, Trusted Types included, with the tests' session and reports stand-ins and the orders list answered
 * from the contract-checked fixtures; drives Debian's Chromium to every screen in light, dark, French and 320 px, runs
 * axe-core on each, and writes docs/screenshots/dashboard/<screen>-<variant>.png. A CSP violation, a page error or
 * an axe violation fails the run.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'docs/screenshots/dashboard');
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const VARIANTS = {
  light: { width: 1280, height: 860, locale: 'en-NG', colorScheme: 'light' },
  dark: { width: 1280, height: 860, locale: 'en-NG', colorScheme: 'dark' },
  fr: { width: 1280, height: 860, locale: 'fr-FR', colorScheme: 'light' },
  '320': { width: 320, height: 640, locale: 'en-NG', colorScheme: 'light' },
} as const;

const SCREENS = [
  { name: 'home', hash: '#/', ready: 'dash-home >> canvas' },
  { name: 'payments', hash: '#/payments', ready: 'dash-payments >> [data-reference]' },
  { name: 'payment', hash: '#/payments/ORD-1001', ready: 'dash-payment >> dash-order-timeline >> li' },
  { name: 'sign-in', hash: '#/sign-in', ready: 'dash-sign-in >> form', signedOut: true },
  { name: 'sign-in-code', hash: '#/sign-in', ready: 'dash-sign-in >> form', signedOut: true, code: true },
  { name: 'accept', hash: '#/accept?token=inv_1', ready: 'dash-accept >> form', signedOut: true },
  // The operations screens (issue 32 items 5 to 8).
  { name: 'links', hash: '#/links', ready: 'dash-links >> [data-reference]' },
  { name: 'link', hash: '#/links/Zk3vQm9sT1', ready: 'dash-link >> dash-qr-code >> svg' },
  { name: 'subscriptions', hash: '#/subscriptions', ready: 'dash-subscriptions >> [data-subscription]' },
  { name: 'customers', hash: '#/customers', ready: 'dash-customers >> [data-customer]' },
  { name: 'customer', hash: '#/customers/cus_ada', ready: 'dash-customer >> [data-card]' },
  { name: 'developers', hash: '#/developers', ready: 'dash-developers >> dash-webhook-endpoints >> [data-endpoint]' },
  { name: 'settings', hash: '#/settings', ready: 'dash-settings >> form' },
  { name: 'team', hash: '#/team', ready: 'dash-team >> [data-member]' },
  { name: 'audit', hash: '#/audit', ready: 'dash-audit >> tbody tr' },
] as const;

const MORE_ORDERS = [
  ...ORDERS,
  order({ reference: 'ORD-1005', state: 'underpaid', statusId: 2, amount: '250000.00', amountMinor: 25_000_000, customer: { id: 'cus_3', email: 'ngozi@example.test', name: 'Ngozi Eze', mobile: null } }),
  order({ reference: 'ORD-1006', state: 'overpaid', amount: '1500.00', amountMinor: 150_000 }),
  order({ reference: 'ORD-1007', state: 'reversed', statusId: 6, amount: '1234567.89', amountMinor: 123_456_789 }),
];

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>Dashboard</title>
<script type="module" src="/dashboard/@fs${join(ROOT, 'test/dashboard/support/screenshot-entry.ts')}"></script></head><body></body></html>`;

const config = dashboardConfig(join(ROOT, 'dist/dashboard'));
const vite = await createViteServer({ ...config, server: { ...config.server, middlewareMode: true, hmr: false, ws: false }, appType: 'custom' });
const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/dashboard/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': dashboardPolicy() });
    response.end(PAGE);
    return;
  }
  const detail = /^\/checkout\/orders\/(ORD-\d+)$/.exec(url.pathname);
  const found = detail && MORE_ORDERS.find((each) => each.reference === detail[1]);
  if (found) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(orderDetailAnswer(found)));
    return;
  }
  const operations = operationsAnswer(request.method ?? 'GET', url);
  if (operations) {
    response.writeHead(operations.status ?? 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(operations.body));
    return;
  }
  if (url.pathname.startsWith('/l/')) {
    // The link's hosted page, as the backend serves it to the dashboard's preview frame (its own policy allows 'self').
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'" });
    response.end('<!doctype html><html lang="en"><head><title>Spring concert tickets</title><style>body{font:16px system-ui;margin:0;padding:24px;background:#fff;color:#111}h1{font-size:20px}button{padding:12px 16px;background:#0f766e;color:#fff;border:0;border-radius:8px}</style></head><body><p>Acme Stores</p><h1>Spring concert tickets</h1><p>Two seats, row F.</p><p><strong>₦15,000.00</strong></p><label>E-mail <input></label><p><button>Pay</button></p></body></html>');
    return;
  }
  if (url.pathname === '/checkout/orders') {
    const q = url.searchParams.get('q');
    const items = q ? MORE_ORDERS.filter((each) => each.reference === q) : MORE_ORDERS;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(orderPage(items, q ? null : 'next-page-cursor')));
    return;
  }
  vite.middlewares(request, response, () => {
    response.writeHead(404);
    response.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: EXECUTABLE, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const failures: string[] = [];
try {
  for (const [variant, settings] of Object.entries(VARIANTS)) {
    const context = await browser.newContext({ viewport: { width: settings.width, height: settings.height }, locale: settings.locale, colorScheme: settings.colorScheme });
    for (const screen of SCREENS) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber} ${event.sample}`));
      });
      await page.goto(`${base}/dashboard/${'signedOut' in screen ? '?signed-out' : ''}${screen.hash}`);
      await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
      if ('code' in screen) {
        await page.getByLabel(/E-mail/).fill('ada@acme.test');
        await page.getByLabel(/Password|Mot de passe/).fill('correct horse battery');
        await page.locator('dash-sign-in button[type=submit]').click();
        await page.locator('dash-sign-in #code').waitFor();
      }
      await page.waitForTimeout(300);
      // Through the DevTools protocol: the page's Trusted Types would refuse a script element written by a test.
      await page.evaluate(readFileSync(AXE, 'utf8'));
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
        const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
        return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
      });
      problems.push(...violations.map((violation) => `axe: ${violation}`));
      await page.screenshot({ path: join(OUT, `${screen.name}-${variant}.png`), fullPage: true });
      if (problems.length > 0) failures.push(`${screen.name}-${variant}: ${problems.join('; ')}`);
      console.log(`${screen.name}-${variant}${problems.length ? ` ✗ ${problems.join('; ')}` : ''}`);
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
  await vite.close();
}
if (failures.length > 0) {
  console.error(`\n${failures.length} screenshots with problems:\n${failures.join('\n')}`);
  process.exit(1);
}
