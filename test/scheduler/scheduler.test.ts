import { describe, expect, it } from 'vitest';
import { BreadthFirst } from '../../core/policies/breadth-first.js';
import { int32Pages } from '../../core/page-array.js';
import { IndexedHeap } from '../../core/scheduler/indexed-heap.js';
import { Scheduler } from '../../core/scheduler/scheduler.js';
import { SiteState } from '../../core/scheduler/site-state.js';
import { ManualClock } from '../helpers/manual-clock.js';

function setup(opts: { r?: number; c?: number; w?: number; batch?: number } = {}) {
  const clock = new ManualClock();
  const s = new Scheduler({ clock, policy: new BreadthFirst(), r: opts.r ?? 10, c: opts.c ?? 1, w: opts.w ?? 1000, batch: opts.batch });
  const sites = [new SiteState(1, 'a.test'), new SiteState(2, 'b.test'), new SiteState(3, 'c.test')];
  for (const site of sites) s.addSite(site);
  return { clock, s, sites };
}

describe('IndexedHeap', () => {
  it('pops by priority, then by id, and follows priority updates', () => {
    const h = new IndexedHeap();
    for (const [id, p] of [[5, 1], [3, 1], [9, 4], [1, 0], [7, 2]] as const) h.set(id, p);
    h.set(1, 10);
    h.delete(7);
    const out: number[] = [];
    for (let id = h.pop(); id !== undefined; id = h.pop()) out.push(id);
    expect(out).toEqual([1, 9, 3, 5]);
  });
  it('stays a heap under many random operations', () => {
    const h = new IndexedHeap();
    const ref = new Map<number, number>();
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      const id = Math.floor(rnd() * 300);
      if (rnd() < 0.2) {
        h.delete(id);
        ref.delete(id);
      } else {
        const p = Math.floor(rnd() * 20);
        h.set(id, p);
        ref.set(id, p);
      }
    }
    const expected = [...ref.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
    const out: number[] = [];
    for (let id = h.pop(); id !== undefined; id = h.pop()) out.push(id);
    expect(out).toEqual(expected);
  });
  it('heaps sharing one position array (a scheduler\'s site queues) each keep their own ids and order', () => {
    const shared = int32Pages(-1);
    const heaps = [new IndexedHeap(), new IndexedHeap(), new IndexedHeap()];
    const refs = heaps.map(() => new Map<number, number>());
    heaps[0]!.set(2, 5); // before sharing: moves into the shared array
    refs[0]!.set(2, 5);
    for (const h of heaps) h.usePositions(shared);
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 6000; i++) {
      const id = 1 + Math.floor(rnd() * 600);
      const k = id % 3; // an id belongs to one heap, as a page to one site
      if (rnd() < 0.25) {
        expect(heaps[k]!.delete(id)).toBe(refs[k]!.delete(id));
      } else {
        const p = Math.floor(rnd() * 20);
        heaps[k]!.set(id, p);
        refs[k]!.set(id, p);
      }
      expect(heaps[(k + 1) % 3]!.has(id)).toBe(false);
    }
    heaps.forEach((h, k) => {
      expect(h.size).toBe(refs[k]!.size);
      const expected = [...refs[k]!.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
      const out: number[] = [];
      for (let id = h.pop(); id !== undefined; id = h.pop()) out.push(id);
      expect(out).toEqual(expected);
    });
  });
  it('orders equal priorities by tie key, then id, once a tie key differs from the id', () => {
    const h = new IndexedHeap();
    h.set(1, 3);
    h.set(2, 3);
    h.set(3, 3, 0); // tie 0 beats the ids 1 and 2 taken as their own ties
    h.set(4, 3, 2); // tie 2 equals page 2's: the lower id, 2, first
    const out: number[] = [];
    for (let id = h.pop(); id !== undefined; id = h.pop()) out.push(id);
    expect(out).toEqual([3, 1, 2, 4]);
  });
});

