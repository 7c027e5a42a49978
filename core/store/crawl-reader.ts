/**
 * The read side of a crawl database: every query that reads the crawl schema lives here or
 * in the store modules this calls, so the schema has one place that knows it (ranking, the
 * simulator, evaluation, the API and the resume replay ask through this class).
 *
 * One snapshot per reader. Opening records the highest fetch sequence number, page id and
 * site id; every later query is bounded by them, so a crawl that is still running reads as
 * it was at that moment, however long the read takes (record-fields.ts says what a page
 * fetched since then looks like). Why not one read transaction for the whole read: a
 * running crawl writes all the time, and a reader that holds a transaction for hours stops
 * its WAL from being checkpointed, so the WAL file grows without end. Every query here is
 * one statement (its own short transaction); streams go in chunks, keyset-paged, and never
 * hold a whole crawl in memory.
 */
import type { Statement } from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { CrawlError, ErrorCodes } from '../errors.js';
import type { CrawlState } from './crawl-state.js';
import { openDatabase, schemaBehind, upgradingError, type Db } from './database.js';
import { linksOfPage } from './crawl-rows.js';
import { completeReadIndexes, readIndexesComplete } from './page-search-index.js';
import { readAllLinks } from './link-ranges.js';
import { scanRanges } from './range-scan.js';
import { pageSelect, siteSelect, type PageField, type PageRecord, type SiteField, type SiteRecord } from './record-fields.js';
import { readTimeline, type TimelineSample } from './timeline.js';
import { sortByUrl } from './url-order.js';

export interface Snapshot {
  /** The highest fetch sequence number at open: fetches stored after it are not seen. */
  fetchSeq: number;
  /** The highest page id at open: pages discovered after it are not seen. */
  pageId: number;
  /** The highest site id at open. */
  siteId: number;
  /** The highest robots.txt capture id at open (robots_content). */
  robotsCaptureId: number;
}

export interface ReaderOptions {
  /** Rows per chunk of a stream (each chunk one short read transaction); default 10,000. */
  chunkRows?: number;
  /** Rows held in memory per sorted run, for URL order without the URL index; default 200,000. */
  sortRunRows?: number;
  /** Where sorted runs spill; default os.tmpdir(). */
  tmpDir?: string;
  /**
   * openMigrated: build the read indexes a finished or stopped crawl is missing (its process
   * was killed while building them). Minutes for a crawl of millions of pages, so only where a
   * read may take that long without holding anyone up: the read worker's reads, not the
   * server's thread.
   */
  repairIndexes?: boolean;
  /**
   * openMigrated: false refuses a file of an earlier schema with CRAWL_DB_UPGRADING instead of
   * bringing it up to date here (which rewrites its links: minutes for millions of pages); the
   * engine's server does that in a process of its own (api/crawl-upgrades.ts).
   */
  upgrade?: boolean;
}

/** Crawl files whose read indexes could not be built (a full disk), and when: tried again after REPAIR_RETRY_MS. */
const repairFailed = new Map<string, number>();
const REPAIR_RETRY_MS = 10 * 60_000;

export interface CrawlCounts {
  pagesFetched: number;
  pagesKnown: number;
  sites: number;
  /** Pages still to fetch (as of the snapshot: a page fetched since counts as queued). */
  queued: number;
}

export interface CrawlTotals extends CrawlCounts {
  links: number;
  bytes: number;
}

export type RunKind = 'page' | 'site';

export interface PageRankRun {
  id: number;
  kind: RunKind;
  damping: number;
  tolerance: number;
  iterations: number;
  nodes: number;
  /** Distinct links (page) or site pairs (site), no self-links. */
  edges: number;
  /** ISO 8601. */
  created_at: string;
}

/** A link as the page inspector lists it: the page at its other end. */
export interface LinkRecord {
  url: string;
  anchor: string | null;
  kind: string;
}

export interface ParkedSite {
  host: string;
  /** The error code that parked it. */
  code: string;
  pagesSkipped: number;
  /** The first skipped pages' URLs, in id order. */
  skipped: string[];
}

