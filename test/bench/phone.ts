import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import type { ServerKeys } from '../e2e/support/server.ts';

/**
 * The checkout's first interactive screen on a throttled phone, measured in Debian's Chromium.
 *
 * The profile is Chrome DevTools' "Slow 4G" (562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) with the CPU
 * slowed four times, on a 390 x 844 touch screen, every visit with an empty cache. Two ways a customer meets the
 * checkout, each timed from the start of the page's navigation to the moment the payment options enter the page
 * (the order made, its summary rendered, a method can be chosen; the browser draws them in that frame). Not to
 * `checkout:ready`: the checkout says that as it knows the order, before it has rendered it. A mutation observer on
 * every shadow root the page attaches sees the first radio button added, whatever frame the checkout is in:
 *
 * - `hosted`: the checkout opened directly, a payment-link order's page (the server made the order and put it in
 *   the page: the page and its scripts, nothing else);
 * - `embedded`: the demo merchant page with its inline `<checkout-widget>` (the merchant's page and its scripts,
 *   embed.js, then the checkout's frame and its scripts).
 *
 * Each sample says how many requests the browser finished before that moment, their bytes as sent (gzip included),
 * and the request chain: the longest run of requests each of which could only start once the one before it had
 * answered (a page, then the scripts it names, then the frame a script opens, ...). A request a page's parser
 * makes follows that page; one a script makes follows every request answered before it started. Under Slow 4G every request
 * costs at least one round trip, so `chain x 562.5 ms` is the floor no byte or CPU saving can go under.
 */
export const PHONE = {
  latencyMs: 562.5,
  downloadBytesPerSecond: (1.6 * 1000 * 1000 * 0.9) / 8,
  uploadBytesPerSecond: (750 * 1000 * 0.9) / 8,
  cpuSlowdown: 4,
} as const;

export type PhoneSample = { readyMs: number; requests: number; kilobytes: number; chain: number };
export type PhoneRun = { hosted: PhoneSample[]; embedded: PhoneSample[] };

/** The floor of a request chain under the profile: one round trip per request in it. */
export const chainFloorMs = (chain: number): number => chain * PHONE.latencyMs;

type Initiator = { type: string; url?: string; stack?: StackTrace };
type StackTrace = { callFrames: { url: string }[]; parent?: StackTrace };

/** The addresses an initiator names: the document or script whose parsing or code asked for the request. */
function initiatorUrls(initiator: Initiator): string[] {
  const urls = initiator.url ? [initiator.url] : [];
  for (let stack = initiator.stack; stack; stack = stack.parent) urls.push(...stack.callFrames.map((frame) => frame.url));
  return urls.filter(Boolean);
}

