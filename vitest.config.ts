import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // For the renderer's component tests (test/renderer), which mount .vue files.
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    // The outside references (test/references.ts) probed once, and under CRAWLBENCH_TEST_ALL
    // or CI=true an absent one fails the run at once; then one finished demo crawl shared by
    // the e2e files (test/ui/e2e-kit.ts).
    globalSetup: ['test/references-setup.ts', 'test/ui/global-setup.ts'],
    // Integration tests start real servers and crawls; they get generous time and run
    // in separate forks so that a crashing crawl cannot take the runner down.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // The last block names every absent outside reference and what it held back.
    reporters: ['default', './test/references-reporter.ts'],
  },
});