/** Where a page's raw capture lies in the content segments (content-store.ts). */
export interface ContentLocation {
  segment: number;
  offset: number;
  requestLength: number;
  headerLength: number;
  bodyLength: number;
  /** 1: status line and headers as received (schema 5 on); 0: rebuilt, lower-cased (older crawls). */
  raw?: number;
}

/** Integer columns of many rows at once; buffers are reused: read before the next chunk. */
export interface IdChunk {
  ids: Float64Array;
  length: number;
}
export interface PageSiteChunk extends IdChunk {
  siteIds: Float64Array;
}
export interface LinkChunk {
  src: Float64Array;
  dst: Float64Array;
  length: number;
}

/** A crawl read through a reader: a reader, or an open connection (read through one over it). */
export type CrawlSource = CrawlReader | Db;

const CHUNK_ROWS = 10_000;
const SORT_RUN_ROWS = 200_000;
const MIN_KEY = Number.MIN_SAFE_INTEGER;

export class CrawlReader {
  readonly snapshot: Snapshot;
  private readonly bounds: { s: number; p: number; site: number; rc: number };
  private readonly statements = new Map<string, Statement>();
  private readonly chunkRows: number;
  private readonly sortRunRows: number;
  private readonly tmpDir: string;
  private siteTotal: number | undefined;

  private constructor(
    private readonly db: Db,
    private readonly release: (() => void) | null,
    opts: ReaderOptions,
  ) {
    this.chunkRows = Math.max(1, Math.floor(opts.chunkRows ?? CHUNK_ROWS));
    this.sortRunRows = opts.sortRunRows ?? SORT_RUN_ROWS;
    this.tmpDir = opts.tmpDir ?? tmpdir();
    // One statement, so the three maxima are of one moment. max(fetch_seq) names the partial
    // index's condition, so that SQLite reads it from pages_fetch_seq (without: a scan, 290 ms at 3M pages).
    const [s, p, site, rc] = this.db
      .prepare('SELECT (SELECT max(fetch_seq) FROM pages WHERE fetch_seq IS NOT NULL), (SELECT max(id) FROM pages), (SELECT max(id) FROM sites), (SELECT max(id) FROM robots_content)')
      .raw()
      .get() as Array<number | null>;
    this.snapshot = Object.freeze({ fetchSeq: s ?? 0, pageId: p ?? 0, siteId: site ?? 0, robotsCaptureId: rc ?? 0 });
    this.bounds = { s: this.snapshot.fetchSeq, p: this.snapshot.pageId, site: this.snapshot.siteId, rc: this.snapshot.robotsCaptureId };
  }

