import Sqlite from '../../core/store/sqlite.js';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ErrorCodes } from '../../core/errors.js';
import { loadCrawlGraph } from '../../core/ranking/crawl-graph.js';
import { loadSiteGraph } from '../../core/ranking/site-graph.js';
import { CrawlReader, withCrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore, type FetchRecord, type NewLink } from '../../core/store/crawl-store.js';
import { PageRankWriter } from '../../core/store/pagerank-writer.js';
import { compareUtf8 } from '../../core/store/url-order.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir('crawlbench-crawl-reader-');
const settings = validateSettings({ seeds: ['http://a.test/'] });

function fetched(at: number): FetchRecord {
  return {
    status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes: 100, contentHash: null, duplicateOf: null,
    title: `page at ${at}`, noindex: false, errorCode: null, attempts: 1, fetchedAt: at, responseMs: 5,
  };
}
const links = (...dsts: number[]): NewLink[] => dsts.map((dst) => ({ dst, anchor: `to ${dst}`, nofollow: false, kind: 'a' }));

const URLS = ['http://a.test/', 'http://b.test/z', 'http://a.test/m', 'http://b.test/', 'http://a.test/b', 'http://a.test/zz'];

/** A crawl in the middle of its run (no read indexes): pages 1-6 known, 1-3 fetched. The writer stays open. */
function runningCrawl(path: string): CrawlStore {
  const store = CrawlStore.create(path, settings);
  store.begin();
  const a = store.insertSite('a.test');
  const b = store.insertSite('b.test');
  URLS.forEach((url, i) => {
    store.insertPage({ url, siteId: url.includes('a.test') ? a : b, depth: i === 0 ? 0 : 1, parentId: i === 0 ? null : 1, redirects: 0, status: 'queued' });
  });
  [1, 2, 3].forEach((id, k) => store.recordFetch(id, fetched(1000 + k)));
  store.insertLinks(1, links(2, 3, 4, 5));
  store.insertLinks(2, links(1, 6));
  store.insertLinks(3, links(4));
  store.setState('running');
  store.commit();
  return store;
}

/** The crawl goes on: page 4 fetched with its links, a page and a site discovered. */
function crawlOn(store: CrawlStore): void {
  store.begin();
  const seven = store.insertPage({ url: 'http://a.test/a', siteId: 1, depth: 2, parentId: 4, redirects: 0, status: 'queued' });
  const c = store.insertSite('c.test');
  store.insertPage({ url: 'http://c.test/', siteId: c, depth: 2, parentId: 4, redirects: 0, status: 'queued' });
  store.recordFetch(4, fetched(2000));
  store.insertLinks(4, links(1, seven, 3));
  store.commit();
}

const edges = (g: { n: number; offsets: Uint32Array; targets: Uint32Array }) =>
  Array.from({ length: g.n }, (_, v) => [...g.targets.subarray(g.offsets[v]!, g.offsets[v + 1]!)]);

