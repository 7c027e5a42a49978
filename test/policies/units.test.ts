import { describe, expect, it } from 'vitest';
import { BatchPageRank } from '../../core/policies/batch-pagerank.js';
import { HistoricalPageRank } from '../../core/policies/historical-pagerank.js';
import { Opic } from '../../core/policies/opic.js';
import { PartialPageRank } from '../../core/policies/partial-pagerank.js';
import { createPolicy, listPolicies } from '../../core/policies/registry.js';
import { HOT, Topic } from '../../core/policies/topic.js';
import { pagerank } from '../../core/ranking/pagerank.js';
import { csrFromEdges } from '../../core/ranking/csr.js';
import { IndexedHeap } from '../../core/scheduler/indexed-heap.js';
import { Scheduler } from '../../core/scheduler/scheduler.js';
import { SiteState } from '../../core/scheduler/site-state.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { drive as sim, urlOf } from './drive.js';

describe('policy registry', () => {
  it('lists the fourteen policies by their --policy names, each with a summary and its parameters', () => {
    expect(listPolicies().map((p) => p.name)).toEqual([
      'breadth-first', 'backlink-count', 'batch-pagerank', 'partial-pagerank', 'opic', 'larger-sites-first',
      'historical-pagerank-zero', 'historical-pagerank-random', 'historical-pagerank-parent', 'historical-partial-pagerank', 'performance', 'quality',
      'crawl-ability', 'topic',
    ]);
    for (const p of listPolicies()) {
      expect(p.summary.length).toBeGreaterThan(10);
      expect(p.summary).not.toContain('\n');
    }
    expect(listPolicies().find((p) => p.name === 'topic')!.params).toEqual(['topic', 'topicOrder', 'topicRadius', 'batch']);
    expect(listPolicies().find((p) => p.name === 'historical-partial-pagerank')!.params).toEqual(['history', 'batch']);
  });

  it('builds every policy (historical-* given a history by the context)', () => {
    const ctx = { loadHistory: () => new Map([['http://a.test/', 0.5]]) };
    for (const p of listPolicies()) {
      const params = p.name.startsWith('historical') ? { history: 'x.db' } : p.name === 'topic' ? { topic: 'jazz' } : {};
      expect(createPolicy(p.name, params, ctx).name).toBe(p.name);
    }
  });

  it('refuses bad parameters with BAD_OPTION naming them', () => {
    expect(() => createPolicy('batch-pagerank', { batch: 0 })).toThrow(/--batch: 0 is not a whole number >= 1/);
    expect(() => createPolicy('partial-pagerank', { batch: 2.5 })).toThrow(/--batch/);
    expect(() => createPolicy('opic', { topic: 'x' })).toThrow(/--topic: not a parameter of policy opic/);
    expect(() => createPolicy('historical-pagerank-zero', {})).toThrow(/--history: required/);
    const outOfScope = { loadHistory: () => new Map([['http://old.test/', 1]]), inScope: (u: string) => u.startsWith('http://new.test/') };
    expect(() => createPolicy('historical-pagerank-zero', { history: 'old.db' }, outOfScope)).toThrow(/--history: old\.db holds no page/);
    expect(() => createPolicy('quality', { history: 'old.db' }, outOfScope)).toThrow(/--history/);
    // A policy opens no database: without the context's loader, a history is refused.
    expect(() => createPolicy('historical-pagerank-zero', { history: 'old.db' })).toThrow(/--history: old\.db cannot be read here/);
    try {
      createPolicy('performance', { alpha: 2 });
    } catch (err) {
      expect((err as { code: string }).code).toBe('CRAWL_BAD_OPTION');
    }
  });

  it('K: the scheduler batch if the crawl runs in batches, else the parameter, else maxPages/30, else 1000', () => {
    expect((createPolicy('batch-pagerank', {}, { batch: 7 }) as BatchPageRank).k).toBe(7);
    expect((createPolicy('batch-pagerank', { batch: 5 }) as BatchPageRank).k).toBe(5);
    expect((createPolicy('batch-pagerank', {}, { maxPages: 3000 }) as BatchPageRank).k).toBe(100);
    expect((createPolicy('partial-pagerank', {}) as BatchPageRank).k).toBe(1000);
  });
});

describe('IndexedHeap.topPriorities', () => {
  it('gives the k best priorities without changing the heap', () => {
    const h = new IndexedHeap();
    let seed = 3;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const all: number[] = [];
    for (let i = 0; i < 500; i++) {
      const p = Math.floor(rnd() * 50);
      h.set(i, p);
      all.push(p);
    }
    all.sort((a, b) => b - a);
    for (const k of [0, 1, 2, 7, 100, 500, 600]) expect(h.topPriorities(k)).toEqual(all.slice(0, k));
    expect(h.size).toBe(500);
    expect(h.peekPriority()).toBe(all[0]);
    expect(new IndexedHeap().topPriorities(3)).toEqual([]);
  });
});