  /**
   * The one read-only opener: refuses what is not a crawl with the store's codes
   * (DB_MISSING, DB_CORRUPT, DB_NOT_A_CRAWL, DB_TOO_NEW), takes no lock, so a running
   * crawl can be read.
   */
  static open(path: string, opts: ReaderOptions = {}): CrawlReader {
    const { db, release } = openDatabase(path, { readonly: true });
    try {
      if (db.prepare("SELECT value FROM meta WHERE key = 'settings'").pluck().get() === undefined) {
        throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: holds no crawl settings (not a crawl database)`);
      }
      return new CrawlReader(db, release, opts);
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * open(), after bringing an older crawl file up to this schema first (a read-only opener
   * cannot migrate): opens it for writing once, which takes the writer's lock, so a crawl
   * running in an older crawlbench is refused (CRAWL_DB_LOCKED) rather than changed under it.
   * A finished or stopped crawl missing read indexes gets them the same way.
   */
  static openMigrated(path: string, opts: ReaderOptions = {}): CrawlReader {
    let reader: CrawlReader;
    try {
      reader = CrawlReader.open(path, opts);
    } catch (err) {
      // Only a crawl made by an earlier schema (1 and up), read off the file's header rather than
      // the refusal's words: an empty or foreign file is left as it is.
      const older = err instanceof CrawlError ? schemaBehind(path) : null;
      if (older === null) throw err;
      if (opts.upgrade === false) throw upgradingError(path, older);
      openDatabase(path).release();
      reader = CrawlReader.open(path, opts);
    }
    if (opts.repairIndexes !== true) return reader;
    const state = reader.state();
    if ((state !== 'finished' && state !== 'stopped') || readIndexesComplete(reader.db)) return reader;
    if (Date.now() - (repairFailed.get(path) ?? -Infinity) < REPAIR_RETRY_MS) return reader;
    // A finished or stopped crawl whose process was killed while building its read indexes
    // (Crawler's end): built here, so that its Pages view has its in-degrees and its lookups
    // their indexes. Best effort: a crawl locked by its process (still building them) or a
    // full disk reads on by scanning.
    reader.close();
    try {
      const { db, release } = openDatabase(path);
      try {
        completeReadIndexes(db);
      } finally {
        release();
      }
      repairFailed.delete(path);
    } catch (err) {
      // Read on without them; a full disk is not tried again at every read (a crawl locked by
      // its process, still building them, is: that process may be killed next).
      if (!(err instanceof CrawlError && err.code === ErrorCodes.DB_LOCKED)) repairFailed.set(path, Date.now());
    }
    return CrawlReader.open(path, opts);
  }

  /** A reader over a connection someone else opened (the writer's: rank, resume); close leaves it open. */
  static over(db: Db, opts: ReaderOptions = {}): CrawlReader {
    return new CrawlReader(db, null, opts);
  }

  static of(source: CrawlSource): CrawlReader {
    return source instanceof CrawlReader ? source : CrawlReader.over(source);
  }

  /** The database file (for a content store or worker threads beside it). */
  get path(): string {
    return this.db.name;
  }

  close(): void {
    this.release?.();
  }

  // ---- meta and totals ---------------------------------------------------------------
  meta(key: string): string | undefined {
    return this.statement('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  }
  state(): CrawlState {
    return (this.meta('state') ?? 'created') as CrawlState;
  }
  counter(name: string): number | undefined {
    return this.statement('SELECT value FROM counters WHERE name = ?').pluck().get(name) as number | undefined;
  }
  /** The crawl's stored error counts by code (the `error:CODE` counters: pages, robots.txt, parked sites). */
  errorCounts(): Record<string, number> {
    const rows = this.statement("SELECT substr(name, 7) AS code, value FROM counters WHERE name LIKE 'error:%'").all() as Array<{ code: string; value: number }>;
    return Object.fromEntries(rows.map((r) => [r.code, r.value]));
  }
  /** Pages a conditional recrawl was told were not modified (304), as of the snapshot. */
  notModifiedCount(): number {
    return this.statement('SELECT count(*) AS n FROM pages WHERE not_modified = 1 AND fetch_seq <= @s').pluck().get(this.bounds) as number;
  }
  /** Counts that the indexes answer without a scan. */
  counts(): CrawlCounts {
    return this.statement(
      `SELECT (SELECT count(*) FROM pages WHERE fetch_seq <= @s) AS pagesFetched,
         (SELECT count(*) FROM pages WHERE id <= @p) AS pagesKnown,
         (SELECT count(*) FROM sites WHERE id <= @site) AS sites,
         (SELECT count(*) FROM frontier WHERE page_id <= @p)
           + (SELECT count(*) FROM pages WHERE fetch_seq > @s AND +id <= @p) AS queued`,
    ).get(this.bounds) as CrawlCounts;
  }
  /** counts() and the links and bytes, which take a scan of the links and the fetched pages. */
  totals(): CrawlTotals {
    const more = this.statement(
      `SELECT (SELECT count(*) FROM links WHERE seq <= @s) AS links,
         (SELECT coalesce(sum(bytes), 0) FROM pages WHERE fetch_seq <= @s) AS bytes`,
    ).get(this.bounds) as { links: number; bytes: number };
    return { ...this.counts(), ...more };
  }
  timeline(maxPoints: number): TimelineSample[] | null {
    return readTimeline(this.db, maxPoints);
  }

  // ---- pages -------------------------------------------------------------------------
  /** Pages known at the snapshot in id order (discovery order); fetchedOnly: fetched by then. */
  pages<K extends PageField>(fields: readonly K[], opts: { fetchedOnly?: boolean } = {}): Generator<Pick<PageRecord, K | 'id'>> {
    const fetched = opts.fetchedOnly ? 'AND fetch_seq <= @s' : '';
    const sql = `SELECT ${pageSelect(withFields(fields, 'id'))} FROM pages
      WHERE id > @after AND id <= @p ${fetched} ORDER BY id LIMIT @limit`;
    return this.keyset<Pick<PageRecord, K | 'id'>>(this.statement(sql), { after: MIN_KEY }, (r) => ({ after: r.id }));
  }
  /** Pages fetched by the snapshot, in the order their results were stored. */
  pagesByFetch<K extends PageField>(fields: readonly K[]): Generator<Pick<PageRecord, K | 'fetchSeq'>> {
    const sql = `SELECT ${pageSelect(withFields(fields, 'fetchSeq'))} FROM pages
      WHERE fetch_seq > @after AND fetch_seq <= @s ORDER BY fetch_seq LIMIT @limit`;
    return this.keyset<Pick<PageRecord, K | 'fetchSeq'>>(this.statement(sql), { after: MIN_KEY }, (r) => ({ after: r.fetchSeq }));
  }
  /**
   * Pages known at the snapshot in URL order (SQLite's binary order). Through the pages_url
   * index where the crawl has it (finished or stopped); a running crawl has none, so its
   * pages are sorted externally in bounded memory (url-order.ts).
   */
  pagesByUrl<K extends PageField>(fields: readonly K[]): Generator<Pick<PageRecord, K | 'id' | 'url'>> {
    const all = withFields(fields, 'id', 'url');
    if (!this.hasIndex('pages_url')) return sortByUrl(this.pages(all), { runRows: this.sortRunRows, tmpDir: this.tmpDir });
    const sql = `SELECT ${pageSelect(all)} FROM pages
      WHERE (url, id) > (@url, @after) AND id <= @p ORDER BY url, id LIMIT @limit`;
    return this.keyset<Pick<PageRecord, K | 'id' | 'url'>>(this.statement(sql), { url: '', after: MIN_KEY }, (r) => ({ url: r.url, after: r.id }));
  }
  page<K extends PageField>(id: number, fields: readonly K[]): Pick<PageRecord, K> | undefined {
    const sql = `SELECT ${pageSelect(fields)} FROM pages WHERE id = @id AND id <= @p`;
    return this.statement(sql).get({ ...this.bounds, id }) as Pick<PageRecord, K> | undefined;
  }
  /** A page by its exact URL: through pages_url when the crawl has it, else by a scan. */
  pageByUrl<K extends PageField>(url: string, fields: readonly K[]): Pick<PageRecord, K> | undefined {
    const sql = `SELECT ${pageSelect(fields)} FROM pages WHERE url = @url AND id <= @p LIMIT 1`;
    return this.statement(sql).get({ ...this.bounds, url }) as Pick<PageRecord, K> | undefined;
  }
  pageCount(opts: { fetchedOnly?: boolean } = {}): number {
    const fetched = opts.fetchedOnly ? 'AND fetch_seq <= @s' : '';
    return this.statement(`SELECT count(*) FROM pages WHERE id <= @p ${fetched}`).pluck().get(this.bounds) as number;
  }
  /** The last fetches that ended in an error, newest first (walks the fetch_seq index backwards). */
  recentErrors(limit: number): Array<{ url: string; errorCode: string; httpStatus: number | null }> {
    return this.statement(
      `SELECT url, error_code AS errorCode, http_status AS httpStatus FROM pages
       WHERE fetch_seq <= @s AND error_code IS NOT NULL ORDER BY fetch_seq DESC LIMIT @limit`,
    ).all({ ...this.bounds, limit }) as Array<{ url: string; errorCode: string; httpStatus: number | null }>;
  }

  // ---- sites -------------------------------------------------------------------------
  /** Sites known at the snapshot, in id order. Their counters are as stored now (sites carry no sequence). */
  sites<K extends SiteField>(fields: readonly K[]): Generator<Pick<SiteRecord, K | 'id'>> {
    const sql = `SELECT ${siteSelect(withFields(fields, 'id'))} FROM sites
      WHERE id > @after AND id <= @site ORDER BY id LIMIT @limit`;
    return this.keyset<Pick<SiteRecord, K | 'id'>>(this.statement(sql), { after: MIN_KEY }, (r) => ({ after: r.id }));
  }
  /**
   * Sites as of the snapshot: counted once per reader (a Sites page asks up to three times).
   * +id: not a range of the table to read (the bound holds every site of a finished crawl) but
   * a test on the smallest index's entries: a third to a tenth of the pages (sites.host's, or
   * a sort index of a finished crawl, 011-site-sorts.ts).
   */
  siteCount(): number {
    return (this.siteTotal ??= this.statement('SELECT count(*) FROM sites WHERE +id <= @site').pluck().get(this.bounds) as number);
  }
  /**
   * Parked sites (by host, at most 1,000) with their skipped pages. One pass over the pages
   * in id chunks (pages has no site index while a crawl runs).
   */
  parkedSites(skippedPerSite: number): ParkedSite[] {
    const sites = this.statement('SELECT id, host, parked FROM sites WHERE parked IS NOT NULL AND id <= @site ORDER BY host LIMIT 1000').all(
      this.bounds,
    ) as Array<{ id: number; host: string; parked: string }>;
    if (sites.length === 0) return [];
    const byId = new Map(sites.map((s) => [s.id, { host: s.host, code: s.parked, pagesSkipped: 0, skipped: [] as string[] }]));
    const skipped = this.statement(`SELECT id, site_id AS siteId, url FROM pages
      WHERE id > @after AND id <= @p AND status = 'skipped' AND site_id IN (SELECT id FROM sites WHERE parked IS NOT NULL)
      ORDER BY id LIMIT @limit`);
    for (const r of this.keyset(skipped, { after: MIN_KEY }, (r: { id: number }) => ({ after: r.id })) as Iterable<{ siteId: number; url: string }>) {
      const site = byId.get(r.siteId);
      if (!site) continue;
      site.pagesSkipped++;
      if (site.skipped.length < skippedPerSite) site.skipped.push(r.url);
    }
    return [...byId.values()];
  }

  // ---- links -------------------------------------------------------------------------
  /** Target page ids of a page's links (none if it was fetched after the snapshot). */
  outLinks(src: number): number[] {
    return this.statement(`SELECT dst FROM links l WHERE ${linksOfPage('l', '@src')} AND ${NOT_LATE}`).pluck().all({ ...this.bounds, src }) as number[];
  }
  linkAnchor(src: number, dst: number): string | null {
    const sql = `SELECT anchor FROM links l WHERE ${linksOfPage('l', '@src')} AND l.dst = @dst AND ${NOT_LATE}`;
    return (this.statement(sql).pluck().get({ ...this.bounds, src, dst }) as string | null | undefined) ?? null;
  }
  /** The first `limit` links of a page, with their targets' URLs. */
  linksFrom(id: number, limit: number): LinkRecord[] {
    const sql = `SELECT p.url, l.anchor, l.kind FROM links l JOIN pages p ON p.id = l.dst
      WHERE ${linksOfPage('l', '@src')} AND p.id <= @p AND ${NOT_LATE} LIMIT @limit`;
    return this.statement(sql).all({ ...this.bounds, src: id, limit }) as LinkRecord[];
  }
  /** The first `limit` links to a page, with their sources' URLs (a scan before links_dst exists). */
  linksTo(id: number, limit: number): LinkRecord[] {
    const sql = `SELECT p.url, l.anchor, l.kind FROM links l JOIN pages p ON p.id = l.src
      WHERE l.dst = @dst AND ${NOT_LATE} LIMIT @limit`;
    return this.statement(sql).all({ ...this.bounds, dst: id, limit }) as LinkRecord[];
  }

  // ---- bulk integer streams for graph loading (range-scan.ts, link-ranges.ts) --------
  *pageIdChunks(opts: { fetchedOnly?: boolean } = {}): Generator<IdChunk> {
    const where = opts.fetchedOnly ? 'id <= @p AND fetch_seq <= @s' : 'id <= @p';
    for (const c of scanRanges(this.db, { table: 'pages', columns: ['id'], where, params: this.bounds })) {
      yield { ids: c.cols[0]!, length: c.length };
    }
  }
  *pageSiteChunks(): Generator<PageSiteChunk> {
    for (const c of scanRanges(this.db, { table: 'pages', columns: ['id', 'site_id'], where: 'id <= @p', params: this.bounds })) {
      yield { ids: c.cols[0]!, siteIds: c.cols[1]!, length: c.length };
    }
  }
  /**
   * Every link as of the snapshot as src[i] -> dst[i], in the table's order (schema 12): by
   * the fetch that stored them, so grouped by source page but not in source order, and a
   * source's targets ascending.
   */
  *linkChunks(): Generator<LinkChunk> {
    const scan = { table: 'links', columns: ['seq', 'src', 'dst'], where: 'seq <= @s AND src <= @p', params: this.bounds, keyHidden: true } as const;
    for (const c of scanRanges(this.db, scan)) yield { src: c.cols[0]!, dst: c.cols[1]!, length: c.length };
  }
  /** The CSR targets of every link between known pages (link-ranges.ts), read on threads for large crawls, and how many read them. */
  readLinkTargets(pageIds: Int32Array, table: Int32Array, outdeg: Uint32Array, threads?: number): { targets: Uint32Array; threads: number } {
    return readAllLinks(this.db, pageIds, table, outdeg, this.snapshot.fetchSeq, threads);
  }

  // ---- PageRank runs -------------------------------------------------------------------
  /** The latest run of a kind (optionally with this damping), or undefined. */
  latestRun(kind: RunKind, damping?: number): PageRankRun | undefined {
    const rows = this.statement('SELECT * FROM pagerank_runs WHERE kind = ? ORDER BY id DESC').all(kind) as PageRankRun[];
    return rows.find((r) => damping === undefined || Math.abs(r.damping - damping) < 1e-12);
  }
  /**
   * The latest run, if it still describes the crawl: same number of nodes, and created after
   * the last fetch (a resumed crawl adds links without always adding pages). The time test
   * assumes fetched_at and created_at share a clock; a simulated clock far in the future
   * only costs a recomputation.
   */
  latestFreshRun(kind: RunKind, damping?: number): PageRankRun | undefined {
    const run = this.latestRun(kind, damping);
    if (!run) return undefined;
    if ((kind === 'page' ? this.pageCount() : this.siteCount()) !== run.nodes) return undefined;
    const lastFetch = this.statement('SELECT fetched_at FROM pages WHERE fetch_seq = @s').pluck().get(this.bounds) as number | null | undefined;
    if (lastFetch != null && lastFetch > Date.parse(run.created_at)) return undefined;
    return run;
  }
  /** [page id, value] of a page run, in page id order. */
  pageRunValues(runId: number): Generator<[number, number]> {
    const sql = 'SELECT page_id, value FROM pagerank WHERE run_id = @run AND page_id > @after ORDER BY page_id LIMIT @limit';
    return this.keyset(this.statement(sql, true), { run: runId, after: MIN_KEY }, (r: [number, number]) => ({ run: runId, after: r[0] }));
  }
  /** [canonical URL, value] of a page run, in page id order. */
  *pageRunByUrl(runId: number): Generator<[string, number]> {
    const sql = `SELECT r.page_id, p.url, r.value FROM pagerank r JOIN pages p ON p.id = r.page_id
      WHERE r.run_id = @run AND r.page_id > @after ORDER BY r.page_id LIMIT @limit`;
    const rows = this.keyset(this.statement(sql, true), { run: runId, after: MIN_KEY }, (r: [number, string, number]) => ({ run: runId, after: r[0] }));
    for (const [, url, value] of rows) yield [url, value];
  }
  /** The top k of a run with their URL (pages) or host (sites). */
  topOfRun(run: Pick<PageRankRun, 'id' | 'kind'>, k: number): Array<{ id: number; name: string; value: number }> {
    const sql =
      run.kind === 'page'
        ? 'SELECT r.page_id AS id, p.url AS name, r.value FROM pagerank r JOIN pages p ON p.id = r.page_id WHERE r.run_id = ? ORDER BY r.value DESC, r.page_id LIMIT ?'
        : 'SELECT r.site_id AS id, s.host AS name, r.value FROM site_pagerank r JOIN sites s ON s.id = r.site_id WHERE r.run_id = ? ORDER BY r.value DESC, r.site_id LIMIT ?';
    return this.statement(sql).all(run.id, k) as Array<{ id: number; name: string; value: number }>;
  }

  // ---- stored content ------------------------------------------------------------------
  /** Whether any capture is stored (a crawl made with --store-content that captured a page). */
  hasContent(): boolean {
    return this.statement('SELECT 1 AS one FROM content LIMIT 1').get() !== undefined;
  }

  /** Where a page's raw capture is stored, if it was fetched by the snapshot and captured. */
  contentLocation(pageId: number): ContentLocation | undefined {
    return this.statement(
      `SELECT c.segment, c.offset, c.request_len AS requestLength, c.response_header_len AS headerLength, c.body_len AS bodyLength, c.raw
       FROM content c JOIN pages p ON p.id = c.page_id WHERE c.page_id = @id AND p.fetch_seq <= @s`,
    ).get({ ...this.bounds, id: pageId }) as ContentLocation | undefined;
  }

  // ---- for the store's own query modules (export-reader.ts) -----------------------------
  /** A statement prepared once per reader; its parameters may use the snapshot's @s, @p, @site, @rc. */
  prepared(sql: string, raw = false): Statement {
    return this.statement(sql, raw);
  }
  /** The snapshot's bounds as SQL parameters. */
  get params(): Readonly<{ s: number; p: number; site: number; rc: number }> {
    return this.bounds;
  }
  /** A keyset-paged stream of a statement (see keyset below). */
  stream<T>(sql: string, first: Record<string, unknown>, next: (last: T) => Record<string, unknown>, raw = false): Generator<T> {
    return this.keyset(this.statement(sql, raw), first, next);
  }

  // ---- internals -----------------------------------------------------------------------
  private hasIndex(name: string): boolean {
    return this.statement("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(name) === 1;
  }

  /** Each SQL text prepared once per reader (raw: rows as arrays). */
  private statement(sql: string, raw = false): Statement {
    const key = raw ? `raw:${sql}` : sql;
    let st = this.statements.get(key);
    if (!st) this.statements.set(key, (st = raw ? this.db.prepare(sql).raw() : this.db.prepare(sql)));
    return st;
  }

  /**
   * A stream in chunks of chunkRows, each chunk one statement (one short read transaction),
   * the next starting after the last row of the one before (keyset paging: no OFFSET scan).
   */
  private *keyset<T>(st: Statement, first: Record<string, unknown>, next: (last: T) => Record<string, unknown>): Generator<T> {
    let cursor = first;
    for (;;) {
      const rows = st.all({ ...this.bounds, ...cursor, limit: this.chunkRows }) as T[];
      yield* rows;
      if (rows.length < this.chunkRows) return;
      cursor = next(rows[rows.length - 1]!);
    }
  }
}

/** A link (alias l) stored by the snapshot: its source fetched by then, or stored without a fetch (schema 12). */
const NOT_LATE = 'l.seq <= @s';

function withFields<K extends string, E extends string>(fields: readonly K[], ...extra: E[]): Array<K | E> {
  const out: Array<K | E> = [...fields];
  for (const e of extra) if (!out.includes(e)) out.push(e);
  return out;
}

/** Opens a reader, runs fn, closes it (also when fn throws). */
/**
 * withCrawlReader, bringing a crawl file of an older schema up to date first (openMigrated):
 * for the workbench, which lists a workspace's older crawls beside new ones.
 */
export function withMigratedCrawlReader<T>(path: string, fn: (reader: CrawlReader) => T, opts: ReaderOptions = {}): T {
  const reader = CrawlReader.openMigrated(path, opts);
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}

export function withCrawlReader<T>(path: string, fn: (reader: CrawlReader) => T, opts: ReaderOptions = {}): T {
  const reader = CrawlReader.open(path, opts);
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}
