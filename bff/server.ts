import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { listenWithBanner, readConfigOrExit } from './process.ts';

/** `npm start`: read config once, build the widget if it was never built, build the app, listen. */
const config = readConfigOrExit();
if (!existsSync(path.join(config.widgetDir, 'checkout.html'))) {
  process.stderr.write('Building the widget (first start)...\n');
  const { build } = await import('vite');
  await build({ logLevel: 'warn', build: { outDir: config.widgetDir, emptyOutDir: true } });
}
await listenWithBanner(await buildApp(config), config);
