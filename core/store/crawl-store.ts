import type { Statement } from 'better-sqlite3';
import { CrawlError, ErrorCodes } from '../errors.js';
import type { CrawlSettings } from '../config/settings.js';
import { validateSettings } from '../config/settings.js';
import { CrawlReader, type CrawlTotals } from './crawl-reader.js';
import { openDatabase, type Db, type OpenOptions } from './database.js';
import { READ_INDEXES } from './migrations/003-write-optimised.js';
import { buildPageSearchIndexes, dropPageSearchIndexes } from './page-search-index.js';
import type { CrawlState, PageStatus } from './crawl-state.js';
import { PageFacts, plainPage } from './page-facts.js';
import { UrlIndex } from './url-index.js';

export type { CrawlState, PageStatus } from './crawl-state.js';

/** A stored link with its target page (linksFrom). */
export interface PageLink {
  dst: number;
  url: string;
  depth: number;
  redirects: number;
  errorCode: string | null;
  anchor: string | null;
  nofollow: number;
  kind: string;
}

export interface SiteRow {
  id: number;
  host: string;
  ip: string | null;
  pages_known: number;
  pages_fetched: number;
  pages_failed: number;
  bytes: number;
  connections: number;
  requests: number;
  connect_ms: number | null;
  response_ms: number | null;
  requests_per_conn: number | null;
  consecutive_errors: number;
  errors: number;
  crawl_delay_ms: number | null;
  not_before: number | null;
  parked: string | null;
  /** Schemes the site was reached over, as bits: 1 http, 2 https (schema 7). */
  schemes: number;
  /** Its certificate as last found over https: 'ok' or a CRAWL_TLS_ code; null: never reached over https. */
  tls: string | null;
}

export interface NewPage {
  id: number;
  url: string;
  siteId: number;
  depth: number;
  parentId: number | null;
  redirects: number;
  status: PageStatus;
  errorCode?: string | null;
}

export interface FetchRecord {
  status: PageStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number;
  contentHash: string | null;
  duplicateOf: number | null;
  title: string | null;
  noindex: boolean;
  errorCode: string | null;
  attempts: number;
  fetchedAt: number;
  responseMs: number | null;
  /** The validators the server sent (ETag, Last-Modified), for a later conditional recrawl. */
  etag?: string | null;
  lastModified?: string | null;
  /** A 304 to a conditional request: content hash, size, title and links are the history crawl's. */
  notModified?: boolean;
}

export interface NewLink {
  dst: number;
  anchor: string | null;
  nofollow: boolean;
  kind: string;
}

const LINK_ROWS = 32;

export interface FrontierRow {
  page_id: number;
  site_id: number;
  priority: number;
  url: string;
  depth: number;
  redirects: number;
  attempts: number;
}

export interface RobotsRow {
  origin: string;
  site_id: number;
  state: 'rules' | 'allow-all' | 'unavailable';
  http_status: number | null;
  body: string | null;
  fetched_at: number;
  attempts: number;
}

const CRAWL_CACHE_KIB = 64 * 1024;
const CRAWL_WAL_CHECKPOINT_PAGES = 10_000;

/**
 * The crawl database, behind one class with every statement prepared once. Writes happen
 * inside a batch (begin .. commit, about a second of work): if the process dies, at most
 * that batch is lost, and everything in it is consistent with the frontier.
 */
export class CrawlStore {
  readonly db: Db;
  private readonly release: () => void;
  private readonly st: Record<string, Statement>;
  private nextPage: number;
  /** Fingerprints of every page's URL, built on the first findPage (see url-index.ts). */
  private urls: UrlIndex | null = null;
  /** Each page's status, error flag and depth, built with the fingerprints (page-facts.ts). */
  private facts = new PageFacts();
  private nextSite: number;
  private nextSeq: number;
  /** Multi-row link INSERTs by row count, prepared on first use (at most LINK_ROWS of them). */
  private readonly insertLinksBy: Statement[] = [];

