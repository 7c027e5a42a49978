/**
 * searchPages and getPage over a real crawl: the shared finished crawl of the demo web (3,000
 * pages on 60 sites, PageRank stored), asked through the EngineApi, each answer compared with
 * the crawl file read in the test with its own SQL: the pages found by URL text, site, status,
 * type and depth and their totals; the whole order of every sort in both directions, paged;
 * both of the engine's plans (a narrow question read through its few pages, a wide one by
 * walking the sort's index) giving the same pages; a page's discovery path, PageRank and link
 * totals, its links paged. Then a crawl still running (no search indexes): the same search by
 * reading every page, and no in-degree sort.
 */
import type Database from 'better-sqlite3';
import Sqlite from '../../core/store/sqlite.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRowDto, PageSearchQuery } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { PageSearch, type PageSearchRequest } from '../../core/store/page-search.js';
import { tmpDir } from '../helpers/tmp.js';
import { copyFixtureInto, FIXTURE_ID } from '../ui/e2e-kit.js';

const dir = tmpDir('crawlbench-search-pages-');
const workspace = join(dir, 'workspace');
let api: EngineApi;
let db: Database.Database;

interface Page {
  id: number;
  url: string;
  site_id: number;
  host: string;
  depth: number;
  parent_id: number | null;
  status: string;
  http_status: number | null;
  content_type: string | null;
  fetch_seq: number | null;
  pagerank: number | null;
  indegree: number;
}
let pages: Page[];
let run: number;

beforeAll(async () => {
  await copyFixtureInto(workspace);
  api = new EngineApi(workspace);
  db = new Sqlite(join(workspace, `${FIXTURE_ID}.db`), { readonly: true });
  run = db.prepare("SELECT max(id) FROM pagerank_runs WHERE kind = 'page'").pluck().get() as number;
  pages = db
    .prepare(
      `SELECT p.id, p.url, p.site_id, s.host, p.depth, p.parent_id, p.status, p.http_status, p.content_type, p.fetch_seq,
         (SELECT value FROM pagerank WHERE run_id = ? AND page_id = p.id) AS pagerank,
         (SELECT count(*) FROM links WHERE dst = p.id) AS indegree
       FROM pages p JOIN sites s ON s.id = p.site_id ORDER BY p.id`,
    )
    .all(run) as Page[];
}, 300_000);
afterAll(async () => {
  db?.close();
  await api?.close();
});

/** Every result of a search, asked 500 at a time (checking the total on each page). */
async function everyUrl(q: PageSearchQuery): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.searchPages(FIXTURE_ID, { ...q, offset, limit: 500 });
    expect(page.offset).toBe(offset);
    out.push(...page.rows.map((r) => r.url));
    if (page.rows.length < 500) {
      expect(page.total).toBe(out.length);
      return out;
    }
  }
}

/** The engine's order, computed here: pages with a key by key then id (both in the sort's direction), then those without, by id. */
function ordered(list: Page[], key: (p: Page) => number | null, descending: boolean): string[] {
  const dir = descending ? -1 : 1;
  const withKey = list.filter((p) => key(p) !== null).sort((a, b) => (key(a)! - key(b)! || a.id - b.id) * dir);
  const without = list.filter((p) => key(p) === null).sort((a, b) => a.id - b.id);
  return [...withKey, ...without].map((p) => p.url);
}
const fetchKey = (p: Page) => p.fetch_seq;

