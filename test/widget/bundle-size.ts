import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * Measures the built checkout app (dist/widget) the way a customer's browser loads it, on each of the two pages that
 * serve it: the hosted checkout (a payment-link order's page, the checkout opened directly), whose page has no
 * frame-only link, and the framed checkout (a merchant's inline or modal frame), whose page keeps the links the build
 * marks `data-frame-only` (bff/pages/checkout-page.ts drops them elsewhere). "First paint" is the page and
 * everything it fetches before the checkout can render: the HTML, its stylesheet, its entry module (the API client
 * and its wire schemas included: the first screen reads the page's order through them), the chunks the HTML
 * preloads at normal priority, and every chunk those import statically, Lit included. "Before the first interactive
 * screen" (the order summary and the payment options) adds what a reload that finds a resume record reads it with
 * (the record's schema). A French customer adds the French catalog to both. Chunks reached only through `import()` later (the card and transfer views, the customer form)
 * are counted in the whole app only.
 *
 *   npx tsx test/widget/bundle-size.ts          prints the tables (after `npm run build`)
 */
export const DIST = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
export const FIRST_PAINT_BUDGET = 35_000; // bytes gzipped, on each page, in English and French
export const BEFORE_INTERACTIVE_BUDGET = 35_000; // bytes gzipped: the performance issue's 35 KB, on each page, in English and French
export const WHOLE_APP_BUDGET = 45_000; // bytes gzipped: everything, lazy chunks included; the performance issue's 45 KB
/** The chunks (by name, vite.config.ts) a checkout may load before its first interactive screen, beside the first paint. */
const API_CHUNKS = /^assets\/session-schema-[\w-]+\.js$/;
/** The French catalog, fetched by French customers before the checkout draws any words. */
const FRENCH_CHUNK = /^assets\/fr-[\w-]+\.js$/;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export type PageName = 'hosted' | 'framed';

/** What one page loads, in bytes gzipped. */
export interface PageReport {
  page: PageName;
  firstPaint: FileSize[];
  /** What may load before the first interactive screen beside the first paint: the resume record's schema. */
  api: FileSize[];
  firstPaintGzip: number;
  beforeInteractiveGzip: number;
  /** The same with the French catalog. */
  frenchFirstPaintGzip: number;
  frenchBeforeInteractiveGzip: number;
}

export interface BundleReport {
  /** The checkout opened directly: no frame-only link. */
  hosted: PageReport;
  /** The checkout in a merchant's frame: the frame-only preloads (the frame bridge) count in its first paint. */
  framed: PageReport;
  /** Every file of the app: the page, its stylesheet and every chunk. */
  files: FileSize[];
  french: FileSize;
  /** Everything not in the hosted page's first paint, fetched with `import()` or on the framed page only. */
  lazy: FileSize[];
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

const sum = (files: FileSize[]) => files.reduce((total, file) => total + file.gzip, 0);

export function measureBundle(dist: string = DIST): BundleReport {
  const html = readFileSync(join(dist, 'checkout.html'), 'utf8');
  // The build's .br and .gz variants are other encodings of the same files, not more of them.
  const assets = readdirSync(join(dist, 'assets'))
    .filter((file) => !/\.(br|gz)$/.test(file))
    .map((file) => `assets/${file}`);
  const files = ['checkout.html', ...assets].map((file) => sizeOf(dist, file));
  const size = (file: string) => files.find((each) => each.file === file)!;
  const french = files.find((file) => FRENCH_CHUNK.test(file.file));
  if (!french) throw new Error('The French catalog is not a chunk of its own.');

  const page = (name: PageName): PageReport => {
    // Asset URLs start with the build's base, /widget/, where the backend serves dist/widget. Low-priority preloads
    // would load beside the first paint, not before it.
    const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)]
      .filter((tag) => !tag[0].includes('fetchpriority="low"') && (name === 'framed' || !/\sdata-frame-only\b/.test(tag[0])))
      .flatMap((tag) => /\s(?:src|href)="(?:\.|\/widget)\/([^"]+)"/.exec(tag[0])?.[1] ?? []);
    const firstPaintFiles = withStaticImports(dist, ['checkout.html', ...referenced]);
    const apiFiles = [...withStaticImports(dist, assets.filter((file) => API_CHUNKS.test(file)))].filter((file) => !firstPaintFiles.has(file));
    const firstPaint = [...firstPaintFiles].map(size);
    const api = apiFiles.map(size);
    const firstPaintGzip = sum(firstPaint);
    const beforeInteractiveGzip = firstPaintGzip + sum(api);
    return {
      page: name,
      firstPaint,
      api,
      firstPaintGzip,
      beforeInteractiveGzip,
      frenchFirstPaintGzip: firstPaintGzip + french.gzip,
      frenchBeforeInteractiveGzip: beforeInteractiveGzip + french.gzip,
    };
  };

  const hosted = page('hosted');
  const framed = page('framed');
  return {
    hosted,
    framed,
    files,
    french,
    lazy: files.filter((file) => !hosted.firstPaint.includes(file)),
    wholeAppGzip: sum(files),
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
  const { hosted, framed } = report;
  const when = (file: FileSize) =>
    hosted.firstPaint.includes(file)
      ? 'first paint'
      : framed.firstPaint.includes(file)
        ? 'first paint, framed page only'
        : hosted.api.includes(file)
          ? 'a reload that finds a resume record'
          : file === report.french
            ? 'French customers, before any words'
            : 'on demand';
  const order = ['first paint', 'first paint, framed page only', 'a reload that finds a resume record', 'French customers, before any words', 'on demand'];
  const files = [...report.files].sort((a, b) => order.indexOf(when(a)) - order.indexOf(when(b)));
  const both = (label: string, of: (page: PageReport) => number) => `| ${label} | ${kb(of(hosted))} | ${kb(of(framed))} |`;
  return [
    '| file | raw | gzip | loads |',
    '|---|---|---|---|',
    ...files.map((file) => `| ${file.file} | ${kb(file.raw)} | ${kb(file.gzip)} | ${when(file)} |`),
    '',
    '| gzip | hosted checkout page | framed checkout |',
    '|---|---|---|',
    both('first paint', (page) => page.firstPaintGzip),
    both('first paint in French', (page) => page.frenchFirstPaintGzip),
    both('before the first interactive screen', (page) => page.beforeInteractiveGzip),
    both('before the first interactive screen in French', (page) => page.frenchBeforeInteractiveGzip),
    `| whole app | ${kb(report.wholeAppGzip)} | |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatReport(measureBundle()));
}
