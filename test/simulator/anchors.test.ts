import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { prepare, runOne } from '../../core/simulator/simulate.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { tmpDir } from '../helpers/tmp.js';
import { fetched } from '../ranking/fixtures.js';

const dir = tmpDir('crawlbench-sim-anchors-');

// A crawl of one site: / links to /p1 ... /p5; only the link to /p5 says "computer" (its URL does not).
function makeCrawl(path: string): void {
  const urls = ['http://a.test/', ...[1, 2, 3, 4, 5].map((i) => `http://a.test/p${i}`)];
  const store = CrawlStore.create(path, validateSettings({ seeds: [urls[0]!] }));
  store.begin();
  const site = store.insertSite('a.test');
  const ids = urls.map((url) => store.insertPage({ url, siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' }));
  ids.forEach((id, k) => store.recordFetch(id, fetched(1_700_000_000_000 + k * 1000)));
  for (let i = 1; i <= 5; i++) store.insertLinks(ids[0]!, [{ dst: ids[i]!, anchor: i === 5 ? 'Computer museum' : `page ${i}`, nofollow: false, kind: 'a' }]);
  store.setState('finished');
  store.commit();
  store.close();
}

describe('simulator: anchors passed to the policies', () => {
  it("the topic policy finds a hot page by its link's anchor text in a crawl database", () => {
    const db = join(dir, 'crawl.db');
    makeCrawl(db);
    const p = prepare({ graph: db });
    const run = runOne(p, 'topic', { topic: 'computer', r: 1, w: 0, c: 1, bandwidth: Infinity, latency: false });
    expect(p.g.anchors?.filter((a) => a !== null)).toHaveLength(5);
    // /p5 is hot through its anchor: fetched right after the home page, before the cold ones.
    expect(Array.from(run.order, (v) => p.g.urls[v])).toEqual(['http://a.test/', 'http://a.test/p5', 'http://a.test/p1', 'http://a.test/p2', 'http://a.test/p3', 'http://a.test/p4']);
  });
});