describe('searchPages on a finished crawl of the demo web', () => {
  it('has its search indexes and a PageRank run, and counts every page', async () => {
    const first = await api.searchPages(FIXTURE_ID, {});
    expect(first).toMatchObject({ indexed: true, total: pages.length, totalAtLeast: pages.length, sort: 'fetch', descending: false, limit: 50 });
    expect(first.pagerankRun?.id).toBe(run);
    expect(first.rows.map((r) => r.url)).toEqual(ordered(pages, fetchKey, false).slice(0, 50));
  });

  it('sorts by fetch order, PageRank and in-degree, each way, page after page, as the database says', async () => {
    for (const descending of [false, true]) {
      expect(await everyUrl({ sort: 'fetch', descending })).toEqual(ordered(pages, fetchKey, descending));
      expect(await everyUrl({ sort: 'pagerank', descending })).toEqual(ordered(pages, (p) => p.pagerank, descending));
      expect(await everyUrl({ sort: 'indegree', descending })).toEqual(ordered(pages, (p) => p.indegree, descending));
    }
    // The first row by PageRank is the run's top page, with its value and in-degree.
    const top = (await api.searchPages(FIXTURE_ID, { sort: 'pagerank', limit: 1 })).rows[0]!;
    const best = pages.reduce((a, b) => ((b.pagerank ?? -1) > (a.pagerank ?? -1) ? b : a));
    expect(top).toMatchObject({ url: best.url, pagerank: best.pagerank, inDegree: best.indegree, depth: best.depth, fetchSeq: best.fetch_seq });
  });

  it('finds pages by URL text (any case, wildcards taken literally), site, status, type and depth', async () => {
    const sample = pages[Math.floor(pages.length / 2)]!.url;
    const text = sample.slice(sample.lastIndexOf('/'), sample.lastIndexOf('/') + 6);
    const has = (t: string) => pages.filter((p) => p.url.toLowerCase().includes(t.toLowerCase()));
    expect(await everyUrl({ url: text })).toEqual(ordered(has(text), fetchKey, false));
    expect(await everyUrl({ url: text.toUpperCase(), sort: 'pagerank' })).toEqual(ordered(has(text), (p) => p.pagerank, true));
    expect((await api.searchPages(FIXTURE_ID, { url: 'no such text anywhere' })).total).toBe(0);
    expect((await api.searchPages(FIXTURE_ID, { url: '%' })).total).toBe(has('%').length);
    expect((await api.searchPages(FIXTURE_ID, { url: '_' })).total).toBe(has('_').length);

    const host = pages[pages.length - 1]!.host;
    expect(await everyUrl({ site: host, sort: 'indegree' })).toEqual(ordered(pages.filter((p) => p.host === host), (p) => p.indegree, true));
    expect((await api.searchPages(FIXTURE_ID, { site: 'no.such.site' })).total).toBe(0);

    for (const status of ['fetched', 'queued', 'failed', 'disallowed', 'duplicate'] as const) {
      expect(await everyUrl({ status })).toEqual(ordered(pages.filter((p) => p.status === status), fetchKey, false));
    }
    for (const cls of ['2xx', '3xx', '4xx', '5xx'] as const) {
      const lo = Number(cls[0]) * 100;
      expect(await everyUrl({ status: cls })).toEqual(ordered(pages.filter((p) => p.http_status !== null && p.http_status >= lo && p.http_status < lo + 100), fetchKey, false));
    }
    // The demo web's crawl has more than one status and HTTP class, so the filters are tried on something.
    expect(new Set(pages.map((p) => p.status)).size).toBeGreaterThan(1);
    expect(new Set(pages.map((p) => Math.floor((p.http_status ?? 0) / 100))).size).toBeGreaterThan(1);

    const html = pages.filter((p) => (p.content_type ?? '').toLowerCase().startsWith('text/html'));
    expect(html.length).toBeGreaterThan(0);
    expect(await everyUrl({ type: 'TEXT/HTML' })).toEqual(ordered(html, fetchKey, false));
    expect(await everyUrl({ depth: 1 })).toEqual(ordered(pages.filter((p) => p.depth <= 1), fetchKey, false));
    expect(await everyUrl({ depth: 2, exactDepth: true, sort: 'pagerank', descending: false })).toEqual(
      ordered(pages.filter((p) => p.depth === 2), (p) => p.pagerank, false),
    );
    // Filters together.
    const both = pages.filter((p) => p.host === host && p.status === 'fetched' && p.depth <= 3);
    expect(await everyUrl({ site: host, status: 'fetched', depth: 3, sort: 'pagerank' })).toEqual(ordered(both, (p) => p.pagerank, true));
  });

  it('gives the same pages by either plan: a narrow question through its few pages, a wide one along the sort', () => {
    const reader = CrawlReader.open(join(workspace, `${FIXTURE_ID}.db`));
    try {
      const search = new PageSearch(reader);
      const host = pages[0]!.host;
      const asks: Array<Partial<PageSearchRequest>> = [
        { urlText: pages[1234]!.url.slice(-7) },
        { urlText: '.demo' },
        { siteId: pages[0]!.site_id, sort: 'pagerank', descending: true },
        { siteId: pages[0]!.site_id, urlText: host.slice(0, 6), status: 'fetched', sort: 'indegree', descending: false },
        { status: 'queued', sort: 'fetch', descending: true },
        { depth: 2, exactDepth: true, sort: 'pagerank', descending: false },
      ];
      for (const ask of asks) {
        for (const offset of [0, 7]) {
          const q: PageSearchRequest = { sort: 'fetch', descending: false, offset, limit: 40, ...ask };
          const narrow = search.search({ ...q, narrowLimit: 1e9 });
          const wide = search.search({ ...q, narrowLimit: 0 });
          // The walk along the sort in chunks of 37 pages: chunk ends, skipped chunks and segment ends fall inside the page.
          const chunked = search.search({ ...q, narrowLimit: 0, chunkRows: 37, scanBudgetMs: 60_000 });
          // Status and depth alone have no narrow source: both then walk the sort, in chunks of their own size.
          expect(narrow.plan).toBe(ask.urlText !== undefined || ask.siteId !== undefined ? 'narrow' : 'scan');
          expect(wide.plan).toBe('scan');
          expect(wide.rows.map((r) => r.url)).toEqual(narrow.rows.map((r) => r.url));
          expect(chunked.rows.map((r) => r.url)).toEqual(narrow.rows.map((r) => r.url));
          expect([wide.complete, chunked.complete]).toEqual([true, true]);
          expect(wide.total).toBe(narrow.total);
        }
      }
      // Out of time at once: what was found so far, and said to be incomplete.
      const cut = search.search({ sort: 'pagerank', descending: true, offset: 0, limit: 50, status: 'skipped', narrowLimit: 0, chunkRows: 10, scanBudgetMs: -1 });
      expect(cut).toMatchObject({ complete: false, rows: [] });
    } finally {
      reader.close();
    }
  });

  it('shows a page with its PageRank, fetch time, discovery path and link totals, and pages its links', async () => {
    const deep = pages.filter((p) => p.depth >= 3).sort((a, b) => a.id - b.id)[0]!;
    const page = (await api.getPage(FIXTURE_ID, deep.url))!;
    expect(page).toMatchObject({ url: deep.url, depth: deep.depth, pagerank: deep.pagerank, fetchSeq: deep.fetch_seq, inLinkCount: deep.indegree });
    expect(page.pagerankRun?.id).toBe(run);
    const chain: Page[] = [];
    for (let p: Page | undefined = pages[deep.parent_id! - 1]; p; p = p.parent_id ? pages[p.parent_id - 1] : undefined) chain.unshift(p);
    expect(chain[0]!.depth).toBe(0);
    expect(page.discoveryPath).toEqual(chain.map((p) => ({ url: p.url, depth: p.depth })));
    const seed = (await api.getPage(FIXTURE_ID, chain[0]!.url))!;
    expect(seed.discoveryPath).toEqual([]);

    // The most linked-to page: every in-link once over pages of 100 (in the order their sources were fetched), and its out-links.
    const hub = pages.reduce((a, b) => (b.indegree > a.indegree ? b : a));
    expect(hub.indegree).toBeGreaterThan(100);
    const sources = (db.prepare('SELECT p.url FROM links l JOIN pages p ON p.id = l.src WHERE l.dst = ? ORDER BY p.fetch_seq').pluck().all(hub.id) as string[]);
    const seen: string[] = [];
    for (let inOffset = 0; inOffset < hub.indegree; inOffset += 100) {
      const part = (await api.getPage(FIXTURE_ID, hub.url, { linkLimit: 100, inOffset }))!;
      expect(part).toMatchObject({ inLinkCount: hub.indegree, inOffset, linkLimit: 100 });
      expect(part.inLinks.length).toBe(Math.min(100, hub.indegree - inOffset));
      expect(part.truncated).toBe(inOffset + 100 < hub.indegree || part.outLinkCount > 100);
      seen.push(...part.inLinks.map((l) => l.url));
    }
    expect(seen).toEqual(sources);
    const targets = db.prepare('SELECT p.url FROM links l JOIN pages p ON p.id = l.dst WHERE l.src = ? ORDER BY l.dst').pluck().all(hub.id) as string[];
    const outs = (await api.getPage(FIXTURE_ID, hub.url, { linkLimit: 3, outOffset: 1 }))!;
    expect(outs.outLinkCount).toBe(targets.length);
    expect(outs.outLinks.map((l) => l.url)).toEqual(targets.slice(1, 4));
    // The old form: a link limit as the third argument.
    const old = (await api.getPage(FIXTURE_ID, hub.url, 5))!;
    expect(old.inLinks).toHaveLength(5);
    expect(old.truncated).toBe(true);
  });
});

