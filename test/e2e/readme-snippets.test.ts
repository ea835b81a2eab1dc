import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startShop, type Shop } from './support/shop.ts';
import { chooseMethod, launchBrowser, newPage, payByCard, screenshot, transferAccount } from './support/browser.ts';
import { ROOT, sendTransfer, verifyOrder } from './support/server.ts';

/**
 * The README's snippets, read from README.md itself so they cannot drift: each `curl` call runs in bash against the
 * server (with the sandbox merchant's secret key as `$SECRET_KEY`), and the embed tag and the two scripts run on a
 * merchant page of their own origin, through a whole payment. Only what a reader must replace is replaced: the
 * checkout's address, the key, and the transfer account (the one the checkout shows).
 */
const server = inject('server');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const run = promisify(execFile);
let browser: Browser;
let shop: Shop;
let shopOrigin: string;
/** The body of the merchant page the next `goto` gets, and its module script. */
let shopPage = { body: '', script: '' };

function snippets(language: string): string[] {
  return [...README.matchAll(/```(\w*)\n([\s\S]*?)```/g)].filter((match) => match[1] === language).map((match) => match[2]!);
}

const withKey = (snippet: string) => snippet.replaceAll('pk_test_…', server.publishableKey).replaceAll('https://<checkout host>', server.baseUrl);
/** The README's scripts for a merchant's page (its server-side snippets, such as the webhook check, import node:). */
const pageScripts = () => snippets('js').filter((snippet) => !snippet.includes("from 'node:"));
const embedTag = () => withKey(snippets('html')[0]!.split('\n').find((line) => line.startsWith('<script'))!);

