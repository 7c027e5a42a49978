/**
 * The crawl's sitemaps (schema 9, migrations/009-sitemaps.ts): the rows the crawler plans,
 * fetches and records, and the links of kind 'sitemap' with their <lastmod>. Writes go into
 * the crawl's current write batch, like every other write of a running crawl.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

export type SitemapSource = 'robots' | 'guess' | 'index' | 'redirect';
export type SitemapState = 'queued' | 'fetched' | 'failed' | 'absent' | 'skipped';

export interface SitemapRow {
  id: number;
  site_id: number;
  origin: string;
  url: string;
  source: SitemapSource;
  parent_id: number | null;
  depth: number;
  lastmod: string | null;
  state: SitemapState;
  page_id: number | null;
  attempts: number;
}

export interface NewSitemap {
  siteId: number;
  origin: string;
  url: string;
  source: SitemapSource;
  parentId: number | null;
  depth: number;
  lastmod: string | null;
}

/** What a fetch of a sitemap came to. */
export interface SitemapOutcome {
  state: SitemapState;
  httpStatus: number | null;
  root: string | null;
  gzip: boolean;
  urls: number;
  sitemaps: number;
  bytes: number | null;
  decodedBytes: number | null;
  errorCode: string | null;
  message: string | null;
  attempts: number;
  fetchedAt: number | null;
}

export interface SitemapLink {
  dst: number;
  lastmod: string | null;
}

const SELECT = 'id, site_id, origin, url, source, parent_id, depth, lastmod, state, page_id, attempts';
const LINK_ROWS = 32;

export class SitemapStore {
  private readonly st: Record<string, Statement>;
  private readonly insertLinksBy: Statement[] = [];

  constructor(private readonly db: Db) {
    this.st = {
      byUrl: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE url = ?`),
      byId: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE id = ?`),
      queued: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE origin = ? AND state = 'queued' ORDER BY id`),
      siteTotals: db.prepare('SELECT count(*) AS files, coalesce(sum(urls + sitemaps), 0) AS entries FROM sitemaps WHERE site_id = ?'),
      insert: db.prepare(`INSERT INTO sitemaps(site_id, origin, url, source, parent_id, depth, lastmod)
        VALUES (?, ?, ?, ?, ?, ?, ?)`),
      setPage: db.prepare('UPDATE sitemaps SET page_id = ? WHERE id = ?'),
      record: db.prepare(`UPDATE sitemaps SET state = ?, http_status = ?, root = ?, gzip = ?, urls = ?, sitemaps = ?,
        bytes = ?, decoded_bytes = ?, error_code = ?, message = ?, attempts = ?, fetched_at = ? WHERE id = ?`),
      skipQueued: db.prepare(`UPDATE sitemaps SET state = 'skipped', error_code = ?, message = ? WHERE site_id = ? AND state = 'queued'`),
    };
  }

  byUrl(url: string): SitemapRow | undefined {
    return this.st.byUrl!.get(url) as SitemapRow | undefined;
  }
  byId(id: number): SitemapRow | undefined {
    return this.st.byId!.get(id) as SitemapRow | undefined;
  }
  /** The origin's sitemaps still to fetch, oldest first. */
  queued(origin: string): SitemapRow[] {
    return this.st.queued!.all(origin) as SitemapRow[];
  }
  /** Sitemap files a site's sitemaps named (each fetched or to be), and the entries read from them. */
  siteTotals(siteId: number): { files: number; entries: number } {
    return this.st.siteTotals!.get(siteId) as { files: number; entries: number };
  }
  /** A sitemap to fetch (queued). */
  insert(s: NewSitemap): number {
    const r = this.st.insert!.run(s.siteId, s.origin, s.url, s.source, s.parentId, s.depth, s.lastmod);
    return Number(r.lastInsertRowid);
  }
  setPage(id: number, pageId: number): void {
    this.st.setPage!.run(pageId, id);
  }
  record(id: number, o: SitemapOutcome): void {
    this.st.record!.run(
      o.state, o.httpStatus, o.root, o.gzip ? 1 : 0, o.urls, o.sitemaps, o.bytes, o.decodedBytes, o.errorCode, o.message, o.attempts, o.fetchedAt, id,
    );
  }
  /** Every sitemap of the site still queued is not fetched after all (the site's cap). */
  skipQueued(siteId: number, code: string, message: string): number {
    return this.st.skipQueued!.run(code, message, siteId).changes;
  }

  /** Links of kind 'sitemap' from a sitemap's page, with their <lastmod>, LINK_ROWS a statement. */
  insertLinks(src: number, links: readonly SitemapLink[]): void {
    for (let from = 0; from < links.length; from += LINK_ROWS) {
      const n = Math.min(LINK_ROWS, links.length - from);
      const args: Array<number | string | null> = new Array(n * 3);
      for (let i = 0; i < n; i++) {
        const l = links[from + i]!;
        args[i * 3] = src;
        args[i * 3 + 1] = l.dst;
        args[i * 3 + 2] = l.lastmod;
      }
      let st = this.insertLinksBy[n];
      if (!st) {
        const rows = Array.from({ length: n }, () => "(?, ?, NULL, 0, 'sitemap', ?)").join(', ');
        st = this.insertLinksBy[n] = this.db.prepare(`INSERT OR IGNORE INTO links(src, dst, anchor, nofollow, kind, lastmod) VALUES ${rows}`);
      }
      st.run(...args);
    }
  }
}
