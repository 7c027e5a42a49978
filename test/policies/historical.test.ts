import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { pageRankByUrl } from '../../core/ranking/crawl-graph.js';
import { mulberry32 } from '../../core/random.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';
import { crawlOrder } from './order.js';

const dir = tmpDir();

/** The web as the earlier crawl saw it: / and /c link to each other, /a and /b feed /c. */
const oldWeb = handWeb([
  {
    host: 'hs.test',
    pages: [{ path: '/', links: ['/a', '/b', '/c'] }, { path: '/a', links: ['/c'] }, { path: '/b', links: ['/c'] }, { path: '/c', links: ['/'] }],
  },
]);
/** Months later: new pages /n, /m, /k. */
const newWeb = handWeb([
  {
    host: 'hs.test',
    pages: [
      { path: '/', links: ['/a', '/b', '/c', '/n'] },
      { path: '/a', links: ['/c'] },
      { path: '/b', links: ['/c', '/m'] },
      { path: '/c', links: ['/', '/k'] },
      { path: '/n' },
      { path: '/m' },
      { path: '/k' },
    ],
  },
]);

/**
 * Historical PageRank: an earlier crawl of hs.test is made first; the changed web is then
 * served on the same port (URLs keep their port, so they match) and crawled with --history.
 */
describe('historical-pagerank-{zero,random,parent} and quality with --history', () => {
  const oldDb = join(dir, 'old.db');
  let port = 0;
  let server: TestWebServer;
  let old: Map<string, number>;
  const pr = (path: string) => old.get(`http://hs.test:${port}${path}`)!;

  beforeAll(async () => {
    const first = new TestWebServer(oldWeb, { port: 0 });
    port = await first.start();
    await crawl(oldDb, testSettings([`http://hs.test:${port}/`], { r: 1, c: 1 }));
    await first.stop();
    server = new TestWebServer(newWeb, { port });
    await server.start();
    old = pageRankByUrl(oldDb);
  });
  afterAll(() => server?.stop());

  const run = (policy: string, params: Record<string, unknown> = {}) =>
    crawlOrder(dir, port, ['hs.test/'], policy, { policyParams: { history: oldDb, ...params } }).then((r) => r.order);
  const bfs = ['hs.test/', 'hs.test/a', 'hs.test/b', 'hs.test/c', 'hs.test/n', 'hs.test/m', 'hs.test/k'];

  it('the old PageRank ranks /c above / above /a = /b', () => {
    expect(old.size).toBe(4);
    expect(pr('/c')).toBeGreaterThan(pr('/'));
    expect(pr('/')).toBeGreaterThan(pr('/a'));
    expect(pr('/a')).toBeCloseTo(pr('/b'), 12);
  });

  it('breadth-first on the new web (the baseline)', async () => {
    expect((await crawlOrder(dir, port, ['hs.test/'], 'breadth-first')).order).toEqual(bfs);
  });

  it('zero: known pages by old PageRank, then the new pages (0) in discovery order', async () => {
    const order = await run('historical-pagerank-zero');
    expect(order).toEqual(['hs.test/', 'hs.test/c', 'hs.test/a', 'hs.test/b', 'hs.test/n', 'hs.test/k', 'hs.test/m']);
    expect(order).not.toEqual(bfs);
  });

  it('parent: a new page gets PR(parent)/outdegree(parent) in this crawl', async () => {
    // /n = PR(/)/4, /k = PR(/c)/2, /m = PR(/b)/2: /k outranks /a and /b, /n outranks /m.
    expect(pr('/c') / 2).toBeGreaterThan(pr('/a'));
    expect(pr('/') / 4).toBeGreaterThan(pr('/b') / 2);
    expect(pr('/') / 4).toBeLessThan(pr('/a'));
    const order = await run('historical-pagerank-parent');
    expect(order).toEqual(['hs.test/', 'hs.test/c', 'hs.test/k', 'hs.test/a', 'hs.test/b', 'hs.test/n', 'hs.test/m']);
    expect(order).not.toEqual(bfs);
  });

  it('random: a new page gets an old value drawn by a seeded generator (reproducible)', async () => {
    // The values drawn, in discovery order of the new pages, with the same generator.
    const values = [...old.values()];
    const rnd = mulberry32(7);
    const draws = [0, 1, 2].map(() => values[Math.floor(rnd() * values.length)]!);
    const order = await run('historical-pagerank-random', { seed: 7 });
    expect(await run('historical-pagerank-random', { seed: 7 })).toEqual(order);
    // Check the order against those values: every page leaves before any pending page of
    // lower value (higher page id on equal values), replaying the crawl on the new web.
    const value = new Map<string, number>([['hs.test/', pr('/')], ['hs.test/a', pr('/a')], ['hs.test/b', pr('/b')], ['hs.test/c', pr('/c')]]);
    const links: Record<string, string[]> = { '/': ['/a', '/b', '/c', '/n'], '/a': ['/c'], '/b': ['/c', '/m'], '/c': ['/', '/k'] };
    const pending: string[] = ['hs.test/'];
    const seen = new Set(pending);
    const expected: string[] = [];
    let drawn = 0;
    while (pending.length > 0) {
      pending.sort((x, y) => value.get(y)! - value.get(x)! || 0);
      const next = pending.shift()!;
      expected.push(next);
      for (const l of links[next.slice('hs.test'.length)] ?? []) {
        const u = `hs.test${l}`;
        if (seen.has(u)) continue;
        seen.add(u);
        if (!value.has(u)) value.set(u, draws[drawn++]!);
        pending.push(u);
      }
    }
    expect(order).toEqual(expected);
    expect(drawn).toBe(3);
    expect(order).not.toEqual(bfs);
  });

  it('quality with --history: URLs by old PageRank (new pages by their parent)', async () => {
    const order = await run('quality');
    expect(order).toEqual(['hs.test/', 'hs.test/c', 'hs.test/k', 'hs.test/a', 'hs.test/b', 'hs.test/n', 'hs.test/m']);
  });

  it('the live estimate: old PageRank of fetched pages over that of known pages, 1 at the end', async () => {
    const crawler = Crawler.create(join(dir, 'estimate.db'), testSettings([`http://hs.test:${port}/`], {
      r: 1, c: 1, policy: 'historical-pagerank-zero', policyParams: { history: oldDb },
    }));
    const policy = crawler.ctx.policy;
    const seen: number[] = [];
    const onFetched = policy.onFetched!.bind(policy);
    policy.onFetched = (id, site, targets) => {
      onFetched(id, site, targets);
      seen.push(policy.estimate!()!);
    };
    await crawler.run();
    crawler.close();
    // After /: PR(/) over PR(/ + a + b + c); after /c: (PR(/) + PR(/c)) over the same.
    const known = pr('/') + pr('/a') + pr('/b') + pr('/c');
    expect(seen[0]).toBeCloseTo(pr('/') / known, 12);
    expect(seen[1]).toBeCloseTo((pr('/') + pr('/c')) / known, 12);
    expect(seen.at(-1)).toBeCloseTo(1, 12);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
  });
});
