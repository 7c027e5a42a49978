import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { csrFromEdges } from '../../core/ranking/csr.js';
import { evaluateCrawl, metrics } from '../../core/ranking/evaluate.js';
import { pagerank } from '../../core/ranking/pagerank.js';
import { rankCrawl } from '../../core/ranking/rank-crawl.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { tmpDir } from '../helpers/tmp.js';
import { makeCrawl } from './fixtures.js';

const dir = tmpDir('crawlbench-evaluate-');

// Ten pages on two sites whose PageRank values are all different (checked below).
const URLS = Array.from({ length: 10 }, (_, i) => `http://${i < 6 ? 'a' : 'b'}.test/${i}`);
const LINKS: Array<[number, number]> = [
  [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0], [7, 0], [8, 0], [9, 0],
  [0, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 1], [7, 1],
  [0, 2], [3, 2], [4, 2], [5, 2], [6, 2],
  [0, 3], [4, 3], [5, 3],
  [0, 4], [5, 4],
  [0, 5], [1, 6], [2, 7], [3, 8],
];
const truth = pagerank(csrFromEdges(10, LINKS.map((l) => l[0]), LINKS.map((l) => l[1])), { tolerance: 1e-15, maxIterations: 10_000 }).ranks;
const byRank = [...truth.keys()].sort((a, b) => truth[b]! - truth[a]!); // page indexes, best first

describe('evaluateCrawl', () => {
  it('the test graph has ten distinct PageRank values', () => {
    expect(new Set(truth).size).toBe(10);
  });

  it('fetching in decreasing PageRank reaches the upper bound, tau = +1; the reverse gives tau = -1', () => {
    const best = join(dir, 'best.db');
    makeCrawl(best, { urls: URLS, links: LINKS, fetchOrder: byRank });
    const ev = evaluateCrawl(best);
    expect(ev.truth).toBe('computed');
    expect(ev.pagesFetched).toBe(10);
    expect(ev.averageCumulativePageRank).toBeCloseTo(ev.upperBoundAverage, 12);
    expect(ev.kendallTau).toBeCloseTo(1, 12);
    expect(ev.crawlAndStop.every((c) => c.share === 1)).toBe(true);
    expect(ev.curve.at(-1)!.cumulativePageRank).toBeCloseTo(1, 12);
    expect(ev.crawlSeconds).toBe(9);

    const worst = join(dir, 'worst.db');
    makeCrawl(worst, { urls: URLS, links: LINKS, fetchOrder: [...byRank].reverse() });
    const rev = evaluateCrawl(worst);
    expect(rev.kendallTau).toBeCloseTo(-1, 12);
    expect(rev.averageCumulativePageRank).toBeLessThan(0.5);
    expect(rev.averageCumulativePageRank + rev.upperBoundAverage).toBeCloseTo(1, 12); // mirror images
  });

  it('Crawl & Stop and Crawl & Stop with Threshold, counted by hand', () => {
    // Fetch rank positions 0,5,1,6,2,7,3,8,4,9 (position 0 = highest PageRank).
    const positions = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9];
    const path = join(dir, 'interleaved.db');
    makeCrawl(path, { urls: URLS, links: LINKS, fetchOrder: positions.map((p) => byRank[p]!) });
    const ev = evaluateCrawl(path);
    // K = ceil(n * p%): 1, 1, 1, 3, 5. First 3 fetched {0,5,1} hold 2 of the top 3;
    // first 5 {0,5,1,6,2} hold 3 of the top 5.
    expect(ev.crawlAndStop.map((c) => c.k)).toEqual([1, 1, 1, 3, 5]);
    expect(ev.crawlAndStop.map((c) => c.share)).toEqual([1, 1, 1, 2 / 3, 3 / 5]);
    // Default G: the value of the top 10% page (position 0): one hot page, fetched first.
    expect(ev.threshold.hotPages).toBe(1);
    expect(ev.threshold.fetched.map((t) => t.share)).toEqual([1, 1, 1, 1]);
    // G = the 4th value: hot = positions 0..3; after 1, 3, 5, 8 pages: {0}, {0,1}, {0,1,2}, all.
    const total = byRank.reduce((s, i) => s + truth[i]!, 0);
    const g = (truth[byRank[3]!]! + truth[byRank[4]!]!) / 2 / total; // between the 4th and 5th
    const withG = evaluateCrawl(path, { threshold: g });
    expect(withG.threshold.hotPages).toBe(4);
    expect(withG.threshold.fetched.map((t) => t.share)).toEqual([1 / 4, 2 / 4, 3 / 4, 1]);
    expect(withG.kendallTau).toBeGreaterThan(0);
    expect(withG.kendallTau).toBeLessThan(1);
  });

  it('uses the stored run once `rank` has stored one', () => {
    const path = join(dir, 'stored.db');
    makeCrawl(path, { urls: URLS, links: LINKS, fetchOrder: byRank, t0: 1000 });
    const before = evaluateCrawl(path);
    const store = CrawlStore.open(path);
    rankCrawl(store.db, { tolerance: 1e-15 });
    store.close();
    const after = evaluateCrawl(path);
    expect(after.truth).toBe('stored');
    expect(after.averageCumulativePageRank).toBeCloseTo(before.averageCumulativePageRank, 9);
  });

  it('an oracle gives 0 to pages it lacks and normalises over the fetched pages', () => {
    const oracle = join(dir, 'oracle.db');
    makeCrawl(oracle, { urls: URLS, links: LINKS, fetchOrder: byRank });
    const partial = join(dir, 'partial.db');
    // Fetches the best page, a page the oracle never saw, then the second best.
    makeCrawl(partial, {
      urls: [URLS[byRank[0]!]!, 'http://c.test/unknown', URLS[byRank[1]!]!],
      links: [[0, 1], [1, 2]],
      fetchOrder: [0, 1, 2],
    });
    const ev = evaluateCrawl(partial, { oracle });
    expect(ev.truth).toBe('oracle');
    const [a, b] = [truth[byRank[0]!]!, truth[byRank[1]!]!];
    expect(ev.truthCovered).toBeCloseTo(a + b, 9);
    const curve = ev.curve.map((p) => p.cumulativePageRank);
    expect(curve[1]).toBeCloseTo(a / (a + b), 9);
    expect(curve[2]).toBeCloseTo(a / (a + b), 9); // the unknown page adds nothing
    expect(curve[3]).toBeCloseTo(1, 12);
    expect(() => evaluateCrawl(partial, { oracle: join(dir, 'nope.db') })).toThrow(
      expect.objectContaining({ code: ErrorCodes.DB_MISSING }),
    );
  });

  it('downsamples the curve to the requested points, keeping both ends', () => {
    const path = join(dir, 'best.db');
    const ev = evaluateCrawl(path, { points: 4 });
    expect(ev.curve.length).toBe(4);
    expect(ev.curve[0]).toEqual({ fractionPages: 0, cumulativePageRank: 0, seconds: 0, random: 0, upperBound: 0 });
    expect(ev.curve.at(-1)!.fractionPages).toBe(1);
    expect(ev.curve.at(-1)!.seconds).toBe(9);
  });
});

