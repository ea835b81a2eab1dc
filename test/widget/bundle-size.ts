import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * Measures the built checkout app (dist/widget) the way a customer's browser loads it. "First paint" is the page
 * and everything it fetches before the checkout can render: the HTML, its stylesheet, its entry module, the
 * chunks the HTML preloads (at normal priority), and every chunk those import statically, Lit included. "Before
 * the first interactive screen" (the order summary and the payment options) adds what the first request needs:
 * the API client, the resume record's schema and what they import (the wire schemas). Chunks reached only through
 * `import()` later (the card and transfer views, the customer form, the frame bridge, the French catalog) are
 * counted apart.
 *
 *   npx tsx test/widget/bundle-size.ts          prints the table (after `npm run build`)
 */
export const DIST = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
export const FIRST_PAINT_BUDGET = 35_000; // bytes gzipped
export const BEFORE_INTERACTIVE_BUDGET = 35_000; // bytes gzipped: the performance issue's 35 KB
export const WHOLE_APP_BUDGET = 45_000; // bytes gzipped: everything, lazy chunks included; the performance issue's 45 KB
/** The chunks (by name, vite.config.ts) every checkout loads before its first request, beside the first paint. */
const API_CHUNKS = /^assets\/(client|session-schema)-[\w-]+\.js$/;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface BundleReport {
  firstPaint: FileSize[];
  /** Everything not in the first paint, fetched with `import()` (the API chunks included). */
  lazy: FileSize[];
  /** Of those, what loads before the first interactive screen, beside the first paint: the API client and its schemas. */
  api: FileSize[];
  firstPaintGzip: number;
  beforeInteractiveGzip: number;
  wholeAppGzip: number;
}

const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

function sizeOf(dist: string, file: string): FileSize {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
}

function staticImports(dist: string, file: string): string[] {
  const code = readFileSync(join(dist, file), 'utf8');
  return [...code.matchAll(STATIC_IMPORT)].map((match) => relative(dist, join(dirname(join(dist, file)), match[1]!)));
}

export function measureBundle(dist: string = DIST): BundleReport {
  const html = readFileSync(join(dist, 'checkout.html'), 'utf8');
  // Asset URLs start with the build's base, /widget/, where the backend serves dist/widget.
  // Low-priority preloads (the API client the first request needs) load beside the first paint, not before it.
  const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)]
    .filter((tag) => !tag[0].includes('fetchpriority="low"'))
    .flatMap((tag) => /\s(?:src|href)="(?:\.|\/widget)\/([^"]+)"/.exec(tag[0])?.[1] ?? []);
  const firstPaint = withStaticImports(dist, ['checkout.html', ...referenced]);
  // The build's .br and .gz variants are other encodings of the same files, not more of them.
  const all = readdirSync(join(dist, 'assets'))
    .filter((file) => !/\.(br|gz)$/.test(file))
    .map((file) => `assets/${file}`);
  const api = [...withStaticImports(dist, all.filter((file) => API_CHUNKS.test(file)))].filter((file) => !firstPaint.has(file));
  const firstPaintSizes = [...firstPaint].map((file) => sizeOf(dist, file));
  const lazy = all.filter((file) => !firstPaint.has(file)).map((file) => sizeOf(dist, file));
  const apiSizes = lazy.filter((file) => api.includes(file.file));
  const sum = (files: FileSize[]) => files.reduce((total, file) => total + file.gzip, 0);
  return {
    firstPaint: firstPaintSizes,
    lazy,
    api: apiSizes,
    firstPaintGzip: sum(firstPaintSizes),
    beforeInteractiveGzip: sum(firstPaintSizes) + sum(apiSizes),
    wholeAppGzip: sum(firstPaintSizes) + sum(lazy),
  };
}

/** The files and every chunk they import statically, transitively. */
function withStaticImports(dist: string, files: string[]): Set<string> {
  const found = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (found.has(file)) continue;
    found.add(file);
    if (file.endsWith('.js')) queue.push(...staticImports(dist, file));
  }
  return found;
}

export function formatReport(report: BundleReport): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;
  const row = (file: FileSize) => `| ${file.file} | ${kb(file.raw)} | ${kb(file.gzip)} |`;
  return [
    '| file | raw | gzip |',
    '|---|---|---|',
    ...report.firstPaint.map(row),
    `| **first paint** | | **${kb(report.firstPaintGzip)}** |`,
    ...report.api.map((file) => `${row(file)} (with the first request)`.replace(' | (with the first request)', ' (with the first request) |')),
    `| **before the first interactive screen** | | **${kb(report.beforeInteractiveGzip)}** |`,
    ...report.lazy.filter((file) => !report.api.includes(file)).map((file) => `${row(file)} (on demand)`.replace(' | (on demand)', ' (on demand) |')),
    `| **whole app** | | **${kb(report.wholeAppGzip)}** |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatReport(measureBundle()));
}
