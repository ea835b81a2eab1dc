import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import ts from 'typescript';

/**
 * widget/public/embed.d.ts, the TypeScript declarations merchants copy beside their code (served at
 * /widget/embed.d.ts): generated from the embed script's source by `npm run types`, committed, and served as a
 * public file. These tests keep it equal to what the source gives and prove a merchant's code type-checks with it.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DECLARATIONS = path.join(ROOT, 'widget/public/embed.d.ts');

test('the embed declarations are what `npm run types` makes from the current source', () => {
  const [generated] = generateDtsBundle([{ filePath: path.join(ROOT, 'widget/embed/embed.ts'), output: { inlineDeclareGlobals: true, noBanner: true } }], {
    preferredConfigPath: path.join(ROOT, 'tsconfig.json'),
  });
  assert.equal(readFileSync(DECLARATIONS, 'utf8'), generated, 'widget/public/embed.d.ts is out of date: run `npm run types`');
});

/** Type-checks one merchant file against the declarations, as a merchant's own project would; the messages. */
function typeCheck(merchantCode: string): string[] {
  const folder = mkdtempSync(path.join(tmpdir(), 'merchant-types-'));
  try {
    writeFileSync(path.join(folder, 'checkout.d.ts'), readFileSync(DECLARATIONS, 'utf8'));
    writeFileSync(path.join(folder, 'shop.ts'), merchantCode);
    const program = ts.createProgram([path.join(folder, 'shop.ts'), path.join(folder, 'checkout.d.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test("a merchant's code gets the element, Checkout.open, the compatibility global and the checkout:* events typed", () => {
  const messages = typeCheck(`
    import type { CheckoutResult } from './checkout';
    const widget = document.createElement('checkout-widget');
    widget.addEventListener('checkout:success', (event) => console.log(event.reference, event.status));
    widget.addEventListener('checkout:error', (event) => console.log(event.code, event.message));
    widget.addEventListener('checkout:pending', (event) => console.log(event.method));
    const closed: Promise<CheckoutResult> = widget.open();
    widget.close();
    void closed;
    void window.Checkout?.open({ apiKey: 'pk_test_x', amount: 5000, currency: 'NGN', onSuccess: (event) => console.log(event.reference) })
      .then((result) => console.log(result.outcome));
    new window.CheckoutNS!.PaymentCheckout({ apiKey: 'pk_test_x', amount: '2500', onCompleted: ({ status, reference }) => console.log(status, reference) }).init();
  `);
  assert.deepEqual(messages, []);
});

test("a merchant's mistakes are caught: a wrong option type, a misspelled option, a property events do not have", () => {
  const messages = typeCheck(`
    void window.Checkout?.open({ apiKey: 'pk_test_x', amount: 'five thousand' });
    void window.Checkout?.open({ apiKey: 'pk_test_x', ammount: 5000 });
    document.createElement('checkout-widget').addEventListener('checkout:success', (event) => console.log(event.cardNumber));
  `);
  assert.equal(messages.length, 3, messages.join('\n'));
  assert.match(messages[0]!, /'string' is not assignable to type 'number'/);
  assert.match(messages[1]!, /'ammount' does not exist/);
  assert.match(messages[2]!, /'cardNumber' does not exist on type 'CheckoutSuccessEvent'/);
});
