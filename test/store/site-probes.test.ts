/**
 * The Sites page's state and robots.txt answers of its sites, read per site (schema 10,
 * issue 24): a crawl on the test web keeps frontier_site off while it runs (every queued page
 * would pay an index entry) and has it once stopped; the stopped crawl's Sites pages, which
 * probe the frontier site by site, are the very pages the same file gives without the index
 * (one scan of the whole frontier, as a running crawl is read), and each site's state is what
 * its own frontier rows say. The sites' sort indexes (schema 11) follow frontier_site: off while
 * the crawl runs, there once it stops, and a page walked along one of them (every sort either
 * way, filtered, offset) is the page a scan sorts. A finished crawl of schema 9 gets all of
 * them when first read.
 */
import Sqlite from '../../core/store/sqlite.js';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_SORT_KEYS, type SitesPage, type SitesQuery } from '../../core/api/contract.js';
import { sitesPage } from '../../core/api/sites-query.js';
import { Crawler } from '../../core/engine/crawler.js';
import { withCrawlReader, withMigratedCrawlReader } from '../../core/store/crawl-reader.js';
import { SCHEMA_VERSION } from '../../core/store/migrations/index.js';
import { SITE_SORT_INDEXES } from '../../core/store/migrations/011-site-sorts.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { crawlFileOfSchema } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-site-probes-');

/** The names of the file's indexes that this condition on sqlite_master picks, in order. */
function indexNames(path: string, condition: string): string[] {
  const db = new Sqlite(path, { readonly: true });
  try {
    return db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND ${condition} ORDER BY name`).pluck().all() as string[];
  } finally {
    db.close();
  }
}
const indexes = (path: string) => indexNames(path, "name IN ('frontier_site', 'robots_site')");
/** The sites' sort indexes the file holds (011-site-sorts.ts). */
const sortIndexes = (path: string) => indexNames(path, "name LIKE 'sites\\_by\\_%' ESCAPE '\\'");
const SORT_INDEXES = SITE_SORT_INDEXES.map((i) => i.name).sort();

/** Each site's state as the file says it, by the test's own SQL: parked, pending (a page of it queued), done. */
function statesInFile(path: string): Map<string, string> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT host, CASE WHEN parked IS NOT NULL THEN 'parked' WHEN EXISTS (SELECT 1 FROM frontier f WHERE f.site_id = s.id) THEN 'pending' ELSE 'done' END AS state FROM sites s`,
      )
      .all() as Array<{ host: string; state: string }>;
    return new Map(rows.map((r) => [r.host, r.state]));
  } finally {
    db.close();
  }
}

/** The first page of 5 sites, sorted by every key either way, with and without a host filter or errors only. */
function everyFirstPage(path: string): SitesPage[] {
  const out: SitesPage[] = [];
  for (const sort of SITE_SORT_KEYS) {
    for (const descending of [true, false]) {
      for (const q of [{}, { host: '1' }, { errorsOnly: true }, { offset: 3 }] satisfies SitesQuery[]) {
        out.push(withCrawlReader(path, (r) => sitesPage(r, { sort, descending, limit: 5, ...q })));
      }
    }
  }
  return out;
}

describe('a Sites page reads its sites one by one where the crawl has frontier_site', async () => {
  const web = generateWeb({ seed: 8, sites: 14, pages: 500, latency: false });
  const { port } = await serve(web);
  const db = join(dir, 'crawl.db');

  it('a crawl drops frontier_site while it runs and has it once stopped; its pages are the same as without it', async () => {
    const crawler = Crawler.create(db, { ...testSettings(seedUrls(web, port)), maxPages: 150 });
    const whileRunning: string[][] = [];
    crawler.on('commit', () => whileRunning.push([...indexes(db), ...sortIndexes(db)]));
    try {
      expect((await crawler.run()).stopReason).toBe('max-pages');
    } finally {
      crawler.close();
    }
    expect(whileRunning.length).toBeGreaterThan(0);
    expect(whileRunning.every((names) => names.length === 1 && names[0] === 'robots_site')).toBe(true);
    expect(indexes(db)).toEqual(['robots_site']); // paused: it may run again
    expect(sortIndexes(db)).toEqual([]);
    Crawler.stopStored(db);
    expect(indexes(db)).toEqual(['frontier_site', 'robots_site']);
    expect(sortIndexes(db)).toEqual(SORT_INDEXES);

    const states = statesInFile(db);
    expect([...states.values()]).toEqual(expect.arrayContaining(['pending', 'done']));
    const all = withCrawlReader(db, (r) => sitesPage(r, { limit: 100 }));
    expect(all.rows.map((r) => [r.host, r.state]).sort()).toEqual([...states.entries()].sort());

    const scanned = join(dir, 'scanned.db');
    copyFileSync(db, scanned);
    const raw = new Sqlite(scanned);
    raw.exec('DROP INDEX frontier_site');
    for (const name of SORT_INDEXES) raw.exec(`DROP INDEX ${name}`);
    raw.close();
    // Every sort either way, filtered and offset: a page walked along its key's index is the page a scan sorts.
    expect(everyFirstPage(db)).toEqual(everyFirstPage(scanned));
  });

  it('a finished crawl of schema 9 gets robots_site, frontier_site and the sort indexes when first read, its states and robots.txt answers unchanged', () => {
    const old = join(dir, 'schema9.db');
    const raw = crawlFileOfSchema(old, 9);
    raw.exec(`INSERT INTO sites(id, host, parked) VALUES (1, 'a.test', NULL), (2, 'b.test', NULL), (3, 'c.test', 'CRAWL_ROBOTS_UNAVAILABLE');
      INSERT INTO pages(id, url, site_id, depth, status, http_status, fetch_seq) VALUES
        (1, 'http://a.test/', 1, 0, 'fetched', 200, 1), (2, 'http://a.test/x', 1, 1, 'queued', NULL, NULL),
        (3, 'http://b.test/', 2, 0, 'fetched', 200, 2), (4, 'http://c.test/', 3, 0, 'queued', NULL, NULL);
      INSERT INTO frontier(page_id, site_id) VALUES (2, 1), (4, 3);
      INSERT INTO robots(origin, site_id, state, http_status, fetched_at) VALUES
        ('http://a.test:80', 1, 'allow-all', 404, 0), ('https://a.test:443', 1, 'unavailable', 503, 0), ('http://b.test:80', 2, 'allow-all', 404, 0);`);
    raw.close();
    const page = withMigratedCrawlReader(old, (r) => sitesPage(r, { sort: 'host', descending: false }));
    expect(indexes(old)).toEqual(['frontier_site', 'robots_site']);
    expect(sortIndexes(old)).toEqual(SORT_INDEXES);
    const db9 = new Sqlite(old, { readonly: true });
    expect(db9.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db9.close();
    expect(page.rows.map((r) => [r.host, r.state, r.robots])).toEqual([
      ['a.test', 'pending', { state: 'unavailable', status: 503, origins: 2 }],
      ['b.test', 'done', { state: 'allow-all', status: 404, origins: 1 }],
      ['c.test', 'parked', null],
    ]);
  });
});