  private constructor(readonly path: string, opened: { db: Db; release: () => void }) {
    this.db = opened.db;
    this.release = opened.release;
    const db = this.db;
    this.st = {
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      addCounter: db.prepare(
        'INSERT INTO counters(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value',
      ),
      insertSite: db.prepare('INSERT INTO sites(id, host) VALUES (?, ?)'),
      // Positional, as recordFetch: every commit saves each site touched since the last one.
      saveSite: db.prepare(`UPDATE sites SET ip = ?, pages_known = ?, pages_fetched = ?,
        pages_failed = ?, bytes = ?, connections = ?, requests = ?,
        connect_ms = ?, response_ms = ?, requests_per_conn = ?,
        consecutive_errors = ?, errors = ?, crawl_delay_ms = ?,
        not_before = ?, parked = ?, schemes = ?, tls = ? WHERE id = ?`),
      pageById: db.prepare('SELECT url, status, error_code, depth FROM pages WHERE id = ?').raw(),
      setDepth: db.prepare('UPDATE pages SET depth = ? WHERE id = ?'),
      linksFrom: db.prepare(`SELECT l.dst, p.url, p.depth, p.redirects, p.error_code AS errorCode, l.anchor, l.nofollow, l.kind
        FROM links l JOIN pages p ON p.id = l.dst WHERE l.src = ?`),
      requeue: db.prepare("UPDATE pages SET status = 'queued', error_code = NULL, depth = ? WHERE id = ?"),
      insertPage: db.prepare(`INSERT INTO pages(id, url, site_id, depth, parent_id, redirects, status, error_code)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      pageUrl: db.prepare('SELECT url FROM pages WHERE id = ?').pluck(),
      pageForFetch: db.prepare('SELECT url, depth, redirects, attempts FROM pages WHERE id = ?'),
      // Positional parameters: binding an object by name costs more than the UPDATE's own work here.
      recordFetch: db.prepare(`UPDATE pages SET status = ?, http_status = ?, content_type = ?,
        bytes = ?, content_hash = ?, duplicate_of = ?, title = ?, noindex = ?,
        error_code = ?, attempts = ?, fetch_seq = ?, fetched_at = ?, response_ms = ?,
        etag = ?, last_modified = ?, not_modified = ?
        WHERE id = ?`),
      setPageStatus: db.prepare('UPDATE pages SET status = ?, error_code = ?, attempts = ? WHERE id = ?'),
      setAttempts: db.prepare('UPDATE pages SET attempts = ?, error_code = ? WHERE id = ?'),
      enqueue: db.prepare('INSERT OR REPLACE INTO frontier(page_id, site_id, priority) VALUES (?, ?, ?)'),
      dequeue: db.prepare('DELETE FROM frontier WHERE page_id = ?'),
      setPriority: db.prepare('UPDATE frontier SET priority = ? WHERE page_id = ?'),
      insertLink: db.prepare('INSERT OR IGNORE INTO links(src, dst, anchor, nofollow, kind) VALUES (?, ?, ?, ?, ?)'),
      findHash: db.prepare('SELECT page_id FROM content_hashes WHERE hash = ?').pluck(),
      insertHash: db.prepare('INSERT OR IGNORE INTO content_hashes(hash, page_id) VALUES (?, ?)'),
      getRobots: db.prepare('SELECT * FROM robots WHERE origin = ?'),
      putRobots: db.prepare(`INSERT INTO robots(origin, site_id, state, http_status, body, fetched_at, attempts)
        VALUES (@origin, @site_id, @state, @http_status, @body, @fetched_at, @attempts)
        ON CONFLICT(origin) DO UPDATE SET state = excluded.state, http_status = excluded.http_status,
        body = excluded.body, fetched_at = excluded.fetched_at, attempts = excluded.attempts`),
      insertContent: db.prepare(`INSERT OR REPLACE INTO content(page_id, segment, offset, request_len, response_header_len, body_len, raw)
        VALUES (?, ?, ?, ?, ?, ?, 1)`),
      insertRobotsContent: db.prepare(`INSERT INTO robots_content(site_id, url, after_seq, http_status, fetched_at,
        segment, offset, request_len, response_header_len, body_len) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      event: db.prepare('INSERT INTO events(at, kind, site_id, page_id, code, message) VALUES (?, ?, ?, ?, ?, ?)'),
    };
    this.nextPage = ((db.prepare('SELECT max(id) FROM pages').pluck().get() as number | null) ?? 0) + 1;
    this.nextSite = ((db.prepare('SELECT max(id) FROM sites').pluck().get() as number | null) ?? 0) + 1;
    this.nextSeq = ((db.prepare('SELECT max(fetch_seq) FROM pages').pluck().get() as number | null) ?? 0) + 1;
  }

  /** Creates a new crawl file with these settings; refuses an existing file. */
  static create(path: string, settings: CrawlSettings): CrawlStore {
    const store = new CrawlStore(path, openDatabase(path, { create: true }));
    if (store.getMeta('settings') !== undefined) {
      store.close();
      throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `${path}: already holds a crawl`);
    }
    store.db.transaction(() => {
      store.setMeta('settings', JSON.stringify(settings));
      store.setMeta('state', 'created');
      store.setMeta('created_at', new Date().toISOString());
    })();
    return store;
  }

