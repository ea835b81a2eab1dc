import { launchBrowser } from '../e2e/support/browser.ts';

/**
 * The checkout's first interactive screen on a throttled phone, measured in Debian's Chromium.
 *
 * The profile is Chrome DevTools' "Slow 4G" (562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) with the CPU
 * slowed four times, on a 390 x 844 touch screen, every visit with an empty cache. The time is from the start of
 * the navigation of the demo merchant page to `checkout:ready` on its inline checkout: the element has loaded,
 * its frame has loaded the checkout app, the app has created the order through the API and shows the summary and
 * the payment options. What the browser fetched before that moment is counted too (bytes as sent, gzip included).
 */
export const PHONE = {
  latencyMs: 562.5,
  downloadBytesPerSecond: (1.6 * 1000 * 1000 * 0.9) / 8,
  uploadBytesPerSecond: (750 * 1000 * 0.9) / 8,
  cpuSlowdown: 4,
} as const;

export type PhoneSample = { readyMs: number; requests: number; kilobytes: number };

export async function measurePhone(baseUrl: string, repetitions: number): Promise<PhoneSample[]> {
  const browser = await launchBrowser();
  const samples: PhoneSample[] = [];
  try {
    for (let round = 0; round < repetitions; round += 1) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-NG', colorScheme: 'light' });
      try {
        await context.addInitScript(() => {
          document.addEventListener('checkout:ready', () => ((window as unknown as { checkoutReadyAt?: number }).checkoutReadyAt ??= performance.now()), true);
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
        let ready = false;
        cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
          if (ready) return;
          bytes += event.encodedDataLength;
          requests += 1;
        });
        await page.goto(`${baseUrl}/demo/`, { waitUntil: 'commit', timeout: 60_000 });
        await page.waitForFunction(() => (window as unknown as { checkoutReadyAt?: number }).checkoutReadyAt !== undefined, undefined, { timeout: 60_000, polling: 50 });
        ready = true;
        const readyMs = await page.evaluate(() => (window as unknown as { checkoutReadyAt: number }).checkoutReadyAt);
        // The first interactive screen: the payment options can be chosen.
        await page.frameLocator('#inline-checkout iframe').getByRole('radio', { name: /^Card/ }).waitFor({ timeout: 10_000 });
        samples.push({ readyMs, requests, kilobytes: bytes / 1000 });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return samples;
}