describe('a reader of a running crawl', () => {
  it('sees the crawl as it was when it opened, while the crawl goes on between its chunks', () => {
    const path = join(dir, 'snapshot.db');
    const store = runningCrawl(path);
    const sortDir = join(dir, 'sort-snapshot');
    mkdirSync(sortDir);
    const reader = CrawlReader.open(path, { chunkRows: 2, sortRunRows: 3, tmpDir: sortDir });
    expect(reader.snapshot).toEqual({ fetchSeq: 3, pageId: 6, siteId: 2, robotsCaptureId: 0 });
    const counts = reader.counts();
    const totals = reader.totals();
    expect(totals).toEqual({ pagesFetched: 3, pagesKnown: 6, sites: 2, queued: 3, links: 7, bytes: 300 });
    const graph = edges(loadCrawlGraph(reader).graph);

    const byId = reader.pages(['url', 'status', 'fetchSeq', 'title']);
    const byFetch = reader.pagesByFetch(['id']);
    const first = [byId.next().value!, byFetch.next().value!];
    crawlOn(store); // between the first chunk and the next ones

    const pages = [first[0]!, ...byId];
    expect(pages.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages[3]).toEqual({ id: 4, url: 'http://b.test/', status: 'queued', fetchSeq: null, title: null });
    expect([first[1]!, ...byFetch].map((p) => p.id)).toEqual([1, 2, 3]);
    expect([...reader.pages(['id'], { fetchedOnly: true })].map((p) => p.id)).toEqual([1, 2, 3]);
    expect(reader.page(4, ['status', 'httpStatus'])).toEqual({ status: 'queued', httpStatus: null });
    expect(reader.page(7, ['url'])).toBeUndefined();
    expect(reader.pageByUrl('http://a.test/a', ['id'])).toBeUndefined();

    expect(reader.counts()).toEqual(counts);
    expect(reader.totals()).toEqual(totals);
    expect(reader.outLinks(4)).toEqual([]);
    expect(reader.outLinks(1)).toEqual([2, 3, 4, 5]);
    expect(reader.linksTo(1, 10)).toEqual([{ url: 'http://b.test/z', anchor: 'to 1', kind: 'a' }]);
    expect(edges(loadCrawlGraph(reader).graph)).toEqual(graph);
    expect(edges(loadCrawlGraph(reader, { threads: 2 }).graph)).toEqual(graph);
    expect([...loadSiteGraph(reader).siteIds]).toEqual([1, 2]);
    expect([...reader.sites(['host'])].map((s) => s.host)).toEqual(['a.test', 'b.test']);

    // URL order, started after the crawl went on: no index while running, so sorted in runs of 3 on disk.
    const byUrl = [...reader.pagesByUrl(['status'])];
    expect(byUrl.map((p) => p.url)).toEqual([...URLS].sort());
    expect(byUrl.find((p) => p.id === 4)!.status).toBe('queued');
    expect(readdirSync(sortDir)).toEqual([]);
    reader.close();

    withCrawlReader(path, (now) => {
      expect(now.totals()).toEqual({ pagesFetched: 4, pagesKnown: 8, sites: 3, queued: 4, links: 10, bytes: 400 });
      expect(now.page(4, ['status'])).toEqual({ status: 'fetched' });
    });
    store.close();
  });

  it('reads in short transactions: the WAL of a running crawl is checkpointed while a stream is half read', () => {
    const path = join(dir, 'checkpoint.db');
    const store = runningCrawl(path);
    store.db.pragma('busy_timeout = 0');
    const reader = CrawlReader.open(path, { chunkRows: 2 });
    const stream = reader.pages(['url']);
    stream.next();
    stream.next();
    crawlOn(store);
    const [result] = store.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number }>;
    expect(result).toEqual(expect.objectContaining({ busy: 0, log: 0 }));
    expect([...stream].length).toBe(4);
    reader.close();

    // What a reader that holds one statement open does instead: the checkpoint cannot finish.
    const held = new Sqlite(path, { readonly: true });
    const rows = held.prepare('SELECT id FROM pages').iterate();
    rows.next();
    store.begin();
    store.insertPage({ url: 'http://a.test/later', siteId: 1, depth: 3, parentId: 7, redirects: 0, status: 'queued' });
    store.commit();
    const [blocked] = store.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    expect(blocked!.busy).toBe(1);
    rows.return?.();
    held.close();
    store.close();
  });

  it('refuses what is not a crawl with the store codes', () => {
    expect(() => CrawlReader.open(join(dir, 'missing.db'))).toThrow(expect.objectContaining({ code: ErrorCodes.DB_MISSING }));
    const other = join(dir, 'other.db');
    const db = new Sqlite(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => CrawlReader.open(other)).toThrow(expect.objectContaining({ code: ErrorCodes.DB_NOT_A_CRAWL }));
  });
});