  static open(path: string, opts: OpenOptions = {}): CrawlStore {
    const store = new CrawlStore(path, openDatabase(path, opts));
    if (store.getMeta('settings') === undefined) {
      store.close();
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: holds no crawl settings (not a crawl database)`);
    }
    return store;
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.release();
  }

  /**
   * Settings for a crawl's writes (the crawler and bench/frontier alike): SQLite's default
   * 2 MB page cache is far smaller than what a crawl's fetches touch at random (each fetched
   * page's row, its frontier row, its links), and the default checkpoint every 1,000 WAL
   * pages rewrites the same hot pages over and over. Together ~10% of the crawl's CPU on
   * bench/throughput (measured with schema 2). Durability is unchanged: every commit is in
   * the WAL.
   */
  tuneForCrawl(): void {
    this.db.pragma(`cache_size = -${CRAWL_CACHE_KIB}`);
    this.db.pragma(`wal_autocheckpoint = ${CRAWL_WAL_CHECKPOINT_PAGES}`);
  }

  /**
   * The indexes for reading a crawl by URL and by link target (schema 3): dropped while a
   * crawl runs, where they cost a random B-tree write per page and per link, and built when
   * it finishes. Before that the page inspector's lookups scan. Each runs in its own
   * transaction; call them outside a batch.
   */
  buildReadIndexes(): void {
    for (const index of READ_INDEXES) this.db.exec(index.sql);
    buildPageSearchIndexes(this.db);
  }
  dropReadIndexes(): void {
    dropPageSearchIndexes(this.db);
    for (const index of READ_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${index.name}`);
  }

