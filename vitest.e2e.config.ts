import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests (`npm run test:e2e`, after `vite build`): the real server process and Debian's Chromium driven
 * by playwright-core through whole payments on the demo merchant page. One file at a time: each drives a browser
 * and the server, and the machine has two cores.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
  },
});
