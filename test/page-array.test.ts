/**
 * core/page-array.ts holds the per-page state of the store, the scheduler and the policies
 * (issue 28): by page id, in chunks, past the 2^24 entries where V8 refuses a Map.
 */
import { describe, expect, it } from 'vitest';
import { float64Pages, int32Pages, uint16Pages } from '../core/page-array.js';
import { Opic } from '../core/policies/opic.js';
import { SiteState } from '../core/scheduler/site-state.js';

describe('PageArray', () => {
  it('keeps a value per page id across chunks, the empty value elsewhere, and allocates only the chunks written', () => {
    const a = int32Pages(-1);
    expect(a.get(7)).toBe(-1);
    a.set(7, 70);
    a.set(65_535, 1);
    a.set(65_536, 2);
    a.set(50_000_000, 3);
    expect([a.get(7), a.get(65_535), a.get(65_536), a.get(50_000_000)]).toEqual([70, 1, 2, 3]);
    expect([a.get(8), a.get(49_999_999), a.get(60_000_000)]).toEqual([-1, -1, -1]);
    expect(a.bytes).toBe(3 * 65_536 * 4); // chunks 0, 1 and the one of id 50,000,000
    expect(a.add(7, 5)).toBe(75);
    a.delete(7);
    expect(a.get(7)).toBe(-1);
    a.clear();
    expect([a.get(65_536), a.bytes]).toEqual([-1, 0]);
    expect(() => a.set(-1, 0)).toThrow(RangeError);
  });

  it('tells a page never given a value (NaN) from one given 0, and packs 16 bits', () => {
    const f = float64Pages(NaN);
    f.set(3, 0);
    expect([f.get(3), f.get(4)]).toEqual([0, NaN]);
    const u = uint16Pages();
    u.set(1, 0xffff);
    expect(u.get(1)).toBe(0xffff);
  });

  it('lets a policy rank more pages than a Map holds (V8 refuses a Map past 2^24 entries)', () => {
    const opic = new Opic();
    const site = new SiteState(1, 'a.test');
    const n = 2 ** 24 + 10;
    const page = { id: 0, site, depth: 1, parentId: null, url: 'http://a.test/', anchor: null };
    for (let id = 1; id <= n; id++) {
      page.id = id;
      opic.pagePriority(page);
    }
    opic.onFetched(1, site, [n, n - 1]);
    expect(opic.cashOf(n)).toBe(1.5);
    expect(opic.historyOf(1)).toBe(1);
    expect(opic.estimate()).toBeCloseTo(1 / n, 12);
  });
});