describe('pages in URL order', () => {
  const many = Array.from({ length: 40 }, (_, i) => `http://s${(i * 7) % 5}.test/${((i * 37) % 41).toString(36)}`);

  function crawlOf(path: string): CrawlStore {
    const store = CrawlStore.create(path, settings);
    store.begin();
    const site = store.insertSite('s.test');
    for (const url of many) store.insertPage({ url, siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.commit();
    return store;
  }

  it('sorts a crawl without the URL index in runs on disk, and removes them at the end or on an early stop', () => {
    const path = join(dir, 'url-order.db');
    const store = crawlOf(path);
    const sortDir = join(dir, 'sort-url-order');
    mkdirSync(sortDir);
    const reader = CrawlReader.open(path, { chunkRows: 3, sortRunRows: 7, tmpDir: sortDir });
    const stream = reader.pagesByUrl([]);
    const head = stream.next().value!;
    const spilled = readdirSync(sortDir);
    expect(spilled).toHaveLength(1);
    expect(readdirSync(join(sortDir, spilled[0]!))).toHaveLength(6); // 40 pages in runs of 7
    const urls = [head.url, ...[...stream].map((p) => p.url)];
    expect(urls).toEqual([...many].sort(compareUtf8));
    expect(readdirSync(sortDir)).toEqual([]);

    for (const page of reader.pagesByUrl(['depth'])) {
      expect(page.url).toBe(urls[0]);
      break; // an early stop closes the stream
    }
    expect(readdirSync(sortDir)).toEqual([]);
    reader.close();

    // Finished: with the URL index the same order comes from SQLite, nothing spills.
    store.buildReadIndexes();
    withCrawlReader(path, (r) => expect([...r.pagesByUrl([])].map((p) => p.url)).toEqual(urls), { chunkRows: 3, sortRunRows: 7, tmpDir: sortDir });
    expect(readdirSync(sortDir)).toEqual([]);
    store.close();
  });

  it('orders strings as SQLite does (UTF-8 bytes), not as JavaScript does (UTF-16 units)', () => {
    const words = ['a', 'Z', '', 'é', '\uffff', '\u{1f600}', '\ue000', 'ab', '\ud7ff'];
    const db = new Sqlite(':memory:');
    const sqlite = db.prepare(`SELECT v FROM (${words.map(() => 'SELECT ? AS v').join(' UNION ALL ')}) ORDER BY v`).pluck().all(...words);
    db.close();
    expect([...words].sort(compareUtf8)).toEqual(sqlite);
    expect([...words].sort()).not.toEqual(sqlite); // the plain sort would be wrong here
  });
});

describe('PageRank runs', () => {
  it('stored by PageRankWriter, read back in chunks, the latest fresh run found', () => {
    const path = join(dir, 'runs.db');
    const store = runningCrawl(path);
    const writer = new PageRankWriter(store.db);
    const ids = [1, 2, 3, 4, 5, 6];
    const values = [0.3, 0.2, 0.1, 0.25, 0.1, 0.05];
    const run = writer.save({ kind: 'page', damping: 0.85, tolerance: 1e-9, iterations: 12, nodes: 6, edges: 7 }, ids, values);
    writer.save({ kind: 'page', damping: 0.5, tolerance: 1e-9, iterations: 5, nodes: 6, edges: 7 }, ids, values);
    withCrawlReader(
      path,
      (reader) => {
        expect(reader.latestRun('page', 0.85)!.id).toBe(run);
        expect(reader.latestFreshRun('page', 0.85)!.id).toBe(run);
        expect(reader.latestRun('site')).toBeUndefined();
        expect([...reader.pageRunValues(run)]).toEqual(ids.map((id, i) => [id, values[i]]));
        expect([...reader.pageRunByUrl(run)].map(([url]) => url)).toEqual(URLS);
        expect(reader.topOfRun({ kind: 'page', id: run }, 2)).toEqual([
          { id: 1, name: URLS[0], value: 0.3 },
          { id: 4, name: URLS[3], value: 0.25 },
        ]);
      },
      { chunkRows: 4 },
    );
    crawlOn(store); // two more pages: the run no longer describes the crawl
    withCrawlReader(path, (reader) => expect(reader.latestFreshRun('page', 0.85)).toBeUndefined());
    store.close();
    expect(existsSync(path)).toBe(true);
  });
});
