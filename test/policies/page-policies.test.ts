import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import type { BatchPageRank } from '../../core/policies/batch-pagerank.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';
import { crawlOrder } from './order.js';

const dir = tmpDir();

/**
 * Page-level policies on small hand-made webs, crawled through the real Crawler with r = 1
 * and c = 1, so the fetch order is exactly the policy's (ties: lower page id, i.e. the page
 * discovered first). Each web is built so that the policy's order differs from breadth-first.
 */
describe('page-level ordering policies, crawled on loopback', async () => {
  const web = handWeb([
    // backlink-count: /c gathers a second in-link from /a before /b is due.
    {
      host: 'bl.test',
      pages: [
        { path: '/', links: ['/a', '/b', '/c'] },
        { path: '/a', links: ['/c'] },
        { path: '/b', links: ['/c'] },
        { path: '/c', links: ['/d'] },
        { path: '/d' },
      ],
    },
    // OPIC: /a passes all its cash (1 + 1/3) to /d alone, so /d outweighs /b and /c.
    {
      host: 'op.test',
      pages: [{ path: '/', links: ['/a', '/b', '/c'] }, { path: '/a', links: ['/d'] }, { path: '/b' }, { path: '/c' }, { path: '/d' }],
    },
    // larger-sites-first: lb.test has four pages pending, la.test one.
    { host: 'la.test', pages: [{ path: '/', links: ['/1'] }, { path: '/1' }] },
    {
      host: 'lb.test',
      pages: [{ path: '/', links: ['/1', '/2', '/3', '/4'] }, { path: '/1' }, { path: '/2' }, { path: '/3' }, { path: '/4' }],
    },
    // topic "jazz": /music by its anchor text, /jazz-history by its URL; /m1../m3 lie within
    // 3 links of /music, /m4 does not.
    {
      host: 'tp.test',
      pages: [
        { path: '/', links: ['/news', { href: '/music', text: 'The JAZZ club' }, '/sports'] },
        { path: '/news', links: ['/x'] },
        { path: '/music', links: ['/m1'] },
        { path: '/sports', links: ['/jazz-history'] },
        { path: '/m1', links: ['/m2'] },
        { path: '/m2', links: ['/m3'] },
        { path: '/m3', links: ['/m4'] },
        { path: '/m4' },
        { path: '/x' },
        { path: '/jazz-history' },
      ],
    },
    // batch/partial PageRank with K = 2 (see the tests).
    {
      host: 'pr.test',
      pages: [
        { path: '/', links: ['/a', '/b', '/c'] },
        { path: '/a', links: ['/c', '/d'] },
        { path: '/b', links: ['/e'] },
        { path: '/c', links: ['/f'] },
        { path: '/d' },
        { path: '/e' },
        { path: '/f' },
      ],
    },
  ]);
  const { port } = await serve(web);
  const run = (seeds: string[], policy: string, extra = {}) => crawlOrder(dir, port, seeds, policy, extra).then((r) => r.order);

  it('backlink-count: the page with most in-links from fetched pages first', async () => {
    const bfs = await run(['bl.test/'], 'breadth-first');
    expect(bfs).toEqual(['bl.test/', 'bl.test/a', 'bl.test/b', 'bl.test/c', 'bl.test/d']);
    // After / and /a, /c has 2 in-links against 1 for /b; then /b (1, older) before /d (1).
    const order = await run(['bl.test/'], 'backlink-count');
    expect(order).toEqual(['bl.test/', 'bl.test/a', 'bl.test/c', 'bl.test/b', 'bl.test/d']);
    expect(order).not.toEqual(bfs);
  });

  it('opic: the unfetched page holding most cash first', async () => {
    const bfs = await run(['op.test/'], 'breadth-first');
    expect(bfs).toEqual(['op.test/', 'op.test/a', 'op.test/b', 'op.test/c', 'op.test/d']);
    // Cash starts at 1. / gives 1/3 to each of /a /b /c (1.33 each); /a gives its 1.33 to
    // /d alone (2.33), which beats /b and /c.
    const order = await run(['op.test/'], 'opic');
    expect(order).toEqual(['op.test/', 'op.test/a', 'op.test/d', 'op.test/b', 'op.test/c']);
    expect(order).not.toEqual(bfs);
  });

  it('larger-sites-first: the site with most pending pages first', async () => {
    const bfs = await run(['la.test/', 'lb.test/'], 'breadth-first');
    expect(bfs).toEqual(['la.test/', 'lb.test/', 'la.test/1', 'lb.test/1', 'lb.test/2', 'lb.test/3', 'lb.test/4']);
    // Once lb.test/ is fetched lb.test has 4 pending against 1: it goes first until both
    // have one left; then the site with the older page (la.test/1).
    const order = await run(['la.test/', 'lb.test/'], 'larger-sites-first');
    expect(order).toEqual(['la.test/', 'lb.test/', 'lb.test/1', 'lb.test/2', 'lb.test/3', 'la.test/1', 'lb.test/4']);
    expect(order).not.toEqual(bfs);
  });

  it('topic: the hot queue (word in URL or anchor, or within 3 links of such a page) first', async () => {
    const bfs = await run(['tp.test/'], 'breadth-first');
    expect(bfs).toEqual([
      'tp.test/', 'tp.test/news', 'tp.test/music', 'tp.test/sports', 'tp.test/x', 'tp.test/m1', 'tp.test/jazz-history',
      'tp.test/m2', 'tp.test/m3', 'tp.test/m4',
    ]);
    const order = await run(['tp.test/'], 'topic', { policyParams: { topic: 'Jazz' } });
    expect(order).toEqual([
      'tp.test/', 'tp.test/music', 'tp.test/m1', 'tp.test/m2', 'tp.test/m3', // hot: anchor, then 1..3 links away
      'tp.test/news', 'tp.test/sports', 'tp.test/jazz-history', // cold FIFO until /sports reveals a hot URL
      'tp.test/m4', 'tp.test/x', // cold: /m4 is 4 links from /music (found before /x)
    ]);
    expect(order).not.toEqual(bfs);
  });

  const prBfs = ['pr.test/', 'pr.test/a', 'pr.test/b', 'pr.test/c', 'pr.test/d', 'pr.test/e', 'pr.test/f'];

  it('batch-pagerank (K = 2): pending pages by the PageRank of the graph seen at the last computation', async () => {
    expect(await run(['pr.test/'], 'breadth-first')).toEqual(prBfs);
    // After / and /a: PR(/c) > PR(/d) > PR(/b) (/d gets half of /a, /b a third of /, which
    // has no in-link). /f, found by /c, waits with 0 until the computation after /d, which
    // puts it (all of /c) above /b; /e comes last.
    const order = await run(['pr.test/'], 'batch-pagerank', { policyParams: { batch: 2 } });
    expect(order).toEqual(['pr.test/', 'pr.test/a', 'pr.test/c', 'pr.test/d', 'pr.test/f', 'pr.test/b', 'pr.test/e']);
    expect(order).not.toEqual(prBfs);
  });

  it('partial-pagerank (K = 2): a new page gets PR(parent)/outdegree(parent) between computations', async () => {
    // /f, found by /c, gets PR(/c)/1 right away, above PR(/d): it overtakes /d.
    const order = await run(['pr.test/'], 'partial-pagerank', { policyParams: { batch: 2 } });
    expect(order).toEqual(['pr.test/', 'pr.test/a', 'pr.test/c', 'pr.test/f', 'pr.test/d', 'pr.test/b', 'pr.test/e']);
    expect(order).not.toEqual(prBfs);
  });

  it('with --batch K the scheduler drives the computations (onBatch every K pages) and the crawl completes', async () => {
    for (const name of ['batch-pagerank', 'partial-pagerank']) {
      const db = join(dir, `${name}-scheduled.db`);
      const crawler = Crawler.create(db, testSettings([`http://pr.test:${port}/`], { r: 1, c: 1, policy: name, batch: 2 }));
      const summary = await crawler.run();
      const policy = crawler.ctx.policy as BatchPageRank;
      crawler.close();
      expect(summary).toMatchObject({ stopReason: 'finished', pagesFetched: 7 });
      expect(policy.computations).toBe(3); // after pages 2, 4 and 6
      expect(policy.estimate()).toBeGreaterThan(0.5);
      expect(policy.estimate()).toBeLessThanOrEqual(1);
    }
  });
});
