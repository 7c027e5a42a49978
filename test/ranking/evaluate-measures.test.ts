import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ErrorCodes } from '../../core/errors.js';
import { evaluateCrawl } from '../../core/ranking/evaluate.js';
import { measureById } from '../../core/ranking/measure.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { tmpDir } from '../helpers/tmp.js';
import { fetched } from './fixtures.js';

const dir = tmpDir('crawlbench-measures-');

// Five pages of one site. Backlinks (IB): / 4, /a 2, /a/b 1, /c 0, /d 0.
const URLS = ['http://a.test/', 'http://a.test/a', 'http://a.test/a/b', 'http://a.test/c', 'http://a.test/d'];
const TITLES = ['Computer home', 'Lab', 'computer, computer', null, 'Garden'];
const LINKS: Array<[number, number]> = [[1, 0], [2, 0], [3, 0], [4, 0], [0, 1], [2, 1], [0, 2]];
const ORDER = [3, 0, 1, 4, 2];

function makeCrawl(path: string): void {
  const store = CrawlStore.create(path, validateSettings({ seeds: [URLS[0]!] }));
  store.begin();
  const site = store.insertSite('a.test');
  const ids = URLS.map((url) => store.insertPage({ url, siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' }));
  ORDER.forEach((i, k) => store.recordFetch(ids[i]!, { ...fetched(1_700_000_000_000 + k * 1000), title: TITLES[i]! }));
  for (const [a, b] of LINKS) store.insertLinks(ids[a]!, [{ dst: ids[b]!, anchor: null, nofollow: false, kind: 'a' }]);
  store.setState('finished');
  store.commit();
  store.close();
}

const db = join(dir, 'crawl.db');
makeCrawl(db);

function withReader<T>(fn: (reader: CrawlReader) => T): T {
  const reader = CrawlReader.open(db);
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}

describe("eval --measure: Cho et al.'s measures of a finished crawl", () => {
  it('backlinks: hot pages on the raw scale (G = 2: / and /a), Crawl & Stop with Threshold by hand', () => {
    const ev = evaluateCrawl(db, { measure: 'backlinks', threshold: 2 });
    expect(ev.measure.name).toBe('backlinks');
    expect(ev.threshold).toEqual({
      g: 2,
      hotPages: 2,
      // fetched /c, /, /a, /d, /a/b: after 1 page none, after 2 one of two, after 3 both.
      fetched: [{ percent: 10, share: 0 }, { percent: 25, share: 0.5 }, { percent: 50, share: 1 }, { percent: 75, share: 1 }],
    });
    expect(ev.choCurve.map((p) => p.hotFetched)).toEqual([0, 0.5, 1, 1, 1]);
    // Crawl & Stop: K = 1 takes /c (0 backlinks), the top page has 4: 0. K = 2: / is in the top 2 (4, 2): 1/2.
    expect(ev.choCurve.slice(0, 2).map((p) => p.crawlAndStop)).toEqual([0, 0.5]);
    expect(ev.choCurve.at(-1)!.crawlAndStop).toBe(1);
  });

  it("backlinks: the paper's G = 100 is the default, and none of five pages reaches it", () => {
    const ev = evaluateCrawl(db, { measure: 'backlinks' });
    expect(ev.threshold.g).toBe(100);
    expect(ev.threshold.hotPages).toBe(0);
    expect(ev.threshold.fetched.every((t) => t.share === null)).toBe(true);
  });

  it('ir: d = 0.9 and values summing to N; G = 13 by default', () => {
    withReader((reader) => {
      const { byId, info } = measureById(reader, { measure: 'ir' });
      expect([...byId.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(5, 9);
      expect(info.damping).toBe(0.9);
      const one = measureById(reader, { measure: 'ir', scale: '1' });
      expect([...one.byId.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    });
    expect(evaluateCrawl(db, { measure: 'ir' }).threshold.g).toBe(13);
  });

  it('similarity over the titles of a crawl without stored content, said so; hot pages by the topic rule', () => {
    withReader((reader) => {
      const { byId, info } = measureById(reader, { measure: 'similarity', query: 'computer' });
      expect(info.text).toBe('titles');
      // "computer": tf 1 in /, 2 in /a/b; cf 3 => 1/9 and 2/9.
      expect(byId.get(1)).toBeCloseTo(1 / 9, 15);
      expect(byId.get(3)).toBeCloseTo(2 / 9, 15);
      expect(byId.get(2)).toBe(0);
    });
    const ev = evaluateCrawl(db, { measure: 'similarity', query: 'computer' });
    expect(ev.measure).toMatchObject({ text: 'titles', hot: 'topic', query: 'computer' });
    expect(ev.threshold.hotPages).toBe(2); // / and /a/b have the word in their titles
    expect(() => evaluateCrawl(db, { measure: 'similarity' })).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_OPTION, message: expect.stringContaining('--query') }));
  });

  it("Graph 7's rule: on the topic and at least N backlinks (--hot-backlinks), only with similarity", () => {
    // On the topic: / (4 backlinks) and /a/b (1). With N = 2 only / is hot; with N = 1 both; with N = 5 none.
    const hot = (n: number) => evaluateCrawl(db, { measure: 'similarity', query: 'computer', hotBacklinks: n });
    expect(hot(2).threshold.hotPages).toBe(1);
    expect(hot(2).measure.hotBacklinks).toBe(2);
    // Fetched /c, /, /a, /d, /a/b: the one hot page, /, comes second.
    expect(hot(2).choCurve.map((p) => p.hotFetched)).toEqual([0, 1, 1, 1, 1]);
    expect(hot(1).threshold.hotPages).toBe(2);
    expect(hot(5).threshold.hotPages).toBe(0);
    expect(() => evaluateCrawl(db, { measure: 'backlinks', hotBacklinks: 5 })).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_OPTION, message: expect.stringContaining('--hot-backlinks') }));
  });

  it("location: minus the path's slashes; the shallow pages are the top ones", () => {
    withReader((reader) => expect([...measureById(reader, { measure: 'location' }).byId.values()]).toEqual([-1, -1, -2, -1, -1]));
    const ev = evaluateCrawl(db, { measure: 'location', threshold: -1 });
    expect(ev.threshold.hotPages).toBe(4);
  });

  it("Kendall's tau on Castillo's sample equals the exact tau-b when the crawl has fewer pages", () => {
    const ev = evaluateCrawl(db);
    expect(ev.kendallTauSampled).toEqual({ size: 5, seed: 1, tau: ev.kendallTau });
  });
});
