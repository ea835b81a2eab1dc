import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type * as TypeScript from 'typescript';
import { minifyHTMLLiterals } from 'minify-literals';
import { build, defineConfig, type InlineConfig, type Logger, type Plugin } from 'vite';

/**
 * Builds the checkout app page (widget/checkout.html and its entry module) into dist/widget/, served by the
 * backend under /widget/ (the pages themselves are served at /checkout/frame/…, /l/… and /demo/, so asset URLs
 * are absolute), and the embed script merchants load, dist/widget/embed.js (served at /embed.js).
 */
const widgetRoot = fileURLToPath(new URL('./widget', import.meta.url));
const page = (file: string) => fileURLToPath(new URL(`./widget/${file}`, import.meta.url));

/** The checkout app page, and the demo merchant page when the embedding work provides one. */
const input: Record<string, string> = { checkout: page('checkout.html') };
if (existsSync(page('demo/index.html'))) input['demo'] = page('demo/index.html');

/**
 * embed.js is its own bundle: a classic script (IIFE) with a stable name, so a merchant's `<script src>` keeps
 * working and Subresource Integrity can pin it, and so it shares no chunk with the checkout app. It is bundled
 * first, emitted into the app's build, given to the demo page with its integrity, and its hash is printed. In
 * development it is written to the build folder (the backend serves /embed.js from there) and rebuilt on change.
 */
function embedScript(): Plugin {
  let bundled: { code: string; integrity: string } | undefined;
  let outDir = '';
  let logger: Logger | undefined;

  const bundle = async () => {
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      root: widgetRoot,
      build: {
        write: false,
        emptyOutDir: false,
        copyPublicDir: false,
        target: 'es2022',
        lib: { entry: page('embed/embed.ts'), formats: ['iife'], name: 'CheckoutEmbed', fileName: () => 'embed.js' },
      },
    });
    const chunk = [result]
      .flat()
      .flatMap((output) => ('output' in output ? output.output : []))
      .find((file) => file.type === 'chunk');
    if (!chunk || chunk.type !== 'chunk') throw new Error('The embed script did not build.');
    bundled = { code: chunk.code, integrity: `sha384-${createHash('sha384').update(chunk.code).digest('base64')}` };
    return bundled;
  };

  return {
    name: 'checkout-embed-script',
    configResolved(config) {
      outDir = config.build.outDir;
      logger = config.logger;
    },
    async buildStart() {
      await bundle();
    },
    generateBundle() {
      if (bundled) this.emitFile({ type: 'asset', fileName: 'embed.js', source: bundled.code });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!bundled || !context.path.endsWith('demo/index.html')) return undefined;
        return [{ tag: 'script', attrs: { src: '/embed.js', integrity: bundled.integrity, crossorigin: 'anonymous' }, injectTo: 'head' }];
      },
    },
    closeBundle() {
      if (!bundled) return;
      const size = (gzipSync(bundled.code).length / 1000).toFixed(2);
      logger?.info(
        `\nembed.js: ${size} KB gzipped, Subresource Integrity ${bundled.integrity}\n` +
          `  <script src="https://<checkout host>/embed.js" integrity="${bundled.integrity}" crossorigin="anonymous"></script>\n`,
      );
    },
    async configureServer(server) {
      const write = async () => {
        const { code } = await bundle();
        await mkdir(outDir, { recursive: true });
        await writeFile(path.join(outDir, 'embed.js'), code);
      };
      await write();
      const embedSources = [page('embed/'), page('events.ts')];
      server.watcher.on('change', (file) => {
        if (embedSources.some((source) => file.startsWith(source))) write().catch((error: unknown) => server.config.logger.error(String(error)));
      });
    },
  };
}

/**
 * Every text file of the build also written brotli- and gzip-compressed beside itself (`.br`, `.gz`), at the
 * highest levels, once at build time: the backend sends the variant the browser accepts (@fastify/static's
 * `preCompressed`), so a phone downloads about a third of the bytes and no request pays for compression.
 */
function precompressed(): Plugin {
  return {
    name: 'checkout-precompressed',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => /\.(js|css|html|json|svg)$/.test(file))
          .map(async (file) => {
            const source = await readFile(path.join(outDir, file));
            await writeFile(path.join(outDir, `${file}.br`), brotliCompressSync(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } }));
            await writeFile(path.join(outDir, `${file}.gz`), gzipSync(source, { level: 9 }));
          }),
      );
    },
  };
}

/**
 * The frame's side of embedding (the frame bridge) is wanted before the framed checkout starts: the checkout page
 * preloads it, and the server keeps that link in the frame's page only (`data-frame-only`, bff/pages/checkout-page.ts).
 * Without the hint the browser would learn of it only once the entry module has run (one more round trip, half a
 * second on a slow mobile network).
 */