describe('OPIC', () => {
  it('splits a fetched page\'s cash among its links; the estimate is (history + cash) of fetched pages over the total', () => {
    const opic = new Opic();
    const { host, see, fetch } = sim(opic);
    see(1);
    expect(opic.estimate()).toBe(0);
    fetch(1, [2, 3, 3]); // a duplicate link counts once
    expect(host.priority.get(2)).toBeCloseTo(1.5, 12);
    expect(host.priority.get(3)).toBeCloseTo(1.5, 12);
    // Total = history 1 + cash 1.5 + 1.5 = 4; fetched: history 1.
    expect(opic.estimate()).toBeCloseTo(1 / 4, 12);
    fetch(2, [1]); // back to a fetched page: that cash counts on the fetched side
    expect(opic.historyOf(2)).toBeCloseTo(1.5, 12);
    // Total = history 2.5 + cash (1.5 at page 1, 1.5 at page 3) = 5.5; fetched: 2.5 + 1.5.
    expect(opic.estimate()).toBeCloseTo(4 / 5.5, 12);
    fetch(3, []);
    expect(opic.estimate()).toBeCloseTo(1, 12);
  });
});

describe('batch and partial PageRank', () => {
  it('recomputes every K fetched pages and re-ranks pending pages by the PageRank of the graph seen', () => {
    const policy = new BatchPageRank(2, false);
    const { host, see, fetch } = sim(policy);
    see(1);
    expect(policy.estimate()).toBeNull();
    fetch(1, [2, 3]);
    expect(policy.computations).toBe(0);
    expect(host.priority.get(3)).toBe(0);
    fetch(2, [3, 4]);
    expect(policy.computations).toBe(1);
    // Graph: 1 -> 2, 3; 2 -> 3, 4 (nodes in order of first sight: 1, 2, 3, 4).
    const { ranks } = pagerank(csrFromEdges(4, [0, 0, 1, 1], [1, 2, 2, 3]));
    expect(host.priority.get(3)).toBeCloseTo(ranks[2]!, 9);
    expect(host.priority.get(4)).toBeCloseTo(ranks[3]!, 9);
    expect(policy.estimate()).toBeCloseTo(ranks[0]! + ranks[1]!, 9);
    fetch(3, [5]);
    expect(host.priority.get(5)).toBe(0); // new between computations
    expect(policy.estimate()).toBeCloseTo(ranks[0]! + ranks[1]! + ranks[2]!, 9);
  });

  it('partial: a new page gets the sum of PR(parent)/outdegree(parent) until the next computation', () => {
    const policy = new PartialPageRank(3, false);
    const { host, see, fetch } = sim(policy);
    see(1);
    fetch(1, [2, 3]);
    fetch(2, [3]);
    fetch(3, [4]); // computation: nodes 1, 2, 3, 4
    const pr = (id: number) => policy.rankOf(id)!;
    fetch(4, [5, 6]);
    expect(host.priority.get(5)).toBeCloseTo(pr(4) / 2, 12);
    fetch(5, [6, 7]); // 6 now has two known parents; 7 inherits from 5's own estimate
    expect(host.priority.get(6)).toBeCloseTo(pr(4) / 2 + pr(4) / 4, 12);
    expect(host.priority.get(7)).toBeCloseTo(pr(4) / 4, 12);
  });

  it('in batch mode the scheduler\'s onBatch triggers the computation once the K-th page\'s links are known', () => {
    const policy = createPolicy('batch-pagerank', {}, { batch: 2 }) as BatchPageRank;
    const sched = new Scheduler({ clock: new ManualClock(), policy, r: 1, c: 1, w: 0, batch: 2 });
    const s = new SiteState(1, 'a.test');
    sched.addSite(s);
    sched.enqueue(s, 1, policy.pagePriority({ id: 1, site: s, depth: 0, parentId: null, url: 'http://a.test/', anchor: null }));
    sched.pageDone();
    policy.onFetched(1, s, []);
    sched.pageDone(); // K-th page: onBatch
    expect(policy.computations).toBe(0);
    policy.onFetched(2, s, [1]);
    expect(policy.computations).toBe(1);
  });
});

