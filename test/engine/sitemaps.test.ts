import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { ErrorCodes } from '../../core/errors.js';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_ENTRIES } from '../../core/parse/sitemap-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { DISALLOWED_PATH, GOOD_SITEMAP_STYLES, HIDDEN_PAGES, OUTSIDE_URL, OVER_LIMIT_BYTES, SITEMAP_STYLES, hiddenPath, type SitemapStyle } from '../../core/testweb/sitemaps.js';
import type { ServedRequest } from '../../core/testweb/server.js';
import { politenessViolations } from '../helpers/politeness.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();

interface SitemapRecord {
  url: string;
  host: string;
  state: string;
  error_code: string | null;
  message: string | null;
  urls: number;
  decoded_bytes: number | null;
  gzip: number;
  root: string | null;
}

/**
 * A generated web whose sites serve sitemaps (good ones, and each broken kind on a site of its
 * own) with pages that no page links to, crawled without and with --sitemaps: the hidden pages
 * are fetched only with it, every broken sitemap is recorded with its code and costs a bounded
 * read, politeness holds from the server's log, and scope and robots.txt apply to what
 * sitemaps list.
 */
describe('sitemaps (--sitemaps)', { timeout: 120_000 }, async () => {
  const web = generateWeb({ seed: 11, sites: 40, pages: 1200, latency: { maxMs: 4 }, sitemaps: true });
  const { server, port } = await serve(web);
  const robotsOf = new Map(web.sites.map((s) => [s.host, s.robots]));
  const hostOf = new Map<SitemapStyle, string>(web.sites.filter((s) => s.sitemap).map((s) => [s.sitemap!, s.host]));
  const hidden = (style: SitemapStyle, n: number) => `http://${hostOf.get(style)}:${port}${hiddenPath(n)}`;
  const w = 30;
  const c = 3;

  async function crawlWith(name: string, sitemaps: boolean): Promise<{ db: string; requests: ServedRequest[]; summary: Awaited<ReturnType<typeof crawl>> }> {
    const before = server.requests.length;
    const db = join(dir, `${name}.db`);
    const summary = await crawl(db, testSettings(seedUrls(web, port), { c, w, sitemaps }));
    return { db, requests: server.requests.slice(before), summary };
  }

  const fetchedUrls = (db: string): Map<string, string> => {
    const store = CrawlStore.open(db, { readonly: true });
    const rows = store.db.prepare('SELECT url, status FROM pages').all() as Array<{ url: string; status: string }>;
    store.close();
    return new Map(rows.map((r) => [r.url, r.status]));
  };

  it('the web has a site of every sitemap style, and no page links to a hidden page', () => {
    expect([...hostOf.keys()].sort()).toEqual([...SITEMAP_STYLES].sort());
    for (let id = 0; id < web.pageCount; id++) expect(web.path(id)).not.toMatch(/^\/hidden\//);
  });

  // One after the other: the server's log of each must hold that crawl's requests alone.
  const without = crawlWith('without', false);
  const withSm = without.then(() => crawlWith('with', true));

  it('without --sitemaps: no sitemap is asked for and no hidden page is known', async () => {
    const { db, requests, summary } = await without;
    expect(summary.stopReason).toBe('finished');
    expect(requests.filter((r) => r.path.startsWith('/sitemap') || r.path.startsWith('/hidden/'))).toEqual([]);
    expect([...fetchedUrls(db).keys()].filter((u) => u.includes('/hidden/'))).toEqual([]);
  });

  it('with --sitemaps: the pages reachable only through a sitemap are fetched', async () => {
    const { db, summary } = await withSm;
    expect(summary.stopReason).toBe('finished');
    const pages = fetchedUrls(db);
    for (const style of GOOD_SITEMAP_STYLES) {
      for (let n = 1; n <= HIDDEN_PAGES; n++) expect(pages.get(hidden(style, n)), `${style} hidden ${n}`).toBe('fetched');
    }
    // What a broken sitemap listed before its problem is kept.
    for (const style of ['malformed', 'self-index', 'over-limit', 'billion', 'bomb', 'scope'] as const) {
      expect(pages.get(hidden(style, 1)), `${style} hidden 1`).toBe('fetched');
    }
    expect(pages.has(hidden('malformed', 2))).toBe(false);
  });

  it('every broken sitemap is recorded with its code, its read bounded', async () => {
    const { db, summary, requests } = await withSm;
    const store = CrawlStore.open(db, { readonly: true });
    const rows = store.db.prepare('SELECT * FROM sitemaps').all() as SitemapRecord[];
    const pageCodes = new Map(
      (store.db.prepare('SELECT url, error_code FROM pages WHERE error_code LIKE ?').all('CRAWL_SITEMAP_%') as Array<{ url: string; error_code: string }>).map((r) => [r.url, r.error_code]),
    );
    store.close();
    for (const r of rows) r.host = new URL(r.url).hostname;
    const of = (style: SitemapStyle) => rows.filter((r) => r.host === hostOf.get(style) && r.state === 'fetched' && r.root !== null);
    const one = (style: SitemapStyle, path: string) => rows.find((r) => r.host === hostOf.get(style) && new URL(r.url).pathname === path)!;

    for (const style of GOOD_SITEMAP_STYLES) for (const r of of(style)) expect(r.error_code, r.url).toBeNull();
    expect(one('index', '/sitemaps/part-2.xml.gz').gzip).toBe(1);
    expect(one('gzip', '/sitemap.xml.gz').gzip).toBe(1);
    expect(one('malformed', '/sitemap.xml').error_code).toBe(ErrorCodes.SITEMAP_MALFORMED);
    expect(one('self-index', '/sitemap-loop.xml').error_code).toBe(ErrorCodes.SITEMAP_LOOP);
    expect(one('self-index', '/sitemaps/loop-part.xml').error_code).toBeNull();
    expect(one('not-gzip', '/sitemap.xml.gz').error_code).toBe(ErrorCodes.SITEMAP_NOT_GZIP);
    const billion = one('billion', '/sitemap.xml');
    expect(billion.error_code).toBe(ErrorCodes.SITEMAP_TOO_LARGE);
    expect(billion.urls).toBe(SITEMAP_MAX_ENTRIES);
    for (const style of ['over-limit', 'bomb'] as const) {
      const r = rows.find((x) => x.host === hostOf.get(style) && x.root !== null)!;
      expect(r.error_code, style).toBe(ErrorCodes.SITEMAP_TOO_LARGE);
      expect(r.decoded_bytes, style).toBe(SITEMAP_MAX_BYTES);
    }
    // Recorded on the sitemap's page too, and counted among the crawl's errors.
    expect(pageCodes.get(`http://${hostOf.get('malformed')}:${port}/sitemap.xml`)).toBe(ErrorCodes.SITEMAP_MALFORMED);
    for (const code of [ErrorCodes.SITEMAP_MALFORMED, ErrorCodes.SITEMAP_LOOP, ErrorCodes.SITEMAP_NOT_GZIP]) expect(summary.errors[code]).toBe(1);
    expect(summary.errors[ErrorCodes.SITEMAP_TOO_LARGE]).toBe(3);
    // The reads stopped at the limits: the endless and the oversized files were not read to their end.
    const sent = (style: SitemapStyle) => requests.filter((r) => r.host === hostOf.get(style) && r.path === '/sitemap.xml').reduce((n, r) => n + r.bytes, 0);
    expect(sent('billion')).toBeLessThan(20 * 1024 * 1024);
    expect(sent('over-limit')).toBeLessThan(OVER_LIMIT_BYTES);
    // A sitemap that is not there (most sites have no /sitemap.xml) is no error.
    expect(rows.filter((r) => r.state === 'absent').length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.state === 'absent').every((r) => r.error_code === null)).toBe(true);
  });

  it('politeness holds with the sitemap requests: one connection per site, w between, at most c requests each', async () => {
    const { requests } = await withSm;
    expect(requests.some((r) => r.path.startsWith('/sitemap'))).toBe(true);
    const conns = new Map([...server.connections].filter(([id]) => requests.some((r) => r.connId === id)));
    const violations = politenessViolations(requests, conns, { w, c, wFor: (host) => (robotsOf.get(host) === 'crawl-delay' ? 1000 : w) });
    expect(violations).toEqual([]);
  });

  it('scope and robots.txt apply to what a sitemap lists: neither the outside URL nor the disallowed page is fetched', async () => {
    const { db, requests } = await withSm;
    const pages = fetchedUrls(db);
    expect(pages.has(OUTSIDE_URL)).toBe(false);
    const disallowed = `http://${hostOf.get('scope')}:${port}${DISALLOWED_PATH}`;
    expect(pages.get(disallowed)).toBe('disallowed');
    expect(requests.filter((r) => r.path === DISALLOWED_PATH)).toEqual([]);
  });

  it('links of kind sitemap, with their lastmod, go from each sitemap to what it lists', async () => {
    const { db } = await withSm;
    const store = CrawlStore.open(db, { readonly: true });
    const links = store.db
      .prepare(`SELECT s.url AS src, d.url AS dst, l.lastmod FROM links l JOIN pages s ON s.id = l.src JOIN pages d ON d.id = l.dst WHERE l.kind = 'sitemap'`)
      .all() as Array<{ src: string; dst: string; lastmod: string | null }>;
    store.close();
    const base = `http://${hostOf.get('plain')}:${port}`;
    expect(links).toContainEqual({ src: `${base}/sitemap.xml`, dst: `${base}${hiddenPath(1)}`, lastmod: '2024-02-15' });
    const index = `http://${hostOf.get('index')}:${port}`;
    expect(links).toContainEqual({ src: `${index}/sitemap-index.xml`, dst: `${index}/sitemaps/part-1.xml`, lastmod: '2024-05-01' });
    expect(links).toContainEqual({ src: `${index}/sitemaps/part-2.xml.gz`, dst: `${index}${hiddenPath(3)}`, lastmod: '2024-01-15' });
  });

  it('crawlbench crawl --sitemaps: the command line turns it on (the built CLI, against the plain site)', async () => {
    await withSm;
    const home = `http://${hostOf.get('plain')}:${port}/`;
    const run = async (name: string, flags: string[]) => {
      const db = join(dir, `cli-${name}.db`);
      const r = await crawlbench(['crawl', '--db', db, '--seed', home, '--resolve', '*.demo=127.0.0.1', '--w', '0', '--quiet', '--json', ...flags]);
      expect(r.code, r.stderr).toBe(0);
      return fetchedUrls(db);
    };
    const plain = await run('plain', []);
    const withFlag = await run('sitemaps', ['--sitemaps']);
    for (let n = 1; n <= HIDDEN_PAGES; n++) {
      expect(plain.has(hidden('plain', n))).toBe(false);
      expect(withFlag.get(hidden('plain', n))).toBe('fetched');
    }
  });

  it('a crawl paused while sitemaps are still to read resumes them and ends with the same pages and sitemaps', async () => {
    const { db: whole } = await withSm;
    const db = join(dir, 'resumed.db');
    const first = await crawl(db, testSettings(seedUrls(web, port), { c, w, sitemaps: true, maxPages: 60 }));
    expect(first.stopReason).toBe('max-pages');
    const sitemapsOf = (file: string) => {
      const store = CrawlStore.open(file, { readonly: true });
      const rows = store.db.prepare('SELECT url, state, error_code FROM sitemaps ORDER BY url').all();
      store.close();
      return rows;
    };
    const queued = (sitemapsOf(db) as Array<{ state: string }>).filter((r) => r.state === 'queued').length;
    expect(queued).toBeGreaterThan(0);
    const again = Crawler.open(db, { maxPages: null });
    try {
      expect((await again.run()).stopReason).toBe('finished');
    } finally {
      again.close();
    }
    expect([...fetchedUrls(db).entries()].sort()).toEqual([...fetchedUrls(whole).entries()].sort());
    expect(sitemapsOf(db)).toEqual(sitemapsOf(whole));
  });
});
