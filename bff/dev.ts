import { createServer as createHttpServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer } from 'vite';
import { buildApp } from './app.ts';
import { exitOnStartupFailure, listenWithBanner, readConfigOrExit } from './process.ts';

/**
 * `npm run dev`: one port for everything. Vite's dev server (hot reload) answers the widget under /widget/;
 * every other request goes to the backend, which takes its page templates from Vite too.
 */
const config = readConfigOrExit();
const widgetRoot = fileURLToPath(new URL('../widget/', import.meta.url));
const httpServer = createHttpServer();
// Vite 8 shares the HTTP server for its hot-reload WebSocket through `server.ws.server` (`server.hmr.server` is deprecated).
const vite = await createViteServer({ server: { middlewareMode: true, ws: { server: httpServer } }, appType: 'custom' });

const app = await buildApp(config, {
  templates: async (page) => {
    try {
      return await vite.transformIndexHtml(`/widget/${page}`, await readFile(`${widgetRoot}${page}`, 'utf8'));
    } catch {
      return undefined;
    }
  },
  serverFactory: (handler) => {
    httpServer.on('request', (request, response) => {
      if (request.url?.startsWith('/widget/')) vite.middlewares(request, response, () => handler(request, response));
      else handler(request, response);
    });
    return httpServer;
  },
}).catch(exitOnStartupFailure);
// The app is ready (no more hooks); closing it closes the HTTP server, and Vite with it.
httpServer.once('close', () => void vite.close());
await listenWithBanner(app, config, ['  widget: Vite dev server with hot reload under /widget/']).catch(exitOnStartupFailure);
