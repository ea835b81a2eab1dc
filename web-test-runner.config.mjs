import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

/**
 * Widget tests in a real Chromium: Debian's /usr/bin/chromium, never a downloaded browser. Components are
 * driven through real key presses and clicks (@web/test-runner-commands) against stubbed network answers.
 */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default {
  // bundle-size.test.ts and embed-types.test.ts check the build and the declarations in Node (node:test).
  files: ['test/widget/**/*.test.ts', '!test/widget/bundle-size.test.ts', '!test/widget/embed-types.test.ts'],
  nodeResolve: true,
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
