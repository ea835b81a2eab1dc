import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** What the dashboard's page loads before any screen (its shell), and every other chunk, gzipped. */
export const SHELL_BUDGET = 40_000;

export interface DashboardReport {
  shell: { file: string; gzip: number }[];
  shellGzip: number;
  chunks: { file: string; gzip: number }[];
}

const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The shell is every script the page names (its entry and the modules it preloads); the rest load with screens. */
export function measureDashboard(dist: string): DashboardReport {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const named = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const shell = named.map((file) => ({ file, gzip: gzip(path.join(dist, file)) }));
  const chunks = readdirSync(path.join(dist, 'assets'))
    .filter((file) => file.endsWith('.js') && !named.includes(`assets/${file}`))
    .map((file) => ({ file: `assets/${file}`, gzip: gzip(path.join(dist, 'assets', file)) }));
  return { shell, shellGzip: shell.reduce((sum, file) => sum + file.gzip, 0), chunks };
}

export function formatDashboardReport(report: DashboardReport): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;
  return [
    `dashboard shell: ${kb(report.shellGzip)} gzipped`,
    ...report.shell.map((file) => `  ${file.file}: ${kb(file.gzip)}`),
    'loaded with a screen:',
    ...report.chunks.map((file) => `  ${file.file}: ${kb(file.gzip)}`),
  ].join('\n');
}
