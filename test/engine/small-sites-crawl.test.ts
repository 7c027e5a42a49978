import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-small-sites-crawl-');

// small.test has 2 pages, big.test 5: with --small-site 3 only small.test is small.
const web = handWeb([
  { host: 'small.test', pages: [{ path: '/', links: ['/a'] }, { path: '/a' }] },
  { host: 'big.test', pages: [{ path: '/', links: ['/1', '/2', '/3', '/4'] }, { path: '/1' }, { path: '/2' }, { path: '/3' }, { path: '/4' }] },
]);
const W_SMALL = 600;

describe('crawl --w-small --small-site on the test web', () => {
  it('a small site waits w-small between its connections in a real crawl', async () => {
    const { port } = await serve(web);
    const db = join(dir, 'crawl.db');
    await crawl(db, testSettings([`http://small.test:${port}/`, `http://big.test:${port}/`], { w: 0, wSmall: W_SMALL, smallSite: 3 }));
    const reader = CrawlReader.open(db);
    const at = new Map<string, number[]>();
    try {
      for (const p of reader.pagesByFetch(['url', 'fetchedAt'])) {
        const host = new URL(p.url).hostname;
        at.set(host, [...(at.get(host) ?? []), p.fetchedAt!]);
      }
    } finally {
      reader.close();
    }
    const small = at.get('small.test')!;
    const big = at.get('big.test')!;
    expect(small).toHaveLength(2);
    expect(big).toHaveLength(5);
    // fetched_at is the end of a fetch: the next starts w-small after it and ends later still.
    expect(small[1]! - small[0]!).toBeGreaterThanOrEqual(W_SMALL);
    // (That big.test waits w, not w-small, is checked without a clock in small-sites.test.ts.)
  });
});
