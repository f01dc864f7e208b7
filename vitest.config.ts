import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: 'test/global-setup.ts',
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // 2 shared cores: a few files at once keeps real-process tests from starving each other.
    maxWorkers: 3,
  },
});
