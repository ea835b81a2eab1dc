import { createServer as createHttpServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer } from 'vite';
import { dashboardConfig, dashboardRoot } from '../vite.config.ts';
import { buildApp } from './app.ts';
import { exitOnStartupFailure, listenWithBanner, readConfigOrExit } from './process.ts';

/**
 * `npm run dev`: one port for everything. Vite's dev servers (hot reload) answer the widget under /widget/ and the
 * dashboard's modules under /dashboard/; every other request goes to the backend, which takes its page templates
 * (the dashboard's page included, served with its own strict policy) from Vite too. Each dev server's hot-reload
 * WebSocket answers at its own base path on the same HTTP server.
 */
const config = readConfigOrExit();
const widgetRoot = fileURLToPath(new URL('../widget/', import.meta.url));
const httpServer = createHttpServer();
// Vite 8 shares the HTTP server for its hot-reload WebSocket through `server.ws.server` (`server.hmr.server` is deprecated).
const vite = await createViteServer({ server: { middlewareMode: true, ws: { server: httpServer } }, appType: 'custom' });
const dashboardVite = await createViteServer({
  ...dashboardConfig(''),
  logLevel: 'info',
  server: { ...dashboardConfig('').server, middlewareMode: true, ws: { server: httpServer } },
  appType: 'custom',
});

const app = await buildApp(config, {
  templates: async (page) => {
    try {
      return await vite.transformIndexHtml(`/widget/${page}`, await readFile(`${widgetRoot}${page}`, 'utf8'));
    } catch {
      return undefined;
    }
  },
  dashboardPage: async () => {
    try {
      return await dashboardVite.transformIndexHtml('/dashboard/', await readFile(`${dashboardRoot}/index.html`, 'utf8'));
    } catch {
      return undefined;
    }
  },
  serverFactory: (handler) => {
    httpServer.on('request', (request, response) => {
      if (request.url?.startsWith('/widget/')) vite.middlewares(request, response, () => handler(request, response));
      // The page itself (`/dashboard/`) is the backend's: Vite passes it on.
      else if (request.url?.startsWith('/dashboard/')) dashboardVite.middlewares(request, response, () => handler(request, response));
      else handler(request, response);
    });
    return httpServer;
  },
}).catch(exitOnStartupFailure);
// The app is ready (no more hooks); closing it closes the HTTP server, and Vite with it.
httpServer.once('close', () => void Promise.all([vite.close(), dashboardVite.close()]));
await listenWithBanner(app, config, ['  widget: Vite dev server with hot reload under /widget/', '  dashboard: /dashboard/, with hot reload']).catch(exitOnStartupFailure);
