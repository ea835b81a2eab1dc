import { defineConfig } from 'vitest/config';

/** Node-side tests: shared/ and bff/ (through app.inject against real storage). Browser tests run in wtr. */
export default defineConfig({
  test: {
    include: ['test/shared/**/*.test.ts', 'test/bff/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