beforeAll(async () => {
  shop = await startShop((request, response) => {
    if (request.url === '/shop.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(`
for (const type of ['checkout:ready', 'checkout:success', 'checkout:error']) document.addEventListener(type, (event) => {
  const entry = document.createElement('li'); entry.dataset.event = type; entry.dataset.reference = event.reference ?? ''; entry.dataset.code = event.code ?? '';
  entry.textContent = type; document.getElementById('log').append(entry);
});`);
      return;
    }
    if (request.url === '/snippet.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(shopPage.script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Book shop</title><script src="/shop.js"></script></head>
<body><h1>Book shop</h1><ol id="log"></ol>
${shopPage.body}
${shopPage.script ? '<script type="module" src="/snippet.js"></script>' : ''}
</body></html>`);
  });
  shopOrigin = shop.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** A README `sh` block that calls curl, against this server, with the secret key; its JSON answer. */
async function runCurl(snippet: string, replacements: Record<string, string> = {}): Promise<{ status: string; statusCode: string; message: string; data: Record<string, unknown> }> {
  let script = snippet.replaceAll('localhost:8080', new URL(server.baseUrl).host);
  for (const [from, to] of Object.entries(replacements)) script = script.replaceAll(from, to);
  const { stdout } = await run('bash', ['-c', `command -v uuidgen >/dev/null || uuidgen() { cat /proc/sys/kernel/random/uuid; }\nset -e\n${script}`], {
    env: { ...process.env, SECRET_KEY: server.secretKey },
  });
  return JSON.parse(stdout) as never;
}

async function fillDetails(checkout: FrameLocator): Promise<void> {
  await checkout.getByRole('heading', { name: 'Your details' }).waitFor();
  await checkout.getByLabel('First name').fill('Ada');
  await checkout.getByLabel('Last name').fill('Obi');
  await checkout.getByLabel('E-mail address').fill('ada@example.com');
  await checkout.getByRole('button', { name: 'Continue', exact: true }).click();
}

const logEntry = (page: Page, event: string) => page.locator(`#log li[data-event="${event}"]`);

describe('the README, run as written', () => {
  const curls = snippets('sh').filter((snippet) => snippet.includes('curl '));

  it('has the curl calls, the embed tag and the scripts this test runs', () => {
    expect(curls.length).toBeGreaterThanOrEqual(3);
    expect(snippets('html')).toHaveLength(1);
    expect(pageScripts()).toHaveLength(2);
  });

  it('creates payment links with the curl calls, with and without an Idempotency-Key', async () => {
    const links = curls.filter((snippet) => snippet.includes('/checkout/links/create'));
    expect(links).toHaveLength(2);
    for (const snippet of links) {
      const answer = await runCurl(snippet);
      expect(answer).toMatchObject({ status: 'success', statusCode: '00' });
      expect(answer.data['paymentLink']).toMatchObject({ name: 'Spring sale', paymentLinkType: 'Single Charge' });
    }
  });

  it("lists the merchant's orders with the curl call of \"Finding payments\"", async () => {
    const lists = curls.filter((snippet) => snippet.includes('/checkout/orders?'));
    expect(lists).toHaveLength(1);
    const answer = await runCurl(lists[0]!);
    expect(answer).toMatchObject({ status: 'success', statusCode: '00', data: { items: expect.any(Array) } });
    expect((answer.data['items'] as unknown[]).length).toBeLessThanOrEqual(2);
  });

  it('opens a customer session with the curl call', async () => {
    const session = curls.filter((snippet) => snippet.includes('/checkout/customers/sessions'));
    expect(session).toHaveLength(1);
    const answer = await runCurl(session[0]!);
    expect(answer).toMatchObject({ status: 'success', statusCode: '00', data: { customerReference: 'user-1042', customerSession: expect.any(String) } });
  });

  it('pays the embed tag\'s order by transfer: the curl call sends part, the checkout notices it and then the rest by itself', async () => {
    const element = withKey(snippets('html')[0]!.split('\n').filter((line) => !line.startsWith('<script')).join('\n'));
    const reference = /reference="([^"]+)"/.exec(element)![1]!;
    shopPage = { body: `${embedTag()}\n${element}`, script: '' };
    const { page, problems } = await newPage(browser);
    await page.goto(`${shopOrigin}/`);
    const checkout = page.frameLocator('checkout-widget iframe');
    await logEntry(page, 'checkout:ready').waitFor();
    await checkout.getByText('Order ORDER-1042').waitFor();
    await chooseMethod(checkout, 'Bank transfer');
    const account = await transferAccount(checkout);

    const transfer = curls.find((snippet) => snippet.includes('/checkout/sandbox/transfers'))!;
    expect(await runCurl(transfer, { '0123456789': account })).toMatchObject({ status: 'success' });
    // Nobody presses "I have sent the money": the checkout notices within a few seconds.
    await checkout.getByText('We received ₦5,000.00. Send the remaining ₦7,500.00').waitFor({ timeout: 10_000 });
    await sendTransfer(server, account, 7_500);
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
    await logEntry(page, 'checkout:success').waitFor();
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    await screenshot(page, 'readme-embed-tag-transfer-confirmed');
    expect(problems).toEqual([]);
  });

  it('opens Checkout.open with only an amount: the customer gives their details, pays, and the promise resolves with success', async () => {
    shopPage = { body: embedTag(), script: `${withKey(pageScripts()[0]!)}\ndocument.body.dataset.outcome = result.outcome;\ndocument.body.dataset.reference = result.reference;\n` };
    const { page, problems } = await newPage(browser);
    await page.goto(`${shopOrigin}/`);
    const checkout = page.frameLocator('checkout-widget dialog[open] iframe');
    await fillDetails(checkout);
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '5555 5555 5555 4444');
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.locator('body[data-outcome="success"]').waitFor();
    const reference = (await page.locator('body').getAttribute('data-reference')) ?? '';
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    await screenshot(page, 'readme-checkout-open', false);
    expect(problems).toEqual([]);
  });

  it('opens the compatibility global as written and pays', async () => {
    shopPage = { body: embedTag(), script: withKey(pageScripts()[1]!) };
    const { page, problems } = await newPage(browser);
    await page.goto(`${shopOrigin}/`);
    const checkout = page.frameLocator('checkout-widget dialog[open] iframe');
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '5555 5555 5555 4444');
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await logEntry(page, 'checkout:success').waitFor();
    expect((await verifyOrder(server, 'ORDER-1043')).data).toMatchObject({ statusId: 5, status: 'Successful' });
    expect(problems).toEqual([]);
  });
});
