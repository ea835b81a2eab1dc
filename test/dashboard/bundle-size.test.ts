import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'vite';
import { dashboardConfig } from '../../vite.config.ts';
import { formatDashboardReport, measureDashboard, SHELL_BUDGET, type DashboardReport } from './bundle-size.ts';

/** Builds the dashboard alone (the project's dashboard config, into a folder of its own) and holds its shell to budget. */
const out = mkdtempSync(path.join(tmpdir(), 'dashboard-build-'));
let report: DashboardReport;

before(async () => {
  await build(dashboardConfig(out));
  report = measureDashboard(out);
  console.log(formatDashboardReport(report));
});
after(() => rmSync(out, { recursive: true, force: true }));

test('the dashboard shell (Lit, the router, the navigation, English) stays within 40 KB gzipped', () => {
  assert.ok(report.shell.length > 0, 'the page loads at least one module');
  assert.ok(report.shellGzip <= SHELL_BUDGET, `the shell is ${report.shellGzip} bytes gzipped, over ${SHELL_BUDGET}`);
});

test('every screen, the chart library and the contract schemas load after the shell, not with it', () => {
  const shellCode = report.shell.map((file) => readFileSync(path.join(out, file.file), 'utf8')).join('\n');
  for (const tag of ['dash-home', 'dash-payments', 'dash-payment', 'dash-sign-in', 'dash-accept', 'dash-volume-chart']) {
    assert.ok(!shellCode.includes(`customElement("${tag}")`) && !new RegExp(`define\\("${tag}"`).test(shellCode), `${tag} is defined in the shell`);
  }
  assert.ok(!shellCode.includes('uplot'), 'uPlot is in the shell');
  assert.ok(report.chunks.length >= 4, 'the screens are chunks of their own');
});

test('the page runs no inline script and loads no stylesheet', () => {
  const html = readFileSync(path.join(out, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'an inline script');
  assert.doesNotMatch(html, /<style|stylesheet/, 'a stylesheet');
});