  // ---- batches -----------------------------------------------------------------------
  begin(): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
  }
  commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }
  /** Undoes the batch; the in-memory URL index and page facts are rebuilt from the file when next asked. */
  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.urls = null;
    this.facts = new PageFacts();
  }

  // ---- meta, settings, counters ------------------------------------------------------
  getMeta(key: string): string | undefined {
    return this.st.getMeta!.get(key) as string | undefined;
  }
  setMeta(key: string, value: string): void {
    this.st.setMeta!.run(key, value);
  }
  settings(): CrawlSettings {
    return validateSettings(JSON.parse(this.getMeta('settings')!));
  }
  saveSettings(settings: CrawlSettings): void {
    this.setMeta('settings', JSON.stringify(settings));
  }
  state(): CrawlState {
    return (this.getMeta('state') ?? 'created') as CrawlState;
  }
  setState(state: CrawlState): void {
    this.setMeta('state', state);
  }
  addCounter(name: string, n: number): void {
    if (n !== 0) this.st.addCounter!.run(name, n);
  }
  counters(): Record<string, number> {
    const rows = this.db.prepare('SELECT name, value FROM counters').all() as Array<{ name: string; value: number }>;
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  }
  event(kind: string, e: { siteId?: number; pageId?: number; code?: string; message?: string } = {}): void {
    this.st.event!.run(Date.now(), kind, e.siteId ?? null, e.pageId ?? null, e.code ?? null, e.message ?? null);
  }

  // ---- sites -------------------------------------------------------------------------
  loadSites(): SiteRow[] {
    return this.db.prepare('SELECT * FROM sites ORDER BY id').all() as SiteRow[];
  }
  insertSite(host: string): number {
    const id = this.nextSite++;
    this.st.insertSite!.run(id, host);
    return id;
  }
  saveSite(row: SiteRow): void {
    this.st.saveSite!.run(
      row.ip, row.pages_known, row.pages_fetched, row.pages_failed, row.bytes, row.connections, row.requests,
      row.connect_ms, row.response_ms, row.requests_per_conn, row.consecutive_errors, row.errors, row.crawl_delay_ms,
      row.not_before, row.parked, row.schemes, row.tls, row.id,
    );
  }

  // ---- robots ------------------------------------------------------------------------
  getRobots(origin: string): RobotsRow | undefined {
    return this.st.getRobots!.get(origin) as RobotsRow | undefined;
  }
  putRobots(row: RobotsRow): void {
    this.st.putRobots!.run(row);
  }

  // ---- pages and frontier ------------------------------------------------------------
  /**
   * The page with this URL, if any. Answered from memory: a URL never seen costs no query; a
   * known one is answered from its fingerprint and its page facts when they say it is a page
   * not skipped and without an error code (what almost every link meets), else by reading its
   * row by id (the row confirms the URL). Trusting a 64-bit fingerprint confuses two URLs with
   * a probability of about n^2 / 2^65 over a crawl of n URLs (7 in 100,000 at 50 million):
   * the later URL would count as the earlier page (its link pointing there, itself never
   * fetched); the file stays consistent and its URLs unique.
   */
  findPage(url: string): { id: number; status: PageStatus; error_code: string | null; depth: number } | undefined {
    const byId = this.st.pageById!;
    const index = this.urlIndex();
    const facts = this.facts;
    return index.find(url, (id) => {
      const plain = plainPage(facts.get(id));
      if (plain !== undefined) return { id, status: plain.status, error_code: null, depth: plain.depth };
      const row = byId.get(id) as [string, PageStatus, string | null, number] | undefined;
      return row !== undefined && row[0] === url ? { id, status: row[1], error_code: row[2], depth: row[3] } : undefined;
    });
  }
  /** A page found by a shorter path (engine/discovery.ts). */
  setDepth(id: number, depth: number): void {
    this.st.setDepth!.run(depth, id);
    this.facts.setDepth(id, depth);
  }
  /** The pages a page links to, as its links were stored, with what discovery needs to find them again. */
  linksFrom(id: number): PageLink[] {
    return this.st.linksFrom!.all(id) as PageLink[];
  }
  /** Bytes the URL-seen test holds in memory: the fingerprints and the page facts (bench/frontier's accounting). */
  memoryBytes(): { urlIndex: number; pageFacts: number } {
    return { urlIndex: this.urls?.bytes ?? 0, pageFacts: this.facts.bytes };
  }
  private urlIndex(): UrlIndex {
    if (this.urls) return this.urls;
    const count = (this.db.prepare('SELECT count(*) FROM pages').pluck().get() as number) ?? 0;
    const index = new UrlIndex(Math.ceil(count * 1.5) + 1);
    const facts = new PageFacts();
    const rows = this.db.prepare('SELECT id, url, status, error_code IS NOT NULL, depth FROM pages').raw().iterate();
    for (const [id, url, status, hasError, depth] of rows as Iterable<[number, string, PageStatus, number, number]>) {
      index.add(url, id);
      facts.set(id, status, hasError === 1, depth);
    }
    this.facts = facts;
    return (this.urls = index);
  }
  /** A skipped page that a later link made admissible goes back into the frontier. */
  requeuePage(id: number, siteId: number, depth: number, priority: number): void {
    this.st.requeue!.run(depth, id);
    this.st.enqueue!.run(id, siteId, priority);
    this.facts.set(id, 'queued', false, depth);
  }
  /** Adds a discovered page (and, if queued, its frontier entry); returns its id. */
  insertPage(p: Omit<NewPage, 'id'>, priority = 0): number {
    // The table has no UNIQUE index on url (schema 3): the in-memory index keeps URLs unique.
    const id = this.nextPage;
    const pageUrl = this.st.pageUrl!;
    if (!this.urlIndex().addNew(p.url, id, (other) => pageUrl.get(other) === p.url)) {
      throw new CrawlError(ErrorCodes.INTERNAL, `page ${p.url} is already stored`);
    }
    this.nextPage++;
    this.st.insertPage!.run(id, p.url, p.siteId, p.depth, p.parentId, p.redirects, p.status, p.errorCode ?? null);
    if (p.status === 'queued') this.st.enqueue!.run(id, p.siteId, priority);
    this.facts.set(id, p.status, (p.errorCode ?? null) !== null, p.depth);
    return id;
  }
  pageForFetch(id: number): { url: string; depth: number; redirects: number; attempts: number } {
    return this.st.pageForFetch!.get(id) as { url: string; depth: number; redirects: number; attempts: number };
  }
  pageUrl(id: number): string {
    return this.st.pageUrl!.get(id) as string;
  }
  /** Stores a fetch result and removes the page from the frontier, in the current batch. */
  recordFetch(id: number, r: FetchRecord): number {
    const seq = this.nextSeq++;
    this.st.recordFetch!.run(
      r.status, r.httpStatus, r.contentType, r.bytes, r.contentHash, r.duplicateOf, r.title, r.noindex ? 1 : 0,
      r.errorCode, r.attempts, seq, r.fetchedAt, r.responseMs, r.etag ?? null, r.lastModified ?? null, r.notModified ? 1 : 0, id,
    );
    this.st.dequeue!.run(id);
    this.facts.setStatus(id, r.status, r.errorCode !== null);
    return seq;
  }
  /** A page that ends without a fetch (robots, trap found late, parked site, failed for good). */
  finishPage(id: number, status: PageStatus, errorCode: string | null, attempts: number): void {
    this.st.setPageStatus!.run(status, errorCode, attempts, id);
    this.st.dequeue!.run(id);
    this.facts.setStatus(id, status, errorCode !== null);
  }
  /** A failed attempt that will be retried: the page stays in the frontier. */
  recordAttempt(id: number, attempts: number, errorCode: string): void {
    this.st.setAttempts!.run(attempts, errorCode, id);
    this.facts.setHasError(id, true);
  }
  setPriority(id: number, priority: number): void {
    this.st.setPriority!.run(priority, id);
  }
  loadFrontier(): FrontierRow[] {
    return this.db
      .prepare(
        `SELECT f.page_id, f.site_id, f.priority, p.url, p.depth, p.redirects, p.attempts
         FROM frontier f JOIN pages p ON p.id = f.page_id ORDER BY f.page_id`,
      )
      .all() as FrontierRow[];
  }

  // ---- links, duplicates, content ----------------------------------------------------
  insertLink(src: number, dst: number, anchor: string | null, nofollow: boolean, kind: string): void {
    this.st.insertLink!.run(src, dst, anchor, nofollow ? 1 : 0, kind);
  }
  /**
   * The out-links of one page, LINK_ROWS rows per INSERT: saves the per-statement overhead of
   * a row at a time (~15% of link-insert time in bench/throughput; the B-tree work remains).
   */
  insertLinks(src: number, links: readonly NewLink[]): void {
    for (let from = 0; from < links.length; from += LINK_ROWS) {
      const n = Math.min(LINK_ROWS, links.length - from);
      const args: Array<number | string | null> = new Array(n * 5);
      for (let i = 0; i < n; i++) {
        const l = links[from + i]!;
        args[i * 5] = src;
        args[i * 5 + 1] = l.dst;
        args[i * 5 + 2] = l.anchor;
        args[i * 5 + 3] = l.nofollow ? 1 : 0;
        args[i * 5 + 4] = l.kind;
      }
      let st = this.insertLinksBy[n];
      if (!st) {
        const rows = Array.from({ length: n }, () => '(?, ?, ?, ?, ?)').join(', ');
        st = this.insertLinksBy[n] = this.db.prepare(`INSERT OR IGNORE INTO links(src, dst, anchor, nofollow, kind) VALUES ${rows}`);
      }
      st.run(...args);
    }
  }
  findHash(hash: string): number | undefined {
    return this.st.findHash!.get(hash) as number | undefined;
  }
  insertHash(hash: string, pageId: number): void {
    this.st.insertHash!.run(hash, pageId);
  }
  /** Records `pageId` as the first page with this content, unless one is; returns the first. */
  claimHash(hash: string, pageId: number): number {
    if (this.st.insertHash!.run(hash, pageId).changes === 1) return pageId;
    return this.findHash(hash) ?? pageId;
  }
  /** Where a page's capture lies (content-store.ts); its status line and headers are as received (schema 5). */
  insertContent(pageId: number, segment: number, offset: number, reqLen: number, hdrLen: number, bodyLen: number): void {
    this.st.insertContent!.run(pageId, segment, offset, reqLen, hdrLen, bodyLen);
  }
  /**
   * A robots.txt answer's capture, placed after the last page fetch stored so far (its
   * `after_seq`), so that an export can put it among the pages in fetch order.
   */
  insertRobotsContent(
    r: { siteId: number; url: string; httpStatus: number; fetchedAt: number },
    at: { segment: number; offset: number; reqLen: number; hdrLen: number },
    bodyLen: number,
  ): void {
    this.st.insertRobotsContent!.run(r.siteId, r.url, this.nextSeq - 1, r.httpStatus, r.fetchedAt, at.segment, at.offset, at.reqLen, at.hdrLen, bodyLen);
  }

  // ---- summaries ---------------------------------------------------------------------
  /** The crawl's totals as this connection sees them (the same queries as every reader's). */
  totals(): CrawlTotals {
    return CrawlReader.over(this.db).totals();
  }
  /** Errors counted by code, as every reader counts them. */
  errorsByKind(): Record<string, number> {
    return CrawlReader.over(this.db).errorCounts();
  }
}