async function measureOnce(browser: Browser, url: string, interactive: (page: Page) => Promise<void>): Promise<PhoneSample> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-NG', colorScheme: 'light' });
  try {
    await context.addInitScript(() => {
      const radio = 'input[type="radio"], [role="radio"]';
      const found = window as unknown as { optionsRenderedAt?: number };
      const observer = new MutationObserver((records) => {
        const added = records.flatMap((record) => [...record.addedNodes]);
        if (!added.some((node) => node instanceof Element && (node.matches(radio) || node.querySelector(radio) !== null))) return;
        // On the clock of the top page's navigation, whatever frame renders the checkout: its time origin plus its time.
        found.optionsRenderedAt ??= performance.timeOrigin + performance.now();
        observer.disconnect();
      });
      const attachShadow = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
        const root = attachShadow.call(this, init);
        observer.observe(root, { childList: true, subtree: true });
        return root;
      };
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBytesPerSecond,
      uploadThroughput: PHONE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
    let bytes = 0;
    let requests = 0;
    let chain = 0;
    let finishedDepth = 0;
    let ready = false;
    // The depth of each address in the chain: 1 for the page, 1 + its initiator's for what a page or script asked for.
    const depthOf = new Map<string, number>();
    const pending = new Map<string, { url: string; depth: number }>();
    cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string }; initiator: Initiator }) => {
      if (event.request.url.startsWith('data:')) return;
      // What a script asks for (a fetch, a frame's document posted by a form, which names no initiator) may have
      // waited for any answer before it: it follows the deepest request finished by then. What a page's parser
      // asks for follows that page.
      const scripted = event.initiator.type !== 'parser' && event.initiator.type !== 'preload' && depthOf.size > 0;
      const after = scripted ? finishedDepth : 0;
      const depth = 1 + Math.max(after, ...initiatorUrls(event.initiator).map((initiator) => depthOf.get(initiator) ?? 0));
      pending.set(event.requestId, { url: event.request.url, depth });
      if (!depthOf.has(event.request.url)) depthOf.set(event.request.url, depth);
    });
    cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
      const request = pending.get(event.requestId);
      if (!request) return;
      finishedDepth = Math.max(finishedDepth, request.depth);
      if (ready) return;
      bytes += event.encodedDataLength;
      requests += 1;
      chain = Math.max(chain, request.depth);
    });
    // The frame's address changes from the form's to its session's (history.replaceState): the same document.
    page.on('framenavigated', (frame) => {
      const reached = frame.url();
      if (depthOf.has(reached)) return;
      const posted = [...depthOf.entries()].find(([address]) => address.endsWith('/checkout/frame'));
      if (posted) depthOf.set(reached, posted[1]);
    });
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    const renderedAt = async () => {
      const times = await Promise.all(page.frames().map((frame) => frame.evaluate(() => (window as unknown as { optionsRenderedAt?: number }).optionsRenderedAt).catch(() => undefined)));
      return times.find((time) => time !== undefined);
    };
    const deadline = Date.now() + 60_000;
    let rendered: number | undefined;
    while ((rendered = await renderedAt()) === undefined) {
      if (Date.now() > deadline) throw new Error(`no payment options were rendered within a minute at ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    ready = true;
    const readyMs = rendered - (await page.evaluate(() => performance.timeOrigin));
    // The first interactive screen: the payment options can be chosen.
    await interactive(page);
    return { readyMs, requests, kilobytes: bytes / 1000, chain };
  } finally {
    await context.close();
  }
}

/** A new order of a payment link, made as the link's form makes it: the address of its checkout page. */
async function paymentLinkOrder(server: ServerKeys, linkUrl: string): Promise<string> {
  const form = await (await fetch(linkUrl)).text();
  const order = /name="order" value="([^"]+)"/.exec(form)?.[1];
  if (!order) throw new Error('the payment-link page has no order field');
  const answer = await fetch(linkUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl },
    body: new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '', amount: '', order }).toString(),
  });
  const location = answer.headers.get('location');
  if (!location) throw new Error(`the payment-link form answered ${answer.status} without an address`);
  return new URL(location, server.baseUrl).href;
}

async function createPaymentLink(server: ServerKeys): Promise<string> {
  const response = await fetch(`${server.baseUrl}/checkout/links/create`, {
    method: 'POST',
    headers: { 'api-key': server.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: 'Two books', Description: 'Things Fall Apart and Half of a Yellow Sun.', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'AUTH', Amount: 12500 }),
  });
  const answer = (await response.json()) as { data?: { paymentLink?: { paymentLinkUrl?: string } } };
  const url = answer.data?.paymentLink?.paymentLinkUrl;
  if (!url) throw new Error(`the payment link could not be created: ${response.status}`);
  return url;
}

/** `repetitions` of each, interleaved (hosted, embedded, hosted, ...): the machine is shared and noisy. */
export async function measurePhone(server: ServerKeys, repetitions: number): Promise<PhoneRun> {
  const browser = await launchBrowser();
  const run: PhoneRun = { hosted: [], embedded: [] };
  try {
    const link = await createPaymentLink(server);
    for (let round = 0; round < repetitions; round += 1) {
      run.hosted.push(
        await measureOnce(browser, await paymentLinkOrder(server, link), (page) => page.getByRole('radio', { name: /^Card/ }).waitFor({ timeout: 10_000 })),
      );
      run.embedded.push(
        await measureOnce(browser, `${server.baseUrl}/demo/`, (page) =>
          page.frameLocator('#inline-checkout iframe').getByRole('radio', { name: /^Card/ }).waitFor({ timeout: 10_000 }),
        ),
      );
    }
  } finally {
    await browser.close();
  }
  return run;
}
