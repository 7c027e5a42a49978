/**
 * Links keyed by the fetch that stored them (schema 12, migrations/012-links-by-fetch.ts): a
 * crawl's link writes append, since each fetched page's links go under its fetch_seq, which
 * only grows; links stored without a fetch (a sitemap's, while it streams) go under minus the
 * page's id. Every reader finds a page's links by those two keys, as it found them by the page's
 * id before; a file of schema 11 is rekeyed when first opened for writing.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCrawlGraph } from '../../core/ranking/crawl-graph.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { csrFromRuns, newLinkRuns, pushLink } from '../../core/store/link-ranges.js';
import { validateSettings } from '../../core/config/settings.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { crawlFileOfSchema, sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-links-by-fetch-');

describe('a crawl stores each page its links under its fetch', async () => {
  const web = generateWeb({ seed: 11, sites: 12, pages: 360, latency: false, sitemaps: true });
  const { port } = await serve(web);
  const before = process.env.CRAWLBENCH_WRITER;
  afterAll(() => {
    if (before === undefined) delete process.env.CRAWLBENCH_WRITER;
    else process.env.CRAWLBENCH_WRITER = before;
  });
  /** The crawl with its writes on a writer thread ('1') or on the crawl's own ('0'). */
  async function crawlWith(writer: '0' | '1'): Promise<string> {
    process.env.CRAWLBENCH_WRITER = writer;
    const db = join(dir, `web-${writer}.db`);
    const summary = await crawl(db, testSettings(seedUrls(web, port), { sitemaps: true, c: 2 }));
    expect(summary.stopReason).toBe('finished');
    return db;
  }
  const linkSet = (db: string) =>
    sqlRows<{ s: string; d: string; kind: string }>(db, 'SELECT s.url AS s, d.url AS d, l.kind FROM links l JOIN pages s ON s.id = l.src JOIN pages d ON d.id = l.dst')
      .map((r) => `${r.s} ${r.d} ${r.kind}`)
      .sort();
  const dbs = { writer: '', direct: '' };

  it("with a writer thread and without: every page's links under its fetch_seq, a sitemap's under minus its id", async () => {
    dbs.writer = await crawlWith('1');
    dbs.direct = await crawlWith('0');
    for (const db of [dbs.writer, dbs.direct]) {
      const [c] = sqlRows<{ links: number; elsewhere: number; sitemapLinks: number; sitemapsByFetch: number }>(
        db,
        `SELECT count(*) AS links, sum(l.seq <> coalesce(p.fetch_seq, -l.src) AND l.seq <> -l.src) AS elsewhere,
           sum(l.kind = 'sitemap') AS sitemapLinks, sum(l.kind = 'sitemap' AND l.seq <> -l.src) AS sitemapsByFetch
         FROM links l JOIN pages p ON p.id = l.src`,
      );
      expect(c!.links).toBeGreaterThan(1000);
      expect(c!.elsewhere).toBe(0);
      // A sitemap's links are stored as it streams, before its fetch: under minus its page's id, every one.
      expect(c!.sitemapLinks).toBeGreaterThan(0);
      expect(c!.sitemapsByFetch).toBe(0);
      // Links of a fetched page's own content come with its fetch: under its fetch_seq, all of them.
      const [own] = sqlRows<{ n: number; wrong: number }>(
        db,
        `SELECT count(*) AS n, sum(l.seq <> p.fetch_seq) AS wrong FROM links l JOIN pages p ON p.id = l.src WHERE l.kind <> 'sitemap'`,
      );
      expect(own!.n).toBeGreaterThan(1000);
      expect(own!.wrong).toBe(0);
    }
  });

  it('the two stored the same links', () => {
    expect(linkSet(dbs.writer)).toEqual(linkSet(dbs.direct));
  });

  it("the reader finds each page's links by its keys, as many as the table holds from it", () => {
    const reader = CrawlReader.open(dbs.writer);
    try {
      const bySrc = new Map(sqlRows<{ src: number; n: number }>(dbs.writer, 'SELECT src, count(*) AS n FROM links GROUP BY src').map((r) => [r.src, r.n]));
      let pages = 0;
      for (const p of reader.pages([])) {
        expect(reader.outLinks(p.id).length, `page ${p.id}`).toBe(bySrc.get(p.id) ?? 0);
        pages++;
      }
      expect(pages).toBeGreaterThan(300);
      // And the graph holds every link between two pages once (self-links aside).
      const pairs = sqlRows<{ n: number }>(dbs.writer, 'SELECT count(*) AS n FROM (SELECT DISTINCT src, dst FROM links WHERE src <> dst)')[0]!.n;
      expect(loadCrawlGraph(reader).graph.targets.length).toBe(pairs);
    } finally {
      reader.close();
    }
  });
});

