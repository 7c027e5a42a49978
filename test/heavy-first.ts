/**
 * The order test files start in (vitest.config.ts, `sequence.sequencer`). Two forks take files
 * from one queue, so the run ends when the last long file does: the longest files start first,
 * and the many short ones fill in beside them. vitest orders by the durations of its last run on
 * this machine (node_modules/.vite), or, with none (a clean clone, as CI is), by file size,
 * which put a two-minute parallel-crawl file behind a hundred short ones. HEAVY names the files
 * that took longest in a whole run (seconds in one fork, 2026-11-29), so they lead either way.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const HEAVY = [
  'test/parallel/parallel-faults.test.ts', // 133
  'test/parallel/parallel-pause.test.ts', // 131
  'test/parallel/parallel-crawl.test.ts', // 118
  'test/ui/workbench.e2e.test.ts', // 67
  'test/ui/widths.e2e.test.ts', // 63
  'test/parallel/exchange-batch.test.ts', // 44
  'test/api/crash-isolation.test.ts', // 34
  'test/ui/seed-file.e2e.test.ts', // 33
  'test/api/seed-uploads.test.ts', // 33
  'test/simulator/simulate-cli.test.ts', // 32
];

export default class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = HEAVY.findIndex((h) => f.moduleId.endsWith(h));
      return i < 0 ? HEAVY.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}