describe('metrics on values given by hand', () => {
  it('area, tau, pages for a share of PageRank', () => {
    // Fetch order values 0.1, 0.4, 0.3, 0.2: cumulative 0, .1, .5, .8, 1.
    const m = metrics({ values: Float64Array.of(0.1, 0.4, 0.3, 0.2), times: Float64Array.of(0, 500, 1000, 4000) });
    expect(m.averageCumulativePageRank).toBeCloseTo((0.05 + 0.3 + 0.65 + 0.9) / 4, 12);
    expect(m.upperBoundAverage).toBeCloseTo((0.2 + 0.55 + 0.8 + 0.95) / 4, 12);
    expect(m.kendallTau).toBeCloseTo(0, 12); // 3 concordant, 3 discordant pairs
    expect(m.pagesForPageRank.map((p) => p.fractionPages)).toEqual([0.5, 0.75, 1]);
    expect(m.crawlSeconds).toBe(4);
    expect(m.curve.map((p) => p.seconds)).toEqual([0, 0, 0.5, 1, 4]);
  });

  it('shares top-K slots fairly among tied values', () => {
    // Values in fetch order: 1, 3, 3, 3 (normalisation does not matter here). Top-1 is one
    // of the three 3s: the first fetched page is a 1, so K = 1 scores 0; K = 2 (50%): one 3.
    const m = metrics({ values: Float64Array.of(1, 3, 3, 3), times: new Float64Array(4) });
    expect(m.crawlAndStop.find((c) => c.percent === 50)!.share).toBe(1 / 2);
    expect(m.crawlAndStop.find((c) => c.percent === 1)!.share).toBe(0);
  });
});
