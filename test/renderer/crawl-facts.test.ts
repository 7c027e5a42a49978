/** Live's settings panel and progress (renderer/lib/crawl-facts.ts). */
import { describe, expect, it } from 'vitest';
import type { CrawlSettingsDto } from '../../core/api/contract.js';
import { crawlProgress, formatDuration, formatWait, settingFacts } from '../../renderer/lib/crawl-facts.js';

const settings = (extra: Partial<CrawlSettingsDto> = {}): CrawlSettingsDto => ({
  id: 'a',
  seeds: ['https://www.uchile.cl/', 'https://www.emol.cl/'],
  scope: { suffixes: ['.cl'], hosts: [], excludes: [] },
  seedText: '',
  siteKey: 'host',
  policy: 'opic',
  policyParams: { alpha: 0.5 },
  historyCrawl: null,
  w: 15_000,
  c: 1,
  r: 256,
  batch: null,
  maxPages: null,
  maxDepth: 15,
  maxPagesPerSite: 25_000,
  userAgent: 'crawlbench/0.1',
  storeContent: false,
  contentBudget: 10 * 1024 ** 3,
  sitemaps: false,
  tls: 'record',
  caPem: null,
  demoWeb: null,
  ...extra,
});

describe('crawl facts', () => {
  it('states every setting in words, w in seconds or milliseconds', () => {
    const f = Object.fromEntries(settingFacts(settings()).map((x) => [x.key, x.value]));
    expect(f).toMatchObject({ seeds: 'https://www.uchile.cl/, https://www.emol.cl/', scope: '.cl', policy: 'opic', params: 'alpha = 0.5', history: 'none', w: '15 s', c: '1', r: '256', batch: 'none', maxPages: 'no limit', maxDepth: '15', content: 'no', sitemaps: 'not read: links only' });
    expect(Object.fromEntries(settingFacts(settings({ sitemaps: true })).map((x) => [x.key, x.value])).sitemaps).toBe('read: pages found through them too');
    const demo = Object.fromEntries(settingFacts(settings({ w: 50, demoWeb: { sites: 60, pages: 3000, latencyMs: 20, revision: 2, webPages: 3449 }, historyCrawl: 'first' })).map((x) => [x.key, x.value]));
    expect(demo.source).toBe('demo web, revision 2 (months later) of the web of 60 sites, 3,000 pages: 3,449 pages');
    expect(demo.w).toBe('50 ms');
    expect(demo.history).toBe('first');
    expect(settingFacts(settings()).every((x) => x.title.length > 0)).toBe(true);
  });

  it('says durations as a person would', () => {
    expect(formatDuration(4.25)).toBe('4.3 s');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3 d 4 h');
    expect(formatDuration(null)).toBe('–');
    expect(formatWait(15_000)).toBe('15 s');
  });

  it('shows progress and time left only where the total is known', () => {
    expect(crawlProgress(settings(), 500, 10, { running: true, finished: false })).toBeNull();
    const demo = settings({ demoWeb: { sites: 60, pages: 3000, latencyMs: 20, revision: 1, webPages: 3000 } });
    expect(crawlProgress(demo, 1500, 100, { running: true, finished: false })).toEqual({ fraction: 0.5, total: 3000, of: "the demo web's pages", etaSeconds: 15 });
    // The page limit, when it is the smaller total.
    expect(crawlProgress({ ...demo, maxPages: 2000 }, 1500, 100, { running: true, finished: false })).toEqual({ fraction: 0.75, total: 2000, of: 'the page limit', etaSeconds: 5 });
    // Paused: no pace, no time left; finished: done, whatever was out of reach.
    expect(crawlProgress(demo, 1500, 100, { running: false, finished: false })?.etaSeconds).toBeNull();
    expect(crawlProgress(demo, 2890, null, { running: false, finished: true })).toMatchObject({ fraction: 1, etaSeconds: null });
  });

  it("measures a crawl of the demo's revision 2 against that web's pages, not revision 1's (issue 23)", () => {
    const rev2 = settings({ demoWeb: { sites: 60, pages: 3000, latencyMs: 20, revision: 2, webPages: 3449 } });
    const p = crawlProgress(rev2, 2682, 100, { running: true, finished: false })!;
    expect(p).toMatchObject({ total: 3449, of: "the demo web's pages" });
    expect(p.fraction).toBeCloseTo(2682 / 3449, 6);
    expect(p.etaSeconds).toBeCloseTo((3449 - 2682) / 100, 6);
    // More pages than revision 1 had: still under way, not 100 %.
    expect(crawlProgress(rev2, 3170, 100, { running: true, finished: false })!.fraction).toBeLessThan(1);
    // A web whose size is not known (a crawl made before it was kept): no progress, no time left; a page limit still gives them.
    const unknown = settings({ demoWeb: { sites: 60, pages: 3000, latencyMs: 20, revision: 2, webPages: null } });
    expect(crawlProgress(unknown, 2682, 100, { running: true, finished: false })).toBeNull();
    expect(crawlProgress({ ...unknown, maxPages: 5000 }, 2500, 100, { running: true, finished: false })).toMatchObject({ total: 5000, of: 'the page limit' });
  });
});
