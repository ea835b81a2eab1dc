import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The inline script of the fake checkout page, which its Content-Security-Policy must allow by its hash. */
export const PAGE_SCRIPT = 'new Intl.NumberFormat().format(0)';

/**
 * A built checkout page as Vite writes it, in a folder of its own for `CHECKOUT_WIDGET_DIR`: the config block the
 * backend fills in and the inline script it allows by hash are the parts that matter to the backend's tests.
 */
export function fakeWidgetDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkout-widget-'));
  writeFileSync(
    path.join(dir, 'checkout.html'),
    `<!doctype html><html><head><script>${PAGE_SCRIPT}</script><script type="module" src="/widget/assets/checkout.js"></script></head><body><main><ck-checkout></ck-checkout></main><script type="application/json" id="checkout-config">{}</script></body></html>`,
  );
  return dir;
}

/** The settings a served checkout page hands the widget (its JSON data block). */
export function configOf(html: string): Record<string, unknown> {
  return JSON.parse(/<script type="application\/json" id="checkout-config">([\s\S]*?)<\/script>/.exec(html)![1]!);
}
