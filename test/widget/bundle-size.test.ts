import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { BEFORE_INTERACTIVE_BUDGET, DIST, FIRST_PAINT_BUDGET, formatReport, measureBundle, WHOLE_APP_BUDGET } from './bundle-size.ts';

/** Builds the checkout app and the embed script with the project's vite.config.ts and holds them to their budgets. */
test('the checkout app builds with its API client in the first paint, and its frame bridge and French catalog in chunks of their own', async () => {
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
  const report = measureBundle(DIST);
  console.log(formatReport(report));
  assert.ok(report.hosted.firstPaint.some((file) => file.file.endsWith('.js')), 'the page loads at least one module');
  // The first screen reads the order its page carries through the wire schemas: one file, no second request.
  assert.ok(!report.files.some((file) => /^assets\/(client|wire)-/.test(file.file)), 'the API client and its wire schemas are not chunks of their own');
  const entry = report.hosted.firstPaint.filter((file) => file.file.endsWith('.js')).map((file) => readFileSync(path.join(DIST, file.file), 'utf8'));
  assert.ok(entry.some((code) => code.includes('checkout-client-token')), "the first paint holds the API client (the header it sends an order's client token in)");
  assert.ok(
    report.framed.firstPaint.some((file) => /^assets\/frame-bridge-/.test(file.file)) && !report.hosted.firstPaint.some((file) => /^assets\/frame-bridge-/.test(file.file)),
    'the frame bridge loads with the framed page only',
  );
});

for (const page of ['hosted', 'framed'] as const) {
  const name = page === 'hosted' ? 'the hosted checkout page' : 'the framed checkout';

  test(`the first paint of ${name}, Lit included, stays within 35 KB gzipped, in English and French`, () => {
    const report = measureBundle(DIST)[page];
    for (const [language, total] of [['English', report.firstPaintGzip], ['French', report.frenchFirstPaintGzip]] as const) {
      assert.ok(total <= FIRST_PAINT_BUDGET, `in ${language}, the first paint of ${name} is ${total} bytes gzipped, over the ${FIRST_PAINT_BUDGET}-byte budget`);
    }
  });

  test(`what loads before the first interactive screen of ${name} (first paint, API client, wire schemas) stays within 35 KB gzipped, in English and French`, () => {
    const report = measureBundle(DIST)[page];
    for (const [language, total] of [['English', report.beforeInteractiveGzip], ['French', report.frenchBeforeInteractiveGzip]] as const) {
      assert.ok(total <= BEFORE_INTERACTIVE_BUDGET, `in ${language}, ${total} bytes gzipped load before the first interactive screen of ${name}, over the ${BEFORE_INTERACTIVE_BUDGET}-byte budget`);
    }
  });
}

test('the whole checkout app, lazy chunks included, stays within 45 KB gzipped', () => {
  const report = measureBundle(DIST);
  assert.ok(report.lazy.length > 0, 'the card and transfer views, the customer form, the frame bridge and French are separate chunks');
  assert.ok(report.wholeAppGzip <= WHOLE_APP_BUDGET, `the whole app is ${report.wholeAppGzip} bytes gzipped, over ${WHOLE_APP_BUDGET}`);
});

const EMBED_BUDGET = 6_000; // bytes gzipped: "a few KB", no framework

test('the embed script merchants load stays within 6 KB gzipped', () => {
  const embed = readFileSync(path.join(DIST, 'embed.js'));
  const size = gzipSync(embed).length;
  console.log(`embed.js: ${(size / 1000).toFixed(2)} KB gzipped`);
  assert.ok(size <= EMBED_BUDGET, `embed.js is ${size} bytes gzipped, over ${EMBED_BUDGET}`);
});

test('the README gives the script tag with the integrity of the embed script the build makes', () => {
  const integrity = `sha384-${createHash('sha384').update(readFileSync(path.join(DIST, 'embed.js'))).digest('base64')}`;
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const tags = [...readme.matchAll(/<script src="[^"]*\/embed\.js" integrity="([^"]+)"/g)].map((match) => match[1]);
  assert.ok(tags.length > 0, 'the README has no embed.js script tag');
  for (const tag of tags) assert.equal(tag, integrity, 'the README pins an embed.js other than the one the build makes: copy the tag `npm run build` prints');
});

test('the build describes <checkout-widget> in a Custom Elements Manifest: attributes, events, parts and methods', () => {
  type Described = { name: string; description?: string };
  const manifest = JSON.parse(readFileSync(path.join(DIST, 'custom-elements.json'), 'utf8')) as {
    schemaVersion: string;
    modules: { path: string; exports: { kind: string; name: string }[]; declarations: { tagName?: string; attributes: Described[]; events: Described[]; cssParts: Described[]; slots: Described[]; members: (Described & { kind: string })[] }[] }[];
  };
  assert.equal(manifest.schemaVersion, '1.0.0');
  const [module] = manifest.modules;
  assert.equal(module?.path, 'embed.js');
  assert.deepEqual(module.exports.map((each) => [each.kind, each.name]), [['custom-element-definition', 'checkout-widget']]);
  const element = module.declarations.find((declaration) => declaration.tagName === 'checkout-widget');
  assert.ok(element, 'no checkout-widget declaration');
  const names = (list: Described[]) => list.map((each) => each.name).sort();
  assert.deepEqual(
    names(element.attributes),
    ['amount', 'api-base', 'api-key', 'brand-color', 'client-token', 'country', 'currency', 'customer-session', 'density', 'description', 'email', 'first-name', 'font', 'items', 'last-name', 'locale', 'mobile', 'mode', 'radius', 'reference', 'theme'],
  );
  assert.deepEqual(names(element.events), ['checkout:close', 'checkout:error', 'checkout:pending', 'checkout:ready', 'checkout:success']);
  assert.deepEqual(names(element.cssParts), ['dialog', 'message', 'placeholder']);
  assert.deepEqual(names(element.members.filter((member) => member.kind === 'method')), ['close', 'open']);
  for (const described of [...element.attributes, ...element.events, ...element.cssParts, ...element.members]) {
    assert.ok(described.description, `${described.name} has no description`);
  }
});

test('the manifest, the declarations and the README say amounts are in major units, not kobo or cents', () => {
  const manifest = readFileSync(path.join(DIST, 'custom-elements.json'), 'utf8');
  assert.match(manifest, /"name": "amount",\s*"description": "[^"]*major units, never minor/);
  const declarations = readFileSync(fileURLToPath(new URL('../../widget/public/embed.d.ts', import.meta.url)), 'utf8');
  assert.match(declarations, /In major units, never minor/);
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  assert.match(readme, /\*\*Amounts are in major units\*\*/);
});
