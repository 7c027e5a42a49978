/**
 * Ends a run with one block about the outside references (test/reference-probes.ts): each absent
 * one, how many tests it held back, and the command that brings it. A gated suite or test
 * carries its needs in its name (`... [needs networkx, chromium]`); a skipped one's tests are
 * counted against each of its needs that is absent.
 */
import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter } from 'vitest/reporters';
import { NEEDS, REFERENCES, probe, testAll, type RefName } from './reference-probes.js';

function testsIn(task: RunnerTask): number {
  return task.type === 'suite' ? task.tasks.reduce((n, t) => n + testsIn(t), 0) : 1;
}

/** Skipped tests per reference, from the markers of skipped suites and tests. */
export function heldBack(files: readonly RunnerTask[], absent: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (task: RunnerTask): void => {
    const m = NEEDS.exec(task.name);
    if (m && task.mode === 'skip') {
      for (const name of m[1]!.split(', ')) if (absent.has(name)) counts.set(name, (counts.get(name) ?? 0) + testsIn(task));
      return;
    }
    if (task.type === 'suite') task.tasks.forEach(walk);
  };
  files.forEach(walk);
  return counts;
}

export function referencesBlock(files: readonly RunnerTask[]): string {
  const absent = REFERENCES.filter((r) => probe(r.name as RefName) === null);
  if (absent.length === 0) return `Outside references: all ${REFERENCES.length} present, no test held back.`;
  const counts = heldBack(files, new Set(absent.map((r) => r.name)));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const lines = absent.map((r) => {
    const n = counts.get(r.name) ?? 0;
    const note = r.optional && testAll() ? ' (optional: skips even under CRAWLBENCH_TEST_ALL)' : '';
    return `  ${r.name}: ${n} test${n === 1 ? '' : 's'} held back${note}. ${r.what}.\n    Bring it: ${r.hint}`;
  });
  return [
    `Outside references absent: ${absent.length} of ${REFERENCES.length}, ${total} test${total === 1 ? '' : 's'} held back.`,
    ...lines,
    '  All of them at once (Debian or Ubuntu, as root or with sudo): npm run setup:test-tools',
  ].join('\n');
}

export default class ReferencesReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    process.stdout.write(`\n${referencesBlock(files)}\n`);
  }
}
