/**
 * listSites over a real crawl: the shared finished crawl of the demo web (60 sites, parked
 * ones and ones with errors, site PageRank stored), asked through the EngineApi, each answer
 * compared with the crawl file read in the test with its own SQL: the totals under each
 * filter, the order of every sort key, pages that neither repeat nor miss a site, the errors
 * by kind, the robots.txt state and the site PageRank. Then a running crawl written by hand:
 * pending and done, and a host filter whose LIKE wildcards are taken literally. And every
 * bad query field refused by name.
 */
import type Database from 'better-sqlite3';
import Sqlite from '../../core/store/sqlite.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_SORT_KEYS, type SiteRowDto, type SitesPage, type SitesQuery } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { sitesPage } from '../../core/api/sites-query.js';
import { validateSettings } from '../../core/config/settings.js';
import { SkipCodes } from '../../core/errors.js';
import { withCrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { tmpDir } from '../helpers/tmp.js';
import { copyFixtureInto, FIXTURE_ID } from '../ui/e2e-kit.js';

const dir = tmpDir('crawlbench-list-sites-');
const workspace = join(dir, 'workspace');
let api: EngineApi;
let db: Database.Database;

interface SiteRow {
  id: number;
  host: string;
  pages_fetched: number;
  pages_known: number;
  bytes: number;
  errors: number;
  pages_failed: number;
  connect_ms: number | null;
  response_ms: number | null;
  requests_per_conn: number | null;
  crawl_delay_ms: number | null;
  parked: string | null;
  schemes: number;
  tls: string | null;
}
let sites: SiteRow[];

beforeAll(async () => {
  await copyFixtureInto(workspace);
  api = new EngineApi(workspace);
  db = new Sqlite(join(workspace, `${FIXTURE_ID}.db`), { readonly: true });
  sites = db.prepare('SELECT * FROM sites ORDER BY id').all() as SiteRow[];
}, 300_000);
afterAll(async () => {
  db?.close();
  await api?.close();
});

const list = (q: SitesQuery) => api.listSites(FIXTURE_ID, q);
async function everyRow(q: SitesQuery): Promise<SiteRowDto[]> {
  const out: SiteRowDto[] = [];
  for (let offset = 0; ; offset += 7) {
    const page = await list({ ...q, offset, limit: 7 });
    out.push(...page.rows);
    if (page.rows.length < 7) return out;
  }
}

describe('listSites on a finished crawl of the demo web', () => {
  it('pages through every site once, sorted by pages fetched, and says how many there are', async () => {
    const first = await list({});
    expect(first.total).toBe(sites.length);
    expect(first.allSites).toBe(sites.length);
    expect(first.rows).toHaveLength(Math.min(50, sites.length));
    const expected = [...sites].sort((a, b) => b.pages_fetched - a.pages_fetched || a.id - b.id).map((s) => s.host);
    expect(first.rows.map((r) => r.host)).toEqual(expected.slice(0, 50));
    const second = await list({ offset: 50 });
    expect(second.rows.map((r) => r.host)).toEqual(expected.slice(50, 100));
    const all = await everyRow({ sort: 'host', descending: false });
    expect(all.map((r) => r.host)).toEqual(sites.map((s) => s.host).sort());
  });

  it('sorts by every key either way, missing values last, as the file holds them', async () => {
    const value: Record<(typeof SITE_SORT_KEYS)[number], (r: SiteRowDto) => string | number | null> = {
      host: (r) => r.host, pages_fetched: (r) => r.pagesFetched, pages_known: (r) => r.pagesKnown, bytes: (r) => r.bytes, errors: (r) => r.errors,
      connect_ms: (r) => r.connectMs, response_ms: (r) => r.responseMs, requests_per_conn: (r) => r.requestsPerConn, crawl_delay: (r) => r.crawlDelayMs,
      site_pagerank: (r) => r.pagerank, state: (r) => r.state,
    };
    for (const sort of SITE_SORT_KEYS) {
      for (const descending of [true, false]) {
        const values = (await list({ sort, descending, limit: 500 })).rows.map(value[sort]);
        const present = values.filter((v) => v !== null);
        expect(values.slice(present.length).every((v) => v === null), `${sort}: nulls last`).toBe(true);
        const sorted = [...present].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
        expect(present, `${sort} ${descending ? 'descending' : 'ascending'}`).toEqual(descending ? sorted.reverse() : sorted);
      }
    }
  });

  it('filters by host text in any case, by state and by errors, with the totals of the file', async () => {
    // The longest start of a host that some but not all hosts hold (s000 of s0001.demo).
    const matches = (t: string) => sites.filter((s) => s.host.includes(t)).length;
    const needle = sites
      .flatMap((s) => Array.from({ length: s.host.length - 1 }, (_, k) => s.host.slice(0, s.host.length - 1 - k)))
      .find((t) => matches(t) > 1 && matches(t) < sites.length)!;
    const hosts = sites.filter((s) => s.host.includes(needle)).map((s) => s.host);
    expect(hosts.length).toBeGreaterThan(1);
    const found = await list({ host: ` ${needle.toUpperCase()} `, sort: 'host', descending: false });
    expect(found.total).toBe(hosts.length);
    expect(found.allSites).toBe(sites.length);
    expect(found.rows.map((r) => r.host)).toEqual(hosts.sort());
    expect((await list({ host: '%' })).total).toBe(sites.filter((s) => s.host.includes('%')).length);
    expect((await list({ host: '_' })).total).toBe(sites.filter((s) => s.host.includes('_')).length);

    const parked = sites.filter((s) => s.parked !== null);
    expect(parked.length, 'the demo web parks some sites').toBeGreaterThan(0);
    const parkedRows = await everyRow({ state: 'parked' });
    expect(parkedRows.map((r) => r.host).sort()).toEqual(parked.map((s) => s.host).sort());
    expect(parkedRows.every((r) => r.state === 'parked' && r.parked !== null)).toBe(true);
    // A finished crawl has nothing left to fetch: every other site is done.
    expect((await list({ state: 'pending' })).total).toBe(0);
    expect((await list({ state: 'done' })).total).toBe(sites.length - parked.length);

    const withErrors = sites.filter((s) => s.errors > 0 || s.pages_failed > 0 || s.parked !== null);
    expect(withErrors.length, 'the demo web has sites with errors').toBeGreaterThan(0);
    const errorRows = await everyRow({ errorsOnly: true, sort: 'host', descending: false });
    expect(errorRows.map((r) => r.host)).toEqual(withErrors.map((s) => s.host).sort());
    const both = await list({ errorsOnly: true, state: 'parked', host: '.' });
    expect(both.total).toBe(withErrors.filter((s) => s.parked !== null && s.host.includes('.')).length);
  });

  it('gives each site its pages by error code, robots.txt state and site PageRank, as the file holds them', async () => {
    const rows = (await list({ limit: 500 })).rows;
    const byHost = new Map(sites.map((s) => [s.host, s]));
    const codes = db
      .prepare(`SELECT site_id AS siteId, error_code AS code, count(*) AS n FROM pages WHERE error_code IS NOT NULL AND status <> 'queued' GROUP BY 1, 2`)
      .all() as Array<{ siteId: number; code: string; n: number }>;
    const skip = new Set<string>(Object.values(SkipCodes));
    const run = db.prepare("SELECT id FROM pagerank_runs WHERE kind = 'site' ORDER BY id DESC LIMIT 1").pluck().get() as number;
    const ranks = new Map(db.prepare('SELECT site_id, value FROM site_pagerank WHERE run_id = ?').raw().all(run) as Array<[number, number]>);
    const robots = db.prepare('SELECT site_id AS siteId, state, http_status AS status FROM robots').all() as Array<{ siteId: number; state: string; status: number | null }>;
    let kinds = 0;
    for (const r of rows) {
      const s = byHost.get(r.host)!;
      const expected = Object.fromEntries(codes.filter((c) => c.siteId === s.id && !skip.has(c.code)).map((c) => [c.code, c.n]));
      expect(r.errorsByKind, r.host).toEqual(expected);
      kinds += Object.keys(expected).length;
      expect(r.pagerank).toBe(ranks.get(s.id));
      expect(r.crawlDelayMs).toBe(s.crawl_delay_ms);
      expect(r.parked).toBe(s.parked);
      // The schemes as the file's bits say (the demo web: http only, so no certificate).
      expect(r.schemes, r.host).toEqual([...(s.schemes & 1 ? ['http'] : []), ...(s.schemes & 2 ? ['https'] : [])]);
      expect(r.certificate, r.host).toBe(s.tls);
      const own = robots.filter((x) => x.siteId === s.id);
      if (own.length === 0) expect(r.robots).toBeNull();
      else {
        expect(r.robots!.origins).toBe(own.length);
        const disallowed = (expected.CRAWL_ROBOTS_DISALLOWED ?? 0) > 0;
        const states = own.map((x) => (x.state === 'rules' ? (disallowed ? 'disallowing' : 'fetched') : x.state));
        expect(states).toContain(r.robots!.state);
      }
    }
    expect(kinds, 'some site has pages that failed').toBeGreaterThan(0);
    expect(rows.filter((r) => r.pagesFetched > 0).every((r) => r.schemes.includes('http') && r.certificate === null)).toBe(true);
    expect(rows.some((r) => r.robots?.state === 'unavailable')).toBe(sites.some((s) => s.parked === 'CRAWL_ROBOTS_UNAVAILABLE'));
    expect((await list({})).pagerankRun?.id).toBe(run);
  });

  it('refuses a bad query field by name', async () => {
    const refused = async (q: unknown) => {
      const err = await list(q as SitesQuery).then(() => null, (e: { code?: string; field?: string }) => e);
      return err && { code: err.code, field: err.field };
    };
    expect(await refused({ sort: 'pagerank' })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'sort' });
    expect(await refused({ offset: -1 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'offset' });
    expect(await refused({ offset: 1.5 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'offset' });
    expect(await refused({ limit: 501 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'limit' });
    expect(await refused({ limit: 0 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'limit' });
    expect(await refused({ state: 'fetching' })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'state' });
    expect(await refused({ host: 5 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'host' });
    expect(await refused({ errorsOnly: 'yes' })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'errorsOnly' });
    expect(await refused({ descending: 1 })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'descending' });
    expect(await refused('all')).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'query' });
    // A misspelt filter (before: ignored, and every site listed as if unfiltered).
    expect(await refused({ hosts: 'uchile' })).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'hosts' });
    expect(await refused({ limit: 500, offset: 0, host: '' })).toBeNull();
  });
});

