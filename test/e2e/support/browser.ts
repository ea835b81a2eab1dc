import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { ROOT } from './server.ts';

/**
 * Debian's Chromium driven by playwright-core. Every page records what would break a merchant's page under a
 * strict Content-Security-Policy: violations reported in any frame (`securitypolicyviolation`), console errors
 * that name the policy, and uncaught errors.
 */
export const SCREENSHOTS = path.join(ROOT, 'test-results/e2e');
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface WatchedPage {
  page: Page;
  /** CSP violations and uncaught errors seen so far, in every frame. */
  problems: string[];
  /** Every console message, for tests that look for what the browser refused. */
  console: string[];
}

/**
 * A fresh browser context and page for the current test, closed when the test finishes. When the test fails, what
 * the page showed is printed first (its event log, every frame's text, the console) and a screenshot is saved as
 * `failed-<test>.png`, so a failure in CI says what the customer saw.
 */
export async function newPage(browser: Browser, viewport = { width: 1000, height: 1100 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, locale: 'en-NG', colorScheme: 'light' });
  const problems: string[] = [];
  const messages: string[] = [];
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} in ${document.location.pathname}`),
    ),
  );
  const page = await context.newPage();
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') await reportFailure(task.name, page, messages).catch((error: unknown) => console.error(`could not report the page: ${String(error)}`));
    await context.close();
  });
  page.on('console', (message) => {
    const text = message.text();
    messages.push(`${message.type()}: ${text}`);
    if (text.startsWith('CSP violation') || /Content Security Policy/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems, console: messages };
}

async function reportFailure(test: string, page: Page, messages: string[]): Promise<void> {
  const lines = [`The page when "${test}" failed: ${page.url()}`];
  for (const frame of page.frames()) {
    const text = await frame
      .evaluate(() => {
        // The checkout renders in shadow roots: read the text a customer sees through them.
        // Scripts and styles are left out (the page's config block names its key); typed values are not text.
        const read = (node: Node): string =>
          node instanceof HTMLScriptElement || node instanceof HTMLStyleElement
            ? ''
            : node instanceof Element && node.shadowRoot
              ? read(node.shadowRoot)
              : node.nodeType === Node.TEXT_NODE
                ? (node.textContent ?? '')
                : [...node.childNodes].map(read).join(' ');
        return read(document.body).replace(/\s+/g, ' ').trim();
      })
      .catch((error: unknown) => `(unreadable: ${String(error)})`);
    lines.push(`frame ${frame.url()}: ${text.slice(0, 2000)}`);
  }
  lines.push('console:', ...messages.slice(-40));
  console.error(lines.join('\n'));
  await screenshot(page, `failed-${test.replace(/[^\w-]+/g, '-').slice(0, 60)}`);
}

/**
 * The demo merchant page with its inline checkout ready and no longer growing: the page's own buttons sit below
 * the inline frame, which resizes to its content, so a click aimed at them while it still grows could land in it.
 */
export async function openDemo(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await logEntry(page, 'checkout:ready', 'inline-checkout').waitFor();
  await settled(page.locator('#inline-checkout iframe'));
}

/** Waits until the element's box has stayed the same for a quarter of a second. */
export async function settled(locator: Locator): Promise<void> {
  let previous = '';
  for (let unchanged = 0, checks = 0; unchanged < 5; checks += 1) {
    if (checks > 200) throw new Error('the element kept moving for ten seconds');
    const box = JSON.stringify(await locator.boundingBox());
    unchanged = box === previous ? unchanged + 1 : 0;
    previous = box;
    await locator.page().waitForTimeout(50);
  }
}

/**
 * Clicks a control of the shop's page itself, below or beside a checkout frame. Chromium sends a click over a frame
 * of another site (another process) by the hit-test regions of the last frame it drew, and Playwright scrolls a
 * control into view and clicks at once: the click went to where the checkout's frame was before the scroll (the
 * demo's Checkout.open button, under the inline frame until scrolled). A person never clicks before the page is
 * drawn after a scroll, so the control is scrolled into view and two frames drawn first.
 */
export async function clickOnPage(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await locator.page().evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await locator.click();
}

/** test-results/e2e/<name>.png: the whole page, or what the viewport shows (a modal dialog over the page). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Where a checkout is: in a frame on the merchant's page, or the page itself (payment links). */
export type Surface = FrameLocator | Page;

/** The checkout inside `<checkout-widget>` (locators pierce its open shadow root). */
export function checkoutIn(page: Page, host = '#inline-checkout'): FrameLocator {
  return page.frameLocator(`${host} iframe`);
}

/** The modal checkout Checkout.open and the compatibility global make. */
export function modalCheckout(page: Page): FrameLocator {
  return page.frameLocator('checkout-widget[mode="modal"] dialog[open] iframe');
}

/** An entry of the demo page's event log, from one source (element id or mode) and for one order when given. */
export function logEntry(page: Page, event: string, source?: string, reference?: string): Locator {
  const filters = [source && `[data-source="${source}"]`, reference && `[data-reference="${reference}"]`].filter(Boolean).join('');
  return page.locator(`#event-log li[data-event="${event}"]${filters}`);
}

/**
 * Chooses a payment method and continues. The choice asks for its fee quote, and the quote's arrival grows the page
 * (and a framed checkout's frame, which a modal dialog then centres again), moving the button: a click aimed while
 * it moves lands beside it. So the click waits for the quote and, in a frame, for the frame to stop moving.
 */
export async function chooseMethod(checkout: Surface, method: 'Card' | 'Bank transfer'): Promise<void> {
  await checkout.getByRole('radio', { name: new RegExp(`^${method}`) }).check();
  await checkout.locator('[data-total]').waitFor();
  if ('owner' in checkout) await settled(checkout.owner());
  await checkout.getByRole('button', { name: method === 'Card' ? 'Continue with card' : 'Get account details' }).click();
}

/** Types a card the way a customer does (the form formats as it goes). */
export async function payByCard(checkout: Surface, number: string): Promise<void> {
  const expiry = `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;
  await checkout.locator('#number').pressSequentially(number);
  await checkout.locator('#expiry').pressSequentially(expiry);
  await checkout.locator('#cvv').pressSequentially('123');
  await checkout.locator('#name').fill('Ada Obi');
  await checkout.getByRole('button', { name: /^Pay / }).click();
}

/** The sandbox issuer's 3-D Secure page: reads the one-time code it shows, then approves or fails. */
export async function authenticate(where: Surface, action: 'approve' | 'fail'): Promise<void> {
  const code = (await where.getByTestId('otp').textContent())?.trim() ?? '';
  if (action === 'approve') {
    await where.getByLabel('One-time code').fill(code);
    await where.getByRole('button', { name: 'Authenticate' }).click();
  } else {
    await where.getByRole('button', { name: 'Fail authentication' }).click();
  }
}

/** The account number and amount the transfer view shows. */
export async function transferAccount(checkout: Surface): Promise<string> {
  const account = (await checkout.locator('.account').textContent())?.replace(/\D/g, '') ?? '';
  if (!/^\d{10}$/.test(account)) throw new Error(`no account number shown: ${account}`);
  return account;
}