describe('Scheduler politeness', () => {
  it('never hands out a second connection to a site that is in flight', () => {
    const { s, sites } = setup();
    s.enqueue(sites[0]!, 1, 0);
    s.enqueue(sites[0]!, 2, 0);
    const first = s.take();
    expect(first?.site.id).toBe(1);
    expect(s.take()).toBeNull();
  });

  it('waits w after the end of a connection before the next one to the same site', () => {
    const { s, sites, clock } = setup({ w: 1000 });
    s.enqueue(sites[0]!, 1, 0);
    s.enqueue(sites[0]!, 2, 0);
    const first = s.take()!;
    clock.advance(300);
    s.finish(first, clock.now());
    expect(s.take()).toBeNull();
    expect(s.nextWakeAt()).toBe(clock.now() + 1000);
    clock.advance(999);
    expect(s.take()).toBeNull();
    clock.advance(1);
    expect(s.take()?.pages.map((p) => p.id)).toEqual([2]);
  });

  it('Crawl-delay raises w for that site and a backoff adds to it', () => {
    const { s, sites, clock } = setup({ w: 1000 });
    sites[0]!.crawlDelayMs = 5000;
    s.enqueue(sites[0]!, 1, 0);
    s.enqueue(sites[0]!, 2, 0);
    s.finish(s.take()!, clock.now(), [], 2000);
    expect(s.nextWakeAt()).toBe(clock.now() + 7000);
  });

  it('takes at most c pages per connection and at most r connections', () => {
    const { s, sites } = setup({ r: 2, c: 3 });
    for (let i = 1; i <= 5; i++) s.enqueue(sites[0]!, i, 0);
    for (let i = 6; i <= 7; i++) s.enqueue(sites[1]!, i, 0);
    s.enqueue(sites[2]!, 8, 0);
    const a = s.take()!;
    const b = s.take()!;
    expect(a.pages.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(b.pages.map((p) => p.id)).toEqual([6, 7]);
    expect(s.openConnections).toBe(2);
    expect(s.take()).toBeNull();
  });

  it('breadth-first serves the ready site holding the oldest page, and returned pages keep their place', () => {
    const { s, sites, clock } = setup({ w: 0 });
    s.enqueue(sites[1]!, 10, 0);
    s.enqueue(sites[0]!, 11, 0);
    s.enqueue(sites[1]!, 12, 0);
    s.enqueue(sites[2]!, 13, 0);
    const order: number[] = [];
    for (;;) {
      const sess = s.take();
      if (!sess) break;
      order.push(sess.pages[0]!.id);
      s.finish(sess, clock.now());
      clock.advance(1);
    }
    expect(order).toEqual([10, 11, 12, 13]);
    expect(s.drained).toBe(true);
  });

  it('parks a site: its pending pages are handed back and it is never scheduled again', () => {
    const { s, sites } = setup();
    s.enqueue(sites[0]!, 1, 0);
    s.enqueue(sites[0]!, 2, 0);
    s.enqueue(sites[1]!, 3, 0);
    expect(s.park(sites[0]!).sort()).toEqual([1, 2]);
    s.enqueue(sites[0]!, 4, 0);
    expect(s.take()?.site.id).toBe(2);
    expect(s.take()).toBeNull();
    expect(s.sitesWithPending).toBe(0);
  });

  it('in batch mode admits K pages at a time and calls the policy every K pages', () => {
    const clock = new ManualClock();
    let batches = 0;
    const policy = { name: 'count', pagePriority: () => 0, onBatch: () => void batches++ };
    const s = new Scheduler({ clock, policy, r: 10, c: 1, w: 0, batch: 2 });
    const site = new SiteState(1, 'a.test');
    s.addSite(site);
    for (let i = 1; i <= 5; i++) s.enqueue(site, i, 0);
    // The first batch is formed at once from what is known (the seed); later pages wait.
    expect(site.pending).toBe(1);
    const seen: number[] = [];
    for (let sess = s.take(); sess; sess = s.take()) {
      expect(site.pending).toBeLessThanOrEqual(2);
      seen.push(sess.pages[0]!.id);
      s.pageDone();
      s.finish(sess, clock.now());
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toBe(2);
  });
});
