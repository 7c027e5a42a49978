import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();

function order(db: string): string[] {
  const store = CrawlStore.open(db, { readonly: true });
  const urls = store.db.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL ORDER BY fetch_seq').pluck().all() as string[];
  store.close();
  return urls;
}

/**
 * A policy's memory (OPIC cash, backlink counts, PageRank of the graph seen so far,
 * historical-partial-pagerank's in-link estimates) is rebuilt on resume, so a crawl stopped
 * and resumed fetches in exactly the order of one that ran without stopping (sequential
 * crawl: r = 1, c = 1).
 */
describe('resume keeps the policy order', async () => {
  const web = generateWeb({ seed: 8, sites: 6, pages: 240, latency: false });
  const { port } = await serve(web);
  const seeds = seedUrls(web, port);

  /** An earlier crawl of part of the web, for the policy guided by one: the rest is new to it. */
  const history = join(dir, 'history.db');
  const params: Record<string, Record<string, unknown>> = { 'partial-pagerank': { batch: 40 }, 'historical-partial-pagerank': { batch: 40, history } };

  for (const policy of ['opic', 'backlink-count', 'partial-pagerank', 'larger-sites-first', 'historical-partial-pagerank']) {
    it(policy, async () => {
      if (policy.startsWith('historical')) await crawl(history, testSettings(seeds, { r: 1, c: 1, w: 0, maxPages: 120 }));
      const settings = testSettings(seeds, { policy, r: 1, c: 1, w: 0, policyParams: params[policy] ?? {} });
      const whole = join(dir, `${policy}-whole.db`);
      await crawl(whole, settings);
      const parts = join(dir, `${policy}-parts.db`);
      const first = Crawler.create(parts, { ...settings, maxPages: 70 });
      expect((await first.run()).stopReason).toBe('max-pages');
      first.close();
      for (const maxPages of [130, 1000]) {
        const next = Crawler.open(parts, { maxPages });
        await next.run();
        next.close();
      }
      const expected = order(whole);
      expect(expected.length).toBeGreaterThan(150);
      expect(order(parts)).toEqual(expected);
    });
  }
});