describe('a crawl file of schema 11', () => {
  it("is rekeyed when first opened for writing: links kept, each under its source's fetch_seq or (a sitemap's, or unfetched) minus its id, links_dst kept", () => {
    const path = join(dir, 'schema-11.db');
    const raw = crawlFileOfSchema(path, 11);
    raw.exec("INSERT INTO sites(id, host) VALUES (1, 'a.test')");
    // Page 1 fetched second, page 2 first, page 3 (a sitemap whose read failed) never, page 4 (a sitemap) third.
    raw.exec(`INSERT INTO pages(id, url, site_id, depth, status, fetch_seq) VALUES
      (1, 'http://a.test/', 1, 0, 'fetched', 2), (2, 'http://a.test/b', 1, 1, 'fetched', 1), (3, 'http://a.test/sitemap.xml', 1, 0, 'failed', NULL),
      (4, 'http://a.test/sitemap2.xml', 1, 0, 'fetched', 3)`);
    raw.exec(`INSERT INTO links(src, dst, anchor, kind, lastmod) VALUES (1, 2, 'b', 'a', NULL), (1, 3, NULL, 'a', NULL), (2, 1, 'home', 'a', NULL),
      (3, 1, NULL, 'sitemap', '2026-01-01'), (4, 2, NULL, 'sitemap', NULL)`);
    raw.exec('CREATE INDEX links_dst ON links(dst)');
    raw.close();

    CrawlStore.open(path).close();
    const rows = sqlRows<{ seq: number; src: number; dst: number; anchor: string | null; kind: string; lastmod: string | null }>(
      path,
      'SELECT seq, src, dst, anchor, kind, lastmod FROM links',
    );
    // A sitemap's links under minus its page's id, as a crawl now stores them; any other page's under its fetch.
    expect(rows).toEqual([
      { seq: -4, src: 4, dst: 2, anchor: null, kind: 'sitemap', lastmod: null },
      { seq: -3, src: 3, dst: 1, anchor: null, kind: 'sitemap', lastmod: '2026-01-01' },
      { seq: 1, src: 2, dst: 1, anchor: 'home', kind: 'a', lastmod: null },
      { seq: 2, src: 1, dst: 2, anchor: 'b', kind: 'a', lastmod: null },
      { seq: 2, src: 1, dst: 3, anchor: null, kind: 'a', lastmod: null },
    ]);
    expect(sqlRows(path, "SELECT name FROM sqlite_master WHERE name = 'links_dst'")).toHaveLength(1);
    const reader = CrawlReader.open(path);
    try {
      expect(reader.outLinks(1).sort()).toEqual([2, 3]);
      expect(reader.outLinks(3)).toEqual([1]);
      expect(reader.outLinks(4)).toEqual([2]);
      expect(reader.linksFrom(2, 10)).toEqual([{ url: 'http://a.test/', anchor: 'home', kind: 'a' }]);
      expect(reader.totals().links).toBe(5);
    } finally {
      reader.close();
    }
  });

  it('a new file has no links_dst while its crawl writes', () => {
    const path = join(dir, 'new.db');
    CrawlStore.create(path, validateSettings({ seeds: ['http://a.test/'] })).close();
    expect(sqlRows(path, "SELECT name FROM sqlite_master WHERE name = 'links_dst'")).toEqual([]);
  });
});

describe('links as CSR', () => {
  it('sorts a source met under two fetches and keeps each target once', () => {
    // Node 0 under two keys (targets 3, 1 then 1, 2), node 2 once; node 1 and 3 link nowhere.
    const runs = newLinkRuns();
    for (const [x, y] of [[0, 3], [0, 1], [2, 0], [0, 1], [0, 2]] as const) pushLink(runs, x, y);
    expect(runs.runs).toBe(3);
    const outdeg = new Uint32Array(4).fill(9);
    const targets = csrFromRuns([runs], outdeg);
    expect([...outdeg]).toEqual([3, 0, 1, 0]);
    expect([...targets]).toEqual([1, 2, 3, 0]);
  });
});
