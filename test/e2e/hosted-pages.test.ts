import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { chooseMethod, launchBrowser, newPage, payByCard } from './support/browser.ts';
import { serverCall } from './support/server.ts';

/** The pages the server renders for people: the payment-link form, the link's checkout, the bank's 3-D Secure page. */
const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function linkUrl(): Promise<string> {
  const created = await serverCall<{ statusCode: string; data: { paymentLink: { paymentLinkUrl: string } } }>(server, '/checkout/links/create', {
    Name: 'Pottery workshop',
    Description: 'One seat at the Saturday workshop.',
    PaymentType: 'SC',
    Currency: 'NGN',
    AuthOption: 'AUTH',
    Amount: '5800.50',
  });
  expect(created.statusCode).toBe('00');
  return created.data.paymentLink.paymentLinkUrl;
}

/** The link's form, then its checkout, then the bank's page: `visit` runs on each once it is drawn. */
async function throughHostedPages(page: Page, visit: (name: string) => Promise<void>): Promise<void> {
  await page.goto(await linkUrl());
  await page.getByRole('heading', { name: 'Pottery workshop' }).waitFor();
  await visit('link form');
  await page.getByLabel('First name').fill('Chidi');
  await page.getByLabel('Last name').fill('Okeke');
  await page.getByLabel('E-mail').fill('chidi@example.test');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('radio', { name: /^Card/ }).waitFor();
  await visit('link checkout');
  await chooseMethod(page, 'Card');
  await payByCard(page, '4242 4242 4242 4242');
  await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor();
  await visit('3-D Secure page');
}

describe('the hosted pages', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`have text with enough contrast (WCAG AA) in ${colorScheme} mode`, async () => {
      const { page } = await newPage(browser, { width: 700, height: 1000 });
      await page.emulateMedia({ colorScheme });
      const found: string[] = [];
      await throughHostedPages(page, async (name) => {
        // The checkout draws its own panel; the page around it is the link's header.
        const violations = await axeViolations(page, name === 'link checkout' ? { include: ['.link-header'] } : {});
        found.push(...violations.map((violation) => `${name}: ${violation}`));
      });
      expect(found).toEqual([]);
    });
  }

  it('name an icon the browser finds, so loading them logs no console error', async () => {
    const { page, console: messages } = await newPage(browser, { width: 700, height: 1000 });
    // The browser fetches a page's icon itself, out of the page's sight: its debugging protocol still sees it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const icons: { url: string; status: number }[] = [];
    const waiting: (() => void)[] = [];
    cdp.on('Network.responseReceived', ({ response }) => {
      if (!/^\/(assets\/)?favicon\.(svg|ico)$/.test(new URL(response.url).pathname)) return;
      icons.push({ url: response.url, status: response.status });
      waiting.shift()?.();
    });
    const iconOfPage = async (count: number) => {
      while (icons.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
      return icons[count - 1]!;
    };

    let visited = 0;
    const seen: Record<string, { path: string; status: number }> = {};
    await throughHostedPages(page, async (name) => {
      // The checkout app's page names an empty icon of its own (`data:,`): nothing to fetch.
      if (name === 'link checkout') return;
      const icon = await iconOfPage(++visited);
      seen[name] = { path: new URL(icon.url).pathname, status: icon.status };
    });
    await page.goto(`${server.baseUrl}/checkout/result?reference=LNK-1&status=successful`);
    const result = await iconOfPage(++visited);
    seen['result page'] = { path: new URL(result.url).pathname, status: result.status };

    const icon = { path: '/assets/favicon.svg', status: 200 };
    expect(seen).toEqual({ 'link form': icon, '3-D Secure page': icon, 'result page': icon });
    expect(messages.filter((message) => message.startsWith('error'))).toEqual([]);
  });
});
