/**
 * vitest's global setup for the outside references (test/reference-probes.ts): probes every one
 * once, before the test processes start (they inherit what was found through the
 * environment), and under CRAWLBENCH_TEST_ALL=1 or CI=true fails the run at once, naming each
 * absent reference and how to bring it, instead of letting its tests skip.
 */
import { REFERENCES, probe, testAll } from './reference-probes.js';

export default function setup(): void {
  const absent = REFERENCES.filter((r) => probe(r.name) === null);
  const required = absent.filter((r) => !r.optional);
  if (testAll() && required.length > 0) {
    const lines = required.map((r) => `  ${r.name}: ${r.what}. Bring it: ${r.hint}`);
    throw new Error(
      `CRAWLBENCH_TEST_ALL (or CI=true) runs every test, and ${required.length} outside reference(s) are absent:\n${lines.join('\n')}\n` +
        'npm run setup:test-tools brings them all; without CRAWLBENCH_TEST_ALL and CI their tests skip instead.',
    );
  }
}
