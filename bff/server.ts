import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { exitOnStartupFailure, listenWithBanner, readConfigOrExit } from './process.ts';
import { widgetBuildIsStale } from './widget-build.ts';

/** `npm start`: read config once, build the widget if it was never built or its sources changed since, build the app, listen. */
const config = readConfigOrExit();
const widgetSources = ['../widget/', '../shared/', '../vite.config.ts'].map((source) => fileURLToPath(new URL(source, import.meta.url)));
if (widgetBuildIsStale(config.widgetDir, widgetSources)) {
  process.stderr.write('Building the widget (its sources changed since the last build)...\n');
  const { build } = await import('vite');
  await build({ logLevel: 'warn', build: { outDir: config.widgetDir, emptyOutDir: true } });
}
await buildApp(config)
  .then((app) => listenWithBanner(app, config))
  .catch(exitOnStartupFailure);
