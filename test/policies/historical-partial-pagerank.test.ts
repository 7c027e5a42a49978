import { describe, expect, it } from 'vitest';
import { HistoricalPartialPageRank } from '../../core/policies/historical-partial-pagerank.js';
import { createPolicy } from '../../core/policies/registry.js';
import { drive } from './drive.js';

/**
 * historical-partial-pagerank on cases worked out by hand. The history knows /1 (PageRank 0.4)
 * and /2 (0.1): 2 pages, so in units of the mean page /1 is worth 0.8 and /2 0.2. d = 0.85, so
 * a page's in-link estimate is 0.15 + 0.85 * (sum of its fetched parents' shares).
 */
const old = new Map([['http://a.test/1', 0.4], ['http://a.test/2', 0.1]]);
const d = 0.85;

describe('historical-partial-pagerank', () => {
  it('ranks by the largest of old PageRank and the in-link estimate; every fetched parent counts', () => {
    const policy = new HistoricalPartialPageRank(old, 1000, false); // no PageRank computation here
    const { host, see, fetch } = drive(policy);
    see(1);
    expect(host.priority.get(1)).toBeCloseTo(0.8, 12); // old 0.4 * 2 pages
    fetch(1, [2, 3]);
    // /1 gives 0.8 / 2 = 0.4 to each: 0.15 + 0.85 * 0.4 = 0.49, above /2's old 0.2, so the old
    // page /2 rises with its in-links (historical-pagerank-parent keeps it at 0.1).
    expect(host.priority.get(2)).toBeCloseTo(0.49, 12);
    expect(host.priority.get(3)).toBeCloseTo(0.49, 12);
    fetch(3, [4]);
    expect(host.priority.get(4)).toBeCloseTo(0.15 + d * 0.49, 12); // 0.5665
    fetch(2, [4]); // a second parent adds its share (parent would keep the first one's)
    expect(host.priority.get(4)).toBeCloseTo(0.15 + d * (0.49 + 0.49), 12); // 0.983
    expect(policy.historyMatched()).toBe(2);
    expect(policy.estimate()).toBeNull(); // no PageRank of the graph seen yet
  });

  it('an old page keeps its old value when its in-links say less', () => {
    const policy = new HistoricalPartialPageRank(new Map([['http://a.test/1', 0.1], ['http://a.test/2', 0.9]]), 1000, false);
    const { host, see, fetch } = drive(policy);
    see(1);
    fetch(1, [2, 3]); // /1 (0.2) gives 0.1 each: 0.15 + 0.085 = 0.235
    expect(host.priority.get(2)).toBeCloseTo(1.8, 12); // its old 0.9 * 2 is larger
    expect(host.priority.get(3)).toBeCloseTo(0.235, 12);
  });

  it('every K pages, the PageRank of the graph seen times its pages when that is larger', () => {
    const policy = new HistoricalPartialPageRank(old, 1, false); // PageRank after every fetch
    const { host, see, fetch } = drive(policy);
    see(1);
    fetch(1, [2, 3]);
    // The graph seen: 1 -> 2, 1 -> 3, with 2 and 3 dangling. PageRank: R2 = R3 and
    // R1 = 1 - 2 R2 with R2 = (1 - d)/3 + d (R1/2 + (R2 + R3)/3), so R2 = (2 + d) / (2 (3 + d)).
    const r2 = (2 + d) / (2 * (3 + d));
    // 3 pages: 3 * R2 = 1.1104 beats both the in-link estimate 0.49 and /2's old 0.2.
    expect(host.priority.get(2)).toBeCloseTo(3 * r2, 9);
    expect(host.priority.get(3)).toBeCloseTo(3 * r2, 9);
    // The live estimate is batch-pagerank's: the share of that PageRank on fetched pages.
    expect(policy.estimate()).toBeCloseTo(1 - 2 * r2, 9);
  });

  it('is built by the registry with --history and --batch, and refuses to run without a history', () => {
    const ctx = { loadHistory: () => old, maxPages: 3000 };
    const policy = createPolicy('historical-partial-pagerank', { history: 'old.db' }, ctx) as HistoricalPartialPageRank;
    expect(policy.name).toBe('historical-partial-pagerank');
    expect(policy.k).toBe(100); // a thirtieth of the crawl, as batch-pagerank
    expect((createPolicy('historical-partial-pagerank', { history: 'old.db', batch: 7 }, ctx) as HistoricalPartialPageRank).k).toBe(7);
    expect(() => createPolicy('historical-partial-pagerank', {}, ctx)).toThrow(/--history: required by policy historical-partial-pagerank/);
  });
});
