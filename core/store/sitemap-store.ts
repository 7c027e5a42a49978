/**
 * The crawl's sitemaps (schema 9, migrations/009-sitemaps.ts): the rows the crawler plans,
 * fetches and records, and the links of kind 'sitemap' with their <lastmod>. Writes go into
 * the crawl's current write batch, like every other write of a running crawl.
 */
import type { Statement } from 'better-sqlite3';
import type { NewLink } from './crawl-rows.js';
import type { Db } from './database.js';
import type { PendingRows } from './pending-rows.js';
import { StoreWrites } from './store-writes.js';
import { multiRowSql, type RowsShape } from './row-groups.js';

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
/** One sitemap link's INSERT (source, target, lastmod), repeated for a statement of n links. */
const SITEMAP_LINK: RowsShape = {
  head: 'INSERT OR IGNORE INTO links(seq, dst, src, anchor, nofollow, kind, lastmod) VALUES',
  row: "(?, ?, ?, NULL, 0, 'sitemap', ?)",
  params: 4,
};

/**
 * With a writer thread (store-writer.ts) the writes go to its batches and this connection
 * reads committed rows only, so the rows written since are kept until they commit
 * (pending-rows.ts) and every read answers with them: the sitemap phase reads back what it
 * just planned (its queue, an index's parents, a URL already planned).
 */
export class SitemapStore {
  private readonly st: Record<string, Statement>;
  private readonly w: Record<'insert' | 'setPage' | 'record' | 'skipQueued', number>;
  private readonly insertLinksBy: number[] = [];
  private readonly rows: PendingRows<number, SitemapRow>;
  private readonly urls: PendingRows<string, number>;
  private nextId: number;