describe('historical PageRank', () => {
  const old = new Map([['http://a.test/1', 0.4], ['http://a.test/2', 0.1]]);

  it('parent: a new page gets its first parent\'s value over its out-degree in this crawl', () => {
    const policy = new HistoricalPageRank(old, 'parent');
    const { host, see, fetch } = sim(policy);
    see(1);
    fetch(1, [2, 3]);
    expect(host.priority.get(1)).toBe(0.4);
    expect(host.priority.get(2)).toBe(0.1);
    expect(host.priority.get(3)).toBeCloseTo(0.2, 12);
    fetch(3, [4]);
    expect(host.priority.get(4)).toBeCloseTo(0.2, 12); // a new parent's own estimate
    fetch(2, [4]); // a second parent does not change it
    expect(host.priority.get(4)).toBeCloseTo(0.2, 12);
    expect(policy.estimate()).toBeCloseTo(1, 12); // both old pages fetched
  });

  it('zero and the estimate: old PageRank of fetched pages over that of known pages', () => {
    const policy = new HistoricalPageRank(old, 'zero');
    const { host, see, fetch } = sim(policy);
    see(2);
    expect(policy.estimate()).toBe(0);
    fetch(2, [1, 9]);
    expect(host.priority.get(9)).toBe(0);
    expect(policy.estimate()).toBeCloseTo(0.1 / 0.5, 12);
  });

  it('random: values drawn from the old ones, the same for the same seed', () => {
    const draw = (seed: number) => {
      const policy = new HistoricalPageRank(old, 'random', seed);
      const { host, see } = sim(policy, (id) => `http://a.test/new${id}`);
      for (const id of [1, 2, 3, 4, 5, 6]) see(id);
      return [1, 2, 3, 4, 5, 6].map((id) => host.priority.get(id));
    };
    expect(draw(5)).toEqual(draw(5));
    for (const v of draw(5)) expect([0.4, 0.1]).toContain(v);
    expect(new Set(draw(5)).size).toBe(2);
  });
});

describe('topic', () => {
  it('matches the word in the URL or anchor text, case-insensitively, and marks pages within 3 links hot', () => {
    const topic = new Topic('Jazz');
    expect(topic.matches('http://a.test/JAZZ-club', null)).toBe(true);
    expect(topic.matches('http://a.test/x', 'Cool jazz')).toBe(true);
    expect(topic.matches('http://a.test/x', 'blues')).toBe(false);
    const { host, see, fetch } = sim(topic, (id) => (id === 3 ? 'http://a.test/jazz' : urlOf(id)));
    see(1);
    fetch(1, [2, 3]);
    fetch(3, [4, 2]); // /2, known cold through /1, is linked from a hot page: it becomes hot
    fetch(4, [5]);
    fetch(5, [6]);
    fetch(6, [7]);
    expect([1, 2, 3, 4, 5, 6, 7].map((id) => host.priority.get(id))).toEqual([0, HOT, HOT, HOT, HOT, HOT, 0]);
    expect(topic.isHot(1)).toBe(false);
  });

  it("orders both queues by its ordering (Cho et al.'s Graph 6): backlink counts inside the hot band and below it", () => {
    const topic = createPolicy('topic', { topic: 'jazz', topicOrder: 'backlink-count', topicRadius: 0 });
    const { host, see, fetch } = sim(topic, (id) => (id === 3 || id === 4 ? `http://a.test/jazz${id}` : urlOf(id)));
    see(1);
    fetch(1, [2, 3, 4]);
    fetch(2, [3, 5]);
    // 3 and 4 match the word: hot, plus their backlinks (2 and 1); 5 is cold with one backlink; radius 0 spreads nothing.
    expect([2, 3, 4, 5].map((id) => host.priority.get(id))).toEqual([1, HOT + 2, HOT + 1, 1]);
    fetch(3, [6]);
    expect(host.priority.get(6)).toBe(1);
  });

  it('with radius 0 is the paper\'s Fig. 4 crawler: only the URL and the anchor make a page hot', () => {
    const near = createPolicy('topic', { topic: 'jazz', topicRadius: 0 }) as Topic;
    const { host, see, fetch } = sim(near, (id) => (id === 2 ? 'http://a.test/jazz' : urlOf(id)));
    see(1);
    fetch(1, [2]);
    fetch(2, [3]);
    expect([2, 3].map((id) => host.priority.get(id))).toEqual([HOT, 0]);
    expect(() => createPolicy('topic', { topic: 'jazz', topicOrder: 'opic' })).toThrow('--topic-order: "opic" (use breadth-first, backlink-count, batch-pagerank)');
    expect(() => createPolicy('topic', { topic: 'jazz', topicRadius: -1 })).toThrow('--topic-radius');
  });
});
