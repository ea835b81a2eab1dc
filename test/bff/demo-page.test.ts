import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, newPlace, startApp, type Place } from '../support/app.ts';
import { fakeWidgetDir } from '../support/widget-page.ts';

const widgetDir = fakeWidgetDir();

/** The demo merchant page shows the sandbox merchant's publishable key: a development aid, not a production page. */
describe('the demo merchant page', () => {
  let place: Place;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await cleanPlace(place);
  });

  const start = async (environment: Record<string, string>) => {
    place = newPlace('pglite');
    app = await startApp(place, { CHECKOUT_WIDGET_DIR: widgetDir, ...environment });
  };
  /** A served demo page answers HTML (the page, or the page saying no sandbox merchant exists); an unserved one the API's 404 envelope. */
  const served = async () => {
    const page = await app.inject({ method: 'GET', url: '/demo/' });
    return String(page.headers['content-type']).startsWith('text/html');
  };

  it('is not served in production: the route does not exist there', async () => {
    await start({ NODE_ENV: 'production' });
    const page = await app.inject({ method: 'GET', url: '/demo/' });
    expect(page.statusCode).toBe(404);
    expect(page.json()).toMatchObject({ status: 'failed', statusCode: 'NF404' });
    expect((await app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(404);
  });

  it('is served in production only when the operator asks for it', async () => {
    await start({ NODE_ENV: 'production', CHECKOUT_DEMO_PAGE: '1' });
    expect(await served()).toBe(true);
  });

  it('is served in development by default', async () => {
    await start({ NODE_ENV: 'development' });
    expect(await served()).toBe(true);
  });
});