  constructor(
    private readonly db: Db,
    private readonly writes: StoreWrites = new StoreWrites(db),
    /** Told a sitemap's links before they commit (the crawl store's shorter paths read them back). */
    private readonly onLinks: (src: number, links: NewLink[]) => void = () => {},
  ) {
    this.st = {
      byUrl: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE url = ?`),
      byId: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE id = ?`),
      queued: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE origin = ? AND state = 'queued' ORDER BY id`),
      queuedOfSite: db.prepare(`SELECT ${SELECT} FROM sitemaps WHERE site_id = ? AND state = 'queued'`),
      siteTotals: db.prepare('SELECT count(*) AS files, coalesce(sum(urls + sitemaps), 0) AS entries FROM sitemaps WHERE site_id = ?'),
    };
    this.w = {
      insert: writes.statement(`INSERT INTO sitemaps(id, site_id, origin, url, source, parent_id, depth, lastmod)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      setPage: writes.statement('UPDATE sitemaps SET page_id = ? WHERE id = ?'),
      record: writes.statement(`UPDATE sitemaps SET state = ?, http_status = ?, root = ?, gzip = ?, urls = ?, sitemaps = ?,
        bytes = ?, decoded_bytes = ?, error_code = ?, message = ?, attempts = ?, fetched_at = ? WHERE id = ?`),
      skipQueued: writes.statement(`UPDATE sitemaps SET state = 'skipped', error_code = ?, message = ? WHERE site_id = ? AND state = 'queued'`),
    };
    this.rows = writes.pendingRows();
    this.urls = writes.pendingRows();
    this.nextId = ((db.prepare('SELECT max(id) FROM sitemaps').pluck().get() as number | null) ?? 0) + 1;
  }

  private get behind(): boolean {
    return this.writes.writer !== null;
  }

  byUrl(url: string): SitemapRow | undefined {
    const id = this.urls.get(url);
    if (id !== undefined) return this.byId(id);
    const row = this.st.byUrl!.get(url) as SitemapRow | undefined;
    return row === undefined ? undefined : (this.rows.get(row.id) ?? row);
  }
  byId(id: number): SitemapRow | undefined {
    const row = this.rows.get(id);
    return row !== undefined ? { ...row } : (this.st.byId!.get(id) as SitemapRow | undefined);
  }
  /** The origin's sitemaps still to fetch, oldest first. */
  queued(origin: string): SitemapRow[] {
    const committed = this.st.queued!.all(origin) as SitemapRow[];
    if (this.rows.size === 0) return committed;
    const all = new Map<number, SitemapRow>();
    for (const r of committed) all.set(r.id, this.rows.get(r.id) ?? r);
    for (const r of this.rows.values()) if (r.origin === origin) all.set(r.id, r);
    return [...all.values()].filter((r) => r.state === 'queued').sort((a, b) => a.id - b.id).map((r) => ({ ...r }));
  }
  /** Sitemap files a site's sitemaps named (each fetched or to be), and the entries read from them, as committed. */
  siteTotals(siteId: number): { files: number; entries: number } {
    return this.st.siteTotals!.get(siteId) as { files: number; entries: number };
  }
  /** A sitemap to fetch (queued). */
  insert(s: NewSitemap): number {
    const id = this.nextId++;
    this.writes.run(this.w.insert, [id, s.siteId, s.origin, s.url, s.source, s.parentId, s.depth, s.lastmod]);
    if (this.behind) {
      const row: SitemapRow = { id, site_id: s.siteId, origin: s.origin, url: s.url, source: s.source, parent_id: s.parentId, depth: s.depth, lastmod: s.lastmod, state: 'queued', page_id: null, attempts: 0 };
      this.rows.set(id, row, this.writes.batch);
      this.urls.set(s.url, id, this.writes.batch);
    }
    return id;
  }
  setPage(id: number, pageId: number): void {
    this.writes.run(this.w.setPage, [pageId, id]);
    this.change(id, (r) => (r.page_id = pageId));
  }
  record(id: number, o: SitemapOutcome): void {
    this.writes.run(this.w.record, [
      o.state, o.httpStatus, o.root, o.gzip ? 1 : 0, o.urls, o.sitemaps, o.bytes, o.decodedBytes, o.errorCode, o.message, o.attempts, o.fetchedAt, id,
    ]);
    this.change(id, (r) => {
      r.state = o.state;
      r.attempts = o.attempts;
    });
  }
  /** Every sitemap of the site still queued is not fetched after all (the site's cap). */
  skipQueued(siteId: number, code: string, message: string): void {
    this.writes.run(this.w.skipQueued, [code, message, siteId]);
    if (!this.behind) return;
    const ids = (this.st.queuedOfSite!.all(siteId) as SitemapRow[]).map((r) => r.id);
    for (const r of this.rows.values()) if (r.site_id === siteId) ids.push(r.id);
    for (const id of ids) this.change(id, (r) => r.state === 'queued' && (r.state = 'skipped'));
  }
  /** A row changed in the open batch, kept (whole) until it commits. */
  private change(id: number, f: (r: SitemapRow) => unknown): void {
    if (!this.behind) return;
    const row = this.byId(id);
    if (row === undefined) return;
    f(row);
    this.rows.set(id, row, this.writes.batch);
  }

  /**
   * Links of kind 'sitemap' from a sitemap's page, with their <lastmod>, LINK_ROWS a statement.
   * Stored as links without a fetch (schema 12: under minus the page's id), whenever they come:
   * a sitemap's are written while it streams, before its fetch is recorded, and an index's
   * link to a child when the child is read; so a read again (a retry, a crawl resumed) meets
   * the same keys and adds nothing twice.
   */
  insertLinks(src: number, links: readonly SitemapLink[]): void {
    const seq = -src;
    for (let from = 0; from < links.length; from += LINK_ROWS) {
      const n = Math.min(LINK_ROWS, links.length - from);
      const args: Array<number | string | null> = new Array(n * 4);
      for (let i = 0; i < n; i++) {
        const l = links[from + i]!;
        args[i * 4] = seq;
        args[i * 4 + 1] = l.dst;
        args[i * 4 + 2] = src;
        args[i * 4 + 3] = l.lastmod;
      }
      this.writes.run((this.insertLinksBy[n] ??= this.writes.statement(multiRowSql(SITEMAP_LINK, n))), args);
    }
    this.onLinks(src, links.map((l) => ({ dst: l.dst, anchor: null, nofollow: false, kind: 'sitemap' })));
  }
}
