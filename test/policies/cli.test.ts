import Sqlite from '../../core/store/sqlite.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';
import { fetchOrder } from './order.js';
import { crawlbench } from '../helpers/run.js';

// Needs a built CLI (`npm run build`, run by `npm test`'s pretest).
const dir = tmpDir();

const cli = (args: string[], cwd = dir) => crawlbench(args, { cwd });

async function expectBadInput(args: string[], mention: RegExp): Promise<void> {
  const r = await cli(args);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(mention);
}

describe('crawlbench crawl: policy flags', () => {
  const db = join(dir, 'never.db');
  const oldDb = join(dir, 'old.db');
  const notACrawl = join(dir, 'other-app.db');
  const seed = ['--seed', 'http://a.demo/'];

  beforeAll(() => {
    // An earlier "crawl" of hs.demo (created, never run: it knows its seed page).
    Crawler.create(oldDb, testSettings(['http://hs.demo/'])).close();
    const other = new Sqlite(notACrawl);
    other.exec('CREATE TABLE things (x INTEGER)');
    other.close();
  });

  it('--history that is not a crawl database: exit 2, CRAWL_DB_NOT_A_CRAWL', async () => {
    await expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'historical-pagerank-zero', '--history', notACrawl], /not a crawlbench crawl.*CRAWL_DB_NOT_A_CRAWL/);
    expect(existsSync(db)).toBe(false);
  });

  it('--history of a crawl with no host in this crawl\'s scope: exit 2 naming --history', async () => {
    await Promise.all([
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'historical-pagerank-parent', '--history', oldDb], /--history: .*old\.db holds no page of a host in this crawl's scope.*CRAWL_BAD_OPTION/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'quality', '--history', oldDb], /--history/),
    ]);
    expect(existsSync(db)).toBe(false);
  });

  it('historical-* without --history, topic without --topic, a flag the policy does not take', async () => {
    await Promise.all([
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'historical-pagerank-random'], /--history: required by policy historical-pagerank-random/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'topic'], /--topic: required/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'opic', '--topic', 'jazz'], /--topic: not a parameter of policy opic/),
    ]);
    expect(existsSync(db)).toBe(false);
  });

  it('bad K and alpha: exit 2 naming the parameter', async () => {
    await Promise.all([
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'batch-pagerank', '--batch', '0'], /--batch/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'partial-pagerank', '--batch=-3'], /--batch: "-3" is not a whole number >= 1/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'performance', '--alpha', '1.5'], /--alpha: 1\.5 is not a number between 0 and 1/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'crawl-ability', '--alpha=-0.2'], /--alpha/),
      expectBadInput(['crawl', '--db', db, ...seed, '--policy', 'quality', '--alpha', 'lots'], /--alpha/),
    ]);
    expect(existsSync(db)).toBe(false);
  });
});

describe('crawlbench crawl --history and --topic on a served web', async () => {
  const web = handWeb([
    // /c has two in-links, /a and /b one each.
    { host: 'h.demo', pages: [{ path: '/', links: ['/a', '/b', '/c'] }, { path: '/a' }, { path: '/b', links: ['/c'] }, { path: '/c' }] },
    { host: 't.demo', pages: [{ path: '/', links: ['/a', '/b'] }, { path: '/a', links: ['/a2'] }, { path: '/b', links: ['/jazz'] }, { path: '/a2' }, { path: '/jazz' }] },
  ]);
  const { port } = await serve(web);
  const base = ['--resolve', '*.demo=127.0.0.1', '--w', '0', '--r', '1', '--quiet', '--json'];

  it('a relative --history is stored as an absolute path; the crawl follows the old PageRank', async () => {
    const old = join(dir, 'h-old.db');
    await crawl(old, testSettings([`http://h.demo:${port}/`], { r: 1 }));
    const db = join(dir, 'h-new.db');
    const r = await cli(['crawl', '--db', db, '--seed', `http://h.demo:${port}/`, ...base, '--policy', 'historical-pagerank-zero', '--history', 'h-old.db']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const store = CrawlStore.open(db, { readonly: true });
    expect(store.settings().policyParams).toEqual({ history: old });
    store.close();
    // Old PageRank: /c above /a = /b (breadth-first: /, /a, /b, /c).
    expect(fetchOrder(db)).toEqual(['h.demo/', 'h.demo/c', 'h.demo/a', 'h.demo/b']);
  });

  it('--topic: the page whose URL holds the word comes first', async () => {
    const db = join(dir, 'topic.db');
    const r = await cli(['crawl', '--db', db, '--seed', `http://t.demo:${port}/`, ...base, '--policy', 'topic', '--topic', 'JAZZ']);
    expect(r.code).toBe(0);
    // Breadth-first: /, /a, /b, /a2, /jazz.
    expect(fetchOrder(db)).toEqual(['t.demo/', 't.demo/a', 't.demo/b', 't.demo/jazz', 't.demo/a2']);
  });
});
