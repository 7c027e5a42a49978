import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateCrawl } from '../../core/ranking/evaluate.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-similarity-content-');

// "computer": in /x's title; 11 times in /y's body (its links' text); 10 times in /z's body.
const web = handWeb([
  {
    host: 'a.test',
    pages: [
      { path: '/', title: 'Home', links: ['/x', '/y', '/z'] },
      { path: '/x', title: 'Computer lab', links: ['/'] },
      { path: '/y', title: 'Y', links: Array.from({ length: 11 }, () => ({ href: '/', text: 'computer' })) },
      { path: '/z', title: 'Z', links: Array.from({ length: 10 }, () => ({ href: '/', text: 'computer' })) },
    ],
  },
]);

describe('eval --measure similarity over a real crawl of the test web', () => {
  it("reads the stored text of a --store-content crawl: hot by the title or more than ten times in the body", async () => {
    const { port } = await serve(web);
    const db = join(dir, 'content.db');
    await crawl(db, testSettings([`http://a.test:${port}/`], { storeContent: true }));
    const ev = evaluateCrawl(db, { measure: 'similarity', query: 'computer' });
    expect(ev.pagesFetched).toBe(4);
    expect(ev.measure.text).toBe('content');
    expect(ev.threshold.hotPages).toBe(2); // /x by its title, /y by its body; /z has it only ten times

    const titles = join(dir, 'titles.db');
    await crawl(titles, testSettings([`http://a.test:${port}/`]));
    const byTitle = evaluateCrawl(titles, { measure: 'similarity', query: 'computer' });
    expect(byTitle.measure.text).toBe('titles');
    expect(byTitle.threshold.hotPages).toBe(1); // only the title is read
  });
});
