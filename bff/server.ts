import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { PROJECT_ROOT } from './paths.ts';
import { exitOnStartupFailure, listenWithBanner, readConfigOrExit, runPrimary, workerCount } from './process.ts';
import { widgetBuildIsStale } from './widget-build.ts';

/**
 * `npm start`: read config once; in the first process, build the widget if it was never built or its sources
 * changed since, then either serve in this process (one worker, or PGlite) or run `WORKERS` server processes with
 * node:cluster (sharing the port, the database's job queue and Redis). Each server process builds the app and listens.
 */
const config = readConfigOrExit();

async function buildWidgetIfStale(config: Config): Promise<void> {
  // One `vite build` makes the widget and the dashboard beside it.
  const widgetSources = ['widget', 'dashboard', 'shared', 'vite.config.ts'].map((source) => path.join(PROJECT_ROOT, source));
  if (!widgetBuildIsStale(config.widgetDir, widgetSources) && existsSync(path.join(config.dashboardDir, 'index.html'))) return;
  process.stderr.write('Building the widget (its sources changed since the last build)...\n');
  const { build } = await import('vite');
  await build({
    configFile: path.join(PROJECT_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: config.widgetDir, emptyOutDir: true },
  });
}

async function serve(config: Config): Promise<void> {
  await buildApp(config)
    .then((app) => listenWithBanner(app, config))
    .catch(exitOnStartupFailure);
}

if (cluster.isPrimary) {
  await buildWidgetIfStale(config).catch(exitOnStartupFailure);
  const workers = workerCount(config);
  if (workers === 1) await serve(config);
  else await runPrimary(config, workers, new URL(import.meta.url));
} else {
  await serve(config);
}