function preloadFrameBridge(): Plugin {
  return {
    name: 'checkout-preload-frame-bridge',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle || !context.path.endsWith('checkout.html')) return undefined;
        return Object.values(context.bundle)
          .filter((file) => file.type === 'chunk' && file.name === 'frame-bridge')
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', href: `/widget/${file.fileName}`, crossorigin: true, 'data-frame-only': true }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * The CSS and HTML inside Lit's `css` and `html` tagged templates minified at build time (minify-literals: Lightning
 * CSS and html-minifier-next), as the JavaScript around them is: their indentation, line breaks and comments cost
 * about 1.5 KB gzipped. Only the widget's own modules are transformed (Lit ships
 * minified), and template expressions are kept as they are. A module that turns strings into CSS (`unsafeCSS`) has
 * its CSS left as written, as the minifier would (styles/token-values.ts holds those, apart from the stylesheets).
 */
function minifiedTemplates(root = widgetRoot): Plugin {
  return {
    name: 'checkout-minified-templates',
    apply: 'build',
    async transform(code, id) {
      if (!id.startsWith(root) || !/\.ts$/.test(id) || !/\b(css|html|svg)`/.test(code)) return undefined;
      // Lit reads an attribute binding with or without quotes; html-minifier-next drops them only where HTML allows.
      const html = { removeAttributeQuotes: true, keepClosingSlash: true };
      return minifyHTMLLiterals(code, { fileName: id, html, ...(code.includes('unsafeCSS') ? { css: false as const } : {}) });
    },
  };
}

/**
 * Vite wraps every `import()` of the app in its preload helper, which fetches the chunk's dependencies first, loads
 * their stylesheets and reports failures as a `vite:preloadError` event; it does so even when there is nothing to
 * preload (vitejs/vite#13952, #18551). Here nothing ever is: the lazy chunks import only what the first paint
 * loaded (dependency lists are off, see `modulePreload`), and none carries a stylesheet, which this build refuses
 * below. So the helper (about 0.6 KB gzipped) is replaced with one that just imports; a failed import still
 * rejects the caller's promise. Should Vite rename its helper module, this stops matching and the full helper comes
 * back, which costs bytes (test/widget/bundle-size.test.ts) but nothing else.
 */
function plainDynamicImports(): Plugin {
  return {
    name: 'checkout-plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    load: {
      filter: { id: /^\0vite\/preload-helper\.js$/ },
      handler: () => 'export const __vitePreload = (load) => load();',
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && !chunk.isEntry && (chunk.viteMetadata?.importedCss.size ?? 0) > 0) {
          this.error(`${chunk.fileName} imports a stylesheet, which the plain dynamic import would not load: style the component with Lit's css instead.`);
        }
      }
    },
  };
}

/** The parts of the manifest's schema (custom-elements-manifest 1.0) this build edits. */
interface Manifest {
  modules: {
    path: string;
    declarations?: {
      kind: string;
      name: string;
      tagName?: string;
      members?: { kind: string; name: string; privacy?: string; description?: string }[];
      events?: { name?: string }[];
    }[];
    exports?: { kind: string; name: string; declaration: { name: string; module: string } }[];
  }[];
}

interface ManifestAnalyzer {
  create(options: { modules: TypeScript.SourceFile[] }): Manifest;
  ts: typeof TypeScript;
}

/**
 * custom-elements.json, the Custom Elements Manifest of what embed.js defines (`<checkout-widget>`: attributes,
 * events, slot, parts, methods), read by editors and documentation tools. Generated from the element's source and
 * its JSDoc tags by @custom-elements-manifest/analyzer; only the documented public API is kept (the analyzer also
 * lists undocumented internals and the bare `dispatchEvent` calls), and the module is named `embed.js`, the file
 * that defines the element.
 */
function customElementsManifest(): Plugin {
  const source = 'embed/checkout-widget.ts';
  return {
    name: 'checkout-custom-elements-manifest',
    async generateBundle() {
      // The package's own typings cover only its CLI configuration.
      const { create, ts } = (await import('@custom-elements-manifest/analyzer')) as unknown as ManifestAnalyzer;
      const module = ts.createSourceFile(source, await readFile(page(source), 'utf8'), ts.ScriptTarget.ES2022, true);
      const manifest = create({ modules: [module] });
      for (const described of manifest.modules) {
        described.path = 'embed.js';
        for (const declaration of described.declarations ?? []) {
          if (declaration.kind !== 'class') continue;
          declaration.members = declaration.members?.filter(
            (member) => member.privacy !== 'private' && !member.name.startsWith('#') && (member.kind === 'method' || Boolean(member.description)),
          );
          declaration.events = declaration.events?.filter((event) => event.name?.startsWith('checkout:'));
          if (declaration.tagName) {
            described.exports = [{ kind: 'custom-element-definition', name: declaration.tagName, declaration: { name: declaration.name, module: 'embed.js' } }];
          }
        }
      }
      this.emitFile({ type: 'asset', fileName: 'custom-elements.json', source: `${JSON.stringify(manifest, null, 2)}\n` });
    },
  };
}