describe('searchPages on a crawl still running', () => {
  const path = join(dir, 'running', 'run.db');
  const fetched = (at: number, status = 200) => ({
    status: 'fetched' as const, httpStatus: status, contentType: 'text/html', bytes: 100, contentHash: null, duplicateOf: null,
    title: null, noindex: false, errorCode: null, attempts: 1, fetchedAt: at, responseMs: 5,
  });
  let store: CrawlStore;
  let running: EngineApi;

  beforeAll(() => {
    mkdirSync(join(dir, 'running'), { recursive: true });
    store = CrawlStore.create(path, validateSettings({ seeds: ['http://a.test/'] }));
    store.begin();
    const a = store.insertSite('a.test');
    const b = store.insertSite('b.test');
    const urls = ['http://a.test/', 'http://a.test/News/1', 'http://b.test/news_2', 'http://b.test/x', 'http://a.test/newsletter'];
    urls.forEach((url, i) => store.insertPage({ url, siteId: url.includes('a.test') ? a : b, depth: i === 0 ? 0 : 1, parentId: i === 0 ? null : 1, redirects: 0, status: 'queued' }));
    store.recordFetch(1, fetched(1000));
    store.recordFetch(3, fetched(1001, 404));
    store.insertLinks(1, [2, 3, 4].map((dst) => ({ dst, anchor: null, nofollow: false, kind: 'a' })));
    store.setState('running');
    store.commit();
    running = new EngineApi(join(dir, 'running'));
  });
  afterAll(async () => {
    store?.close();
    await running?.close();
  });

  it('finds pages by reading every one, sorts by fetch order, and has no in-degrees yet', async () => {
    const found = await running.searchPages('run', { url: 'NEWS' });
    expect(found.indexed).toBe(false);
    expect(found.rows.map((r: PageRowDto) => r.url)).toEqual(['http://b.test/news_2', 'http://a.test/News/1', 'http://a.test/newsletter']);
    expect(found.total).toBe(3);
    expect(found.rows.every((r) => r.inDegree === null)).toBe(true);
    expect((await running.searchPages('run', { url: 'news_' })).rows.map((r) => r.url)).toEqual(['http://b.test/news_2']);
    expect((await running.searchPages('run', { status: '4xx' })).rows.map((r) => r.url)).toEqual(['http://b.test/news_2']);
    expect((await running.searchPages('run', { site: 'b.test', status: 'queued' })).rows.map((r) => r.url)).toEqual(['http://b.test/x']);
    const refused = await running.searchPages('run', { sort: 'indegree' }).catch((e: { code: string; field: string }) => e);
    expect(refused).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'sort' });
    const noRank = await running.searchPages('run', { sort: 'pagerank' }).catch((e: { code: string; field: string }) => e);
    expect(noRank).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'sort' });
    const page = (await running.getPage('run', 'http://b.test/news_2'))!;
    expect(page).toMatchObject({ inLinkCount: 1, outLinkCount: 0, pagerank: null, pagerankRun: null, discoveryPath: [{ url: 'http://a.test/', depth: 0 }] });
  });
});
