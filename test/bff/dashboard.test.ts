import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, newPlace, startApp, type Place } from '../support/app.ts';
import { fakeWidgetDir } from '../support/widget-page.ts';

/** A built dashboard as Vite writes it: the page and one hashed asset. */
function fakeDashboardDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkout-dashboard-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="/dashboard/assets/dashboard-abc123.js"></script></head><body><dash-app></dash-app></body></html>');
  writeFileSync(path.join(dir, 'assets', 'dashboard-abc123.js'), 'export {};\n');
  return dir;
}

describe('the dashboard page', () => {
  let place: Place;
  let app: FastifyInstance;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { CHECKOUT_WIDGET_DIR: fakeWidgetDir(), CHECKOUT_DASHBOARD_DIR: fakeDashboardDir() });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  it('is served at /dashboard/ with its own strict policy: no inline script or style, never framed', async () => {
    const page = await app.inject({ method: 'GET', url: '/dashboard/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<dash-app>');
    const policy = String(page.headers['content-security-policy']);
    const directives = Object.fromEntries(policy.split(/;\s*/).map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]));
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['style-src']).toBe("'self'");
    expect(directives['connect-src']).toBe("'self'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|sha256-|nonce-/);
    expect(policy).toContain("require-trusted-types-for 'script'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('is never cached, while its hashed assets are immutable', async () => {
    const page = await app.inject({ method: 'GET', url: '/dashboard/' });
    expect(page.headers['cache-control']).toBe('no-store');
    const asset = await app.inject({ method: 'GET', url: '/dashboard/assets/dashboard-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends /dashboard to /dashboard/, and answers 404 for an asset it does not have', async () => {
    const bare = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/dashboard/');
    expect((await app.inject({ method: 'GET', url: '/dashboard/assets/nothing-here.js' })).statusCode).toBe(404);
  });

  it('answers the error envelope, not a broken page, on a server where the dashboard was never built', async () => {
    const unbuilt = newPlace('pglite');
    const bare = await startApp(unbuilt, { CHECKOUT_WIDGET_DIR: fakeWidgetDir(), CHECKOUT_DASHBOARD_DIR: path.join(unbuilt.dataDir, 'no-dashboard') });
    try {
      const page = await bare.inject({ method: 'GET', url: '/dashboard/' });
      expect(page.statusCode).toBe(404);
      expect(page.json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
    } finally {
      await bare.close();
      await cleanPlace(unbuilt);
    }
  });
});