/**
 * The chunks of the checkout app, by when they load. Gzip compresses each file on its own and every chunk boundary
 * adds import and export lists, so modules that always load together share a chunk:
 * - `checkout`: everything the page's entry imports statically (Lit, the base class, the shared styles, the English
 *   messages, the shell and its first views, the API client and its wire schemas, through which the first screen
 *   reads the order its page carries), one file for the first interactive screen. Left to itself the bundler would
 *   put what the lazy views share with it in a second file, which the page would fetch beside the first in any case.
 * - `payment-views`: the card form and the transfer view, fetched together while the customer reads the first
 *   screen. Only the views themselves: what they share with the first screen stays in `checkout`.
 * The resume record's schema stays apart (`session-schema`): only a reload that finds a record wants it. The demo
 * merchant page, the other entry, shares no module with the checkout (it
 * would otherwise load the whole first-paint file).
 */
const chunkGroups = [
  { name: 'checkout', test: (id: string) => !id.includes('/widget/demo/'), tags: ['$initial' as const], priority: 2 },
  { name: 'payment-views', test: /widget\/(components\/(card-form|saved-cards|brand|transfer-details)|i18n\/payment-messages)|shared\/card\.ts$/, priority: 1, includeDependenciesRecursively: false },
];

/**
 * The merchant dashboard (dashboard/index.html), a second app with its own build: served at /dashboard/ from
 * `outDir` (dist/dashboard beside dist/widget). It shares no chunk with the checkout. Its screens are loaded by
 * dynamic `import()` from the router, with Vite's preload helper (the screens' shared chunks, the contract's schemas
 * among them, are fetched in parallel with the screen). The shell's size is held by test/dashboard/bundle-size.test.ts.
 */
export const dashboardRoot = fileURLToPath(new URL('./dashboard', import.meta.url));
export function dashboardConfig(outDir: string): InlineConfig {
  return {
    configFile: false,
    root: dashboardRoot,
    base: '/dashboard/',
    logLevel: 'warn',
    plugins: [minifiedTemplates(dashboardRoot), precompressed()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      modulePreload: { polyfill: false },
      rollupOptions: {
        input: { dashboard: path.join(dashboardRoot, 'index.html') },
        checks: { bundlerTimings: false },
        output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js', assetFileNames: 'assets/[name]-[hash][extname]' },
      },
    },
    server: { fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  };
}

/** Builds the dashboard after the checkout, beside it (`<outDir>/../dashboard`), so one `vite build` makes both. */
function dashboardApp(): Plugin {
  let outDir = '';
  return {
    name: 'checkout-dashboard',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle(error) {
      if (error || !outDir) return;
      await build(dashboardConfig(path.join(path.dirname(outDir), 'dashboard')));
    },
  };
}

export default defineConfig({
  root: widgetRoot,
  base: '/widget/',
  plugins: [plainDynamicImports(), minifiedTemplates(), embedScript(), customElementsManifest(), preloadFrameBridge(), precompressed(), dashboardApp()],
  build: {
    outDir: fileURLToPath(new URL('./dist/widget', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Every browser that runs the checkout supports modulepreload, and what a lazy chunk imports is already loaded with
    // the entry module: the polyfill and the list of each dynamic import's dependencies would only cost bytes (see
    // `plainDynamicImports`). The page still preloads what its entry imports statically.
    modulePreload: { polyfill: false, resolveDependencies: (_file, dependencies, { hostType }) => (hostType === 'html' ? dependencies : []) },
    rollupOptions: {
      input,
      // Rolldown warns when a plugin is slow; on a loaded machine (a CI run, `npm start` beside other work) that is a
      // multi-line warning about the machine, not the build, and it would reach the start-up output.
      checks: { bundlerTimings: false },
      output: {
        // The demo merchant page is not part of the checkout: its files sit apart (dist/widget/demo/assets).
        entryFileNames: (chunk) => (chunk.name === 'demo' ? 'demo/assets/[name]-[hash].js' : 'assets/[name]-[hash].js'),
        assetFileNames: (asset) => ((asset.names ?? []).some((name) => name.startsWith('demo')) ? 'demo/assets/[name]-[hash][extname]' : 'assets/[name]-[hash][extname]'),
        codeSplitting: { groups: chunkGroups },
      },
    },
  },
  server: { fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
});
