import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { readFileSync } from 'node:fs';

/**
 * Widget tests in a real Chromium: Debian's /usr/bin/chromium, never a downloaded browser. Components are
 * driven through real key presses and clicks (@web/test-runner-commands) against stubbed network answers.
 */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The checkout's frame page as the embed script asks for it (`POST /checkout/frame`, a form posted into the
 * iframe), played by the relay (test/widget/support/relay.html); the forms it was sent are read back, and emptied,
 * at `/checkout/frame/posts`.
 */
const framePosts = [];
const relayPage = readFileSync(new URL('./test/widget/support/relay.html', import.meta.url), 'utf8').replace('./relay.js', '/test/widget/support/relay.js');
async function checkoutFrameStandIn(context, next) {
  if (context.path === '/checkout/frame' && context.method === 'POST') {
    const chunks = [];
    for await (const chunk of context.req) chunks.push(chunk);
    framePosts.push(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())));
    context.type = 'html';
    context.body = relayPage;
    return;
  }
  if (context.path === '/checkout/frame/posts') {
    context.type = 'json';
    context.body = JSON.stringify(framePosts.splice(0));
    return;
  }
  await next();
}

export default {
  // bundle-size.test.ts and embed-types.test.ts check the build and the declarations in Node (node:test).
  files: ['test/widget/**/*.test.ts', '!test/widget/bundle-size.test.ts', '!test/widget/embed-types.test.ts'],
  nodeResolve: true,
  middleware: [checkoutFrameStandIn],
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      },
    }),
  ],
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 15_000 } },
  filterBrowserLogs: ({ type }) => type === 'error',
};
