/**
 * Tests gated on outside references (the registry: test/reference-probes.ts). A suite or a
 * test runs only where every reference it needs is present; its name ends with what it needs
 * (`[needs networkx]`), which the reporter reads back to count what an absent one held back.
 */
import { afterAll, describe, it, onTestFinished, type TestFunction } from 'vitest';
import { present, type RefName } from './reference-probes.js';

export { PYTHON, CHROMIUM, probe, present, refPath, type RefName } from './reference-probes.js';


function gated(refs: RefName[], name: string): { name: string; skip: boolean } {
  const absent = refs.filter((r) => !present(r));
  return { name: `${name} [needs ${refs.join(', ')}]`, skip: absent.length > 0 };
}

/** Closers of what a skipped suite's body started while it was read (its tests named, never run). */
const skippedClosers: Array<() => unknown>[] = [];

/**
 * `close` after the current suite, as afterAll would: but a skipped suite's afterAll never runs,
 * and its body runs all the same to name its tests; what it started (a test web, an engine)
 * would stay open in the fork, which runs other files next (vitest.config.ts). Within a
 * skipped suite's body, it is closed once the body has run; within a test, once the test ends.
 * Not from a beforeAll: an afterAll registered there never runs (make it in the suite's body).
 */
export function closeAfter(close: () => unknown): void {
  const skipping = skippedClosers.at(-1);
  if (skipping) return void skipping.push(close);
  try {
    // Within a test, once it has ended: an afterAll registered there belongs to no suite still to
    // end and never ran (the folders of tests that made their own stayed in the temporary folder).
    return onTestFinished(async () => void (await close()));
  } catch {
    // not within a test: after the suite being read
  }
  afterAll(close);
}

/** A suite that runs only where every reference it needs is present. */
export function describeWith(refs: RefName[], name: string, fn: () => void | Promise<void>): void {
  const g = gated(refs, name);
  if (!g.skip) return void describe(g.name, fn);
  describe.skip(g.name, async () => {
    const closers: Array<() => unknown> = [];
    skippedClosers.push(closers);
    try {
      await fn();
    } finally {
      skippedClosers.pop();
      for (const close of closers.reverse()) await close();
    }
  });
}

/** A test that runs only where every reference it needs is present. */
export function itWith(refs: RefName[], name: string, fn: TestFunction, timeout?: number): void {
  const g = gated(refs, name);
  it.skipIf(g.skip)(g.name, fn, timeout);
}
