import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { widgetBuildIsStale } from '../../bff/widget-build.ts';

/** A project folder with widget/, shared/, vite.config.ts and a build in dist/widget, each file dated as the test says. */
describe('npm start decides whether to build the widget', () => {
  let root: string;
  const at = (file: string, minutesAgo: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, file);
    const time = new Date(Date.now() - minutesAgo * 60_000);
    utimesSync(full, time, time);
  };
  const stale = () => widgetBuildIsStale(path.join(root, 'dist/widget'), ['widget', 'shared', 'vite.config.ts'].map((source) => path.join(root, source)));

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'widget-build-'));
    at('widget/components/checkout.ts', 30);
    at('widget/embed/embed.ts', 30);
    at('shared/money.ts', 30);
    at('vite.config.ts', 30);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when the widget was never built', () => {
    expect(stale()).toBe(true);
  });

  it('serves the build as it is when nothing the build reads changed after it', () => {
    at('dist/widget/checkout.html', 10);
    expect(stale()).toBe(false);
  });

  it('rebuilds when a widget source deep in a folder changed after the build', () => {
    at('dist/widget/checkout.html', 10);
    at('widget/embed/embedded-frame.ts', 1);
    expect(stale()).toBe(true);
  });

  it('rebuilds when the shared contract or the Vite config changed after the build', () => {
    at('dist/widget/checkout.html', 10);
    at('shared/orders.ts', 1);
    expect(stale()).toBe(true);
    at('shared/orders.ts', 20);
    at('vite.config.ts', 1);
    expect(stale()).toBe(true);
  });
});
