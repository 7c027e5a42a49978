import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import HeavyFirst from './test/heavy-first.js';

export default defineConfig({
  // For the renderer's component tests (test/renderer), which mount .vue files.
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    // The outside references (test/references.ts) probed once, and under CRAWLBENCH_TEST_ALL
    // or CI=true an absent one fails the run at once; then one finished demo crawl shared by
    // the e2e files (test/ui/e2e-kit.ts).
    globalSetup: ['test/references-setup.ts', 'test/ui/global-setup.ts'],
    // Integration tests start real servers and crawls; they get generous time and run in
    // forks, not threads: a crawl that brings its process down takes a fork, not the runner.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s unless told: a view's first answers took longer on a loaded CI
    // machine (simulate.e2e read an empty source list). A poll that means a bound says its own.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // One fork runs many files (a fork of its own for each file spent about 1.3 s of CPU a file
    // importing the engine again: 230 s of a run's 1,060). Files keep to themselves all the same:
    // each starts its own servers, crawls and temporary folders and closes them (a test that sets
    // an environment variable puts it back), and the renderer's happy-dom files run in forks of
    // their own, as vitest keeps environments apart.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    // The longest files first, whatever vitest remembers of the last run (test/heavy-first.ts).
    sequence: { sequencer: HeavyFirst },
    // The last block names every absent outside reference and what it held back.
    reporters: ['default', './test/references-reporter.ts'],
  },
});
