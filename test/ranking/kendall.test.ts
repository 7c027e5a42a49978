import { describe, expect, it } from 'vitest';
import { kendallTauB, mergeSortCountingSwaps } from '../../core/ranking/kendall.js';
import { rng } from './fixtures.js';

/** tau-b straight from its definition, over every pair: the reference. */
function naiveTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let concordant = 0;
  let discordant = 0;
  let onlyX = 0; // tied in x, not in y
  let onlyY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) onlyX++;
      else if (dy === 0) onlyY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const den = Math.sqrt((concordant + discordant + onlyX) * (concordant + discordant + onlyY));
  return den === 0 ? NaN : (concordant - discordant) / den;
}

describe("Kendall's tau-b", () => {
  it('hand cases', () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(kendallTauB([1, 2, 3], [1, 3, 2])).toBeCloseTo(1 / 3, 15);
    // x = [1, 1, 2], y = [1, 2, 3]: one pair tied in x only, two concordant: 2 / sqrt(3 * 2).
    expect(kendallTauB([1, 1, 2], [1, 2, 3])).toBeCloseTo(2 / Math.sqrt(6), 15);
    // Ties in both and a joint tie: x = [1,1,2,2], y = [1,1,1,2].
    expect(kendallTauB([1, 1, 2, 2], [1, 1, 1, 2])).toBeCloseTo(naiveTauB([1, 1, 2, 2], [1, 1, 1, 2]), 15);
    expect(kendallTauB([5, 5, 5], [1, 2, 3])).toBeNaN(); // constant x: undefined
    expect(kendallTauB([1], [1])).toBeNaN();
    expect(() => kendallTauB([1, 2], [1])).toThrow(RangeError);
  });

  it('counts inversions without counting ties', () => {
    const a = Float64Array.of(3, 1, 2, 2, 0);
    // (3,1) (3,2) (3,2) (3,0) (1,0) (2,0) (2,0); the equal 2s are not an inversion.
    expect(mergeSortCountingSwaps(a)).toBe(7);
    expect([...a]).toEqual([0, 1, 2, 2, 3]);
  });

  it('equals the O(n^2) definition on random data with many ties', () => {
    const random = rng(2024);
    for (const n of [2, 3, 7, 50, 333, 1000, 2500]) {
      for (const levels of [2, 5, 40, 1e9]) {
        const x = Array.from({ length: n }, () => Math.floor(random() * levels));
        const y = Array.from({ length: n }, (_, i) => (random() < 0.5 ? x[i]! : Math.floor(random() * levels)));
        const expected = naiveTauB(x, y);
        if (Number.isNaN(expected)) expect(kendallTauB(x, y)).toBeNaN();
        else expect(kendallTauB(x, y)).toBeCloseTo(expected, 12);
      }
    }
  });

  it('handles a million pairs quickly enough to use on whole crawls', () => {
    const random = rng(1);
    const n = 1_000_000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i;
      y[i] = i + random() * 1000;
    }
    const tau = kendallTauB(x, y);
    expect(tau).toBeGreaterThan(0.99);
    expect(tau).toBeLessThan(1);
  });
});
