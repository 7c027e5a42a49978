/**
 * Tests gated on outside references (the registry: test/reference-probes.ts). A suite or a
 * test runs only where every reference it needs is present; its name ends with what it needs
 * (`[needs networkx]`), which the reporter reads back to count what an absent one held back.
 */
import { describe, it, type TestFunction } from 'vitest';
import { present, type RefName } from './reference-probes.js';

export { PYTHON, CHROMIUM, probe, present, refPath, type RefName } from './reference-probes.js';


function gated(refs: RefName[], name: string): { name: string; skip: boolean } {
  const absent = refs.filter((r) => !present(r));
  return { name: `${name} [needs ${refs.join(', ')}]`, skip: absent.length > 0 };
}

/** A suite that runs only where every reference it needs is present. */
export function describeWith(refs: RefName[], name: string, fn: () => void): void {
  const g = gated(refs, name);
  describe.skipIf(g.skip)(g.name, fn);
}

/** A test that runs only where every reference it needs is present. */
export function itWith(refs: RefName[], name: string, fn: TestFunction, timeout?: number): void {
  const g = gated(refs, name);
  it.skipIf(g.skip)(g.name, fn, timeout);
}
