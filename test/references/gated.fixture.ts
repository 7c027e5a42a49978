/**
 * Suites gated on each outside reference, two tests each, and one gated test: what
 * test/references.test.ts runs with the references hidden (not a test file of `npm test`).
 */
import { expect, it } from 'vitest';
import { REFERENCES } from '../reference-probes.js';
import { describeWith, itWith, refPath } from '../references.js';

for (const ref of REFERENCES) {
  describeWith([ref.name], `uses ${ref.name}`, () => {
    it('finds it', () => expect(refPath(ref.name)).toBeTruthy());
    it('finds it again', () => expect(refPath(ref.name)).toBeTruthy());
  });
}

itWith(['networkx', 'chromium'], 'uses two at once', () => expect(refPath('networkx')).toBeTruthy());

it('needs nothing', () => expect(1 + 1).toBe(2));