describe('listSites on a running crawl', () => {
  it('tells pending sites from done ones and finds hosts holding %, _ or \\ literally', () => {
    const path = join(dir, 'running.db');
    const store = CrawlStore.create(path, validateSettings({ seeds: ['http://a.test/'] }));
    store.begin();
    const ids = ['a.test', 'a_b.test', 'a%c.test', 'ab.test', 'x\\y.test'].map((h) => store.insertSite(h));
    ids.forEach((siteId, i) => store.insertPage({ url: `http://host${i}.test/`, siteId, depth: 0, parentId: null, redirects: 0, status: 'queued' }));
    store.setState('running');
    store.commit();
    // a.test's only page is fetched (out of the frontier); the others wait in it.
    store.begin();
    store.recordFetch(1, { status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes: 5, contentHash: null, duplicateOf: null, title: null, noindex: false, errorCode: null, attempts: 1, fetchedAt: 1, responseMs: 1 });
    store.commit();
    const ask = (q: SitesQuery): SitesPage => withCrawlReader(path, (r) => sitesPage(r, { sort: 'host', descending: false, ...q }));
    try {
      expect(ask({ state: 'done' }).rows.map((r) => r.host)).toEqual(['a.test']);
      expect(ask({ state: 'pending' }).rows.map((r) => r.host)).toEqual(['a%c.test', 'a_b.test', 'ab.test', 'x\\y.test']);
      expect(ask({ host: 'a_' }).rows.map((r) => r.host)).toEqual(['a_b.test']);
      expect(ask({ host: 'a%' }).rows.map((r) => r.host)).toEqual(['a%c.test']);
      expect(ask({ host: '\\' }).rows.map((r) => r.host)).toEqual(['x\\y.test']);
      expect(ask({}).pagerankRun).toBeNull();
      expect(ask({}).rows.every((r) => r.pagerank === null && r.robots === null && Object.keys(r.errorsByKind).length === 0)).toBe(true);
    } finally {
      store.close();
    }
  });
});
