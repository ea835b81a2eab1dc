import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A built checkout page as Vite writes it, in a folder of its own for `CHECKOUT_WIDGET_DIR`: the config block the
 * backend fills in is the part that matters to the backend's tests.
 */
export function fakeWidgetDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkout-widget-'));
  writeFileSync(
    path.join(dir, 'checkout.html'),
    '<!doctype html><html><head><script type="module" src="/widget/assets/checkout.js"></script></head><body><main><ck-checkout></ck-checkout></main><script type="application/json" id="checkout-config">{}</script></body></html>',
  );
  return dir;
}

/** The settings a served checkout page hands the widget (its JSON data block). */
export function configOf(html: string): Record<string, unknown> {
  return JSON.parse(/<script type="application\/json" id="checkout-config">([\s\S]*?)<\/script>/.exec(html)![1]!);
}
