/**
 * The vitest configuration test/references.test.ts runs: the suite's own global setup and
 * reporter over a fixture file with suites gated on every outside reference.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/references/gated.fixture.ts'],
    globalSetup: ['test/references-setup.ts'],
    reporters: ['default', './test/references-reporter.ts'],
    pool: 'forks',
  },
});
