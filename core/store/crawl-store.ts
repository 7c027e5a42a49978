import type { Statement } from 'better-sqlite3';
import { CrawlError, ErrorCodes, isDiskFull } from '../errors.js';
import type { CrawlSettings } from '../config/settings.js';
import { validateSettings } from '../config/settings.js';
import { CrawlReader, type CrawlTotals } from './crawl-reader.js';
import { openDatabase, type Db, type OpenOptions } from './database.js';
import { READ_INDEXES } from './migrations/003-write-optimised.js';
import { buildReadIndexes, completeReadIndexes, dropPageSearchIndexes } from './page-search-index.js';
import type { CrawlState, PageStatus } from './crawl-state.js';
import { LINK_ROWS, ROWS_WRITES, WRITE_SQL, linksOfPage, type FetchRecord, type FrontierRow, type NewLink, type NewPage, type PageLink, type PageState, type RobotsRow, type SiteRow } from './crawl-rows.js';
import { ContentClaims } from './content-claims.js';
import { PageFacts, plainPage } from './page-facts.js';
import { PendingLinks, PendingPages, type PendingPage } from './pending-writes.js';
import { multiRowSql, rowsShape } from './row-groups.js';
import type { StoreWriter } from './store-writer.js';
import { StoreWrites } from './store-writes.js';
import type { PendingRows } from './pending-rows.js';
import { UrlIndex } from './url-index.js';
import type { SqlValue } from './write-log.js';

export type { CrawlState, PageStatus } from './crawl-state.js';
export type { FetchRecord, FrontierRow, NewLink, NewPage, PageLink, RobotsRow, SiteRow } from './crawl-rows.js';

const CRAWL_CACHE_KIB = 64 * 1024;
/**
 * WAL pages between checkpoints (200 MB): a crawl's commit a second writes tens of thousands of
 * pages scattered over its tables, so at 10,000 every commit ended in a checkpoint that wrote
 * them all into the file again; at 50,000 a page written by several commits in between is
 * checkpointed once. bench/frontier 5M --writer: 14.7 GB written against 17.4 GB (-15%), and
 * 44,229 / 46,667 URLs/s against 43,911 / 38,708 (2 pairs; docs/performance.md). The WAL file
 * grows to about 200-300 MB; a crawl killed mid-way replays it when it opens.
 */
const CRAWL_WAL_CHECKPOINT_PAGES = 50_000;
/** The crawl thread's connection while a writer thread writes: it only reads (attachWriter). */
const READER_CACHE_KIB = 4 * 1024;

/**
 * The crawl database, behind one class with every statement prepared once. Writes happen
 * inside a batch (begin .. commit, about a second of work): if the process dies, at most
 * the batches not yet committed are lost, and everything committed is consistent with the
 * frontier.
 *
 * While a crawl runs, its writes go to a writer thread (attachWriter, store-writer.ts) and
 * this connection only reads, seeing committed batches; what the crawl reads back of its
 * own newer writes is kept in memory until they commit (pending-writes.ts).
 */
export class CrawlStore {
  readonly db: Db;
  private readonly release: () => void;
  private readonly st: Record<string, Statement>;
  /** Where writes go (this connection, or the writer thread), and their statement numbers. */
  readonly writes: StoreWrites;
  private readonly w: { [K in keyof typeof WRITE_SQL]: number };
  /** While a writer thread takes the writes, what the crawl reads back of them until they commit (pending-rows.ts). */
  private readonly pendingPages: PendingPages;
  private readonly pendingLinks: PendingLinks;
  private readonly pendingHashes: PendingRows<string, number>;
  private readonly pendingRobots: PendingRows<string, RobotsRow>;
  private nextPage: number;
  /** Fingerprints of every page's URL, built on the first findPage (see url-index.ts). */
  private urls: UrlIndex | null = null;
  /** The content hashes claimed and by which page, read from the file on the first claimHash (content-claims.ts). */
  private claims: ContentClaims | null = null;
  /** Each page's status, error flag and depth, built with the fingerprints (page-facts.ts). */
  private facts = new PageFacts();
  private nextSite: number;
  private nextSeq: number;
  /** The page whose fetch was recorded last, and its fetch_seq: its links come next (linkSeq). */
  private lastFetchId = -1;
  private lastFetchSeq = 0;
  /** Multi-row link INSERTs by row count (statement numbers, at most LINK_ROWS of them). */
  private readonly insertLinksBy: number[] = [];

  private constructor(readonly path: string, opened: { db: Db; release: () => void }) {
    this.db = opened.db;
    this.release = opened.release;
    const db = this.db;
    this.writes = new StoreWrites(db);
    this.w = Object.fromEntries(
      Object.entries(WRITE_SQL).map(([k, sql]) => [k, ROWS_WRITES.has(k as keyof typeof WRITE_SQL) ? this.writes.rowsStatement(sql) : this.writes.statement(sql)]),
    ) as CrawlStore['w'];
    this.pendingPages = new PendingPages(this.writes.pendingRows());
    this.pendingLinks = this.writes.track(new PendingLinks());
    this.pendingHashes = this.writes.pendingRows();
    this.pendingRobots = this.writes.pendingRows();
    this.st = {
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      pageState: db.prepare('SELECT url, redirects, depth, status, error_code, attempts FROM pages WHERE id = ?').raw(),
      linkTargets: db.prepare(`SELECT l.dst, l.anchor, l.nofollow, l.kind FROM links l WHERE ${linksOfPage('l', '@src')}`).raw(),
      fetchSeq: db.prepare('SELECT fetch_seq FROM pages WHERE id = ?').pluck(),
      pageUrl: db.prepare('SELECT url FROM pages WHERE id = ?').pluck(),
      pageHash: db.prepare('SELECT content_hash FROM pages WHERE id = ?').pluck(),
      getRobots: db.prepare('SELECT * FROM robots WHERE origin = ?'),
    };
    this.nextPage = ((db.prepare('SELECT max(id) FROM pages').pluck().get() as number | null) ?? 0) + 1;
    this.nextSite = ((db.prepare('SELECT max(id) FROM sites').pluck().get() as number | null) ?? 0) + 1;
    this.nextSeq = ((db.prepare('SELECT max(fetch_seq) FROM pages').pluck().get() as number | null) ?? 0) + 1;
  }

  private run(stmt: number, args: readonly SqlValue[]): void {
    this.writes.run(stmt, args);
  }
  /** True while a writer thread takes the writes. */
  private get behind(): boolean {
    return this.writes.writer !== null;
  }
  /** A page's pending entry, for a write now. */
  private pendingPage(id: number): PendingPage {
    return this.pendingPages.written(id, this.writes.batch);
  }

  /** Creates a new crawl file with these settings; refuses an existing file. */
  static create(path: string, settings: CrawlSettings): CrawlStore {
    const store = CrawlStore.over(path, openDatabase(path, { create: true }));
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
    const store = CrawlStore.over(path, openDatabase(path, opts));
    let settings: string | undefined;
    try {
      settings = store.getMeta('settings');
    } catch (err) {
      store.release();
      throw err;
    }
    if (settings === undefined) {
      store.close();
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: holds no crawl settings (not a crawl database)`);
    }
    return store;
  }

  /**
   * The store on a file just opened, its lock given back if the store cannot be made (a file
   * damaged past its header fails as its statements are prepared): before, the lock stayed,
   * naming the server's process, and every later start was refused as locked until it ended.
   */
  private static over(path: string, opened: { db: Db; release: () => void }): CrawlStore {
    try {
      return new CrawlStore(path, opened);
    } catch (err) {
      opened.release();
      throw err;
    }
  }

  /** Releases the file. A writer still attached is ended as a crash would end it: its open batch is not committed. */
  close(): void {
    const writer = this.writes.writer;
    if (writer) {
      this.detachWriter();
      writer.terminate();
    }
    try {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } catch (err) {
      // A full disk (the run paused for it, or fills it now): what was not committed is given
      // up, as the crawl's disk-full end gives it up, and the file resumes from its last commit.
      // Before, the failed COMMIT threw out of close() and left the file's lock held.
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // Closing the connection below gives the batch up all the same.
      }
      if (!isDiskFull(err)) {
        this.release();
        throw err;
      }
    }
    this.release();
  }

  /**
   * Settings for a crawl's writes (the crawler and bench/frontier alike): SQLite's default
   * 2 MB page cache is far smaller than what a crawl's fetches touch at random (each fetched
   * page's row, its frontier row, its links), and the default checkpoint every 1,000 WAL
   * pages rewrites the same hot pages over and over (now every 50,000:
   * CRAWL_WAL_CHECKPOINT_PAGES). Together ~10% of the crawl's CPU on bench/throughput (measured
   * with schema 2). A killed process loses nothing committed: every
   * commit is in the WAL. A power loss or an OS crash can take back the commits since the last
   * checkpoint (synchronous = NORMAL syncs the WAL at checkpoints), about 50,000 pages of
   * them; the file stays consistent and the crawl resumes from it. A writer thread's
   * connection gets the same (writerPragmas).
   */
  tuneForCrawl(): void {
    for (const p of CrawlStore.writerPragmas()) this.db.pragma(p);
  }
  static writerPragmas(): string[] {
    return [`cache_size = -${CRAWL_CACHE_KIB}`, `wal_autocheckpoint = ${CRAWL_WAL_CHECKPOINT_PAGES}`];
  }

  /**
   * The indexes for reading a crawl by URL and by link target (schema 3): dropped while a
   * crawl runs, where they cost a random B-tree write per page and per link, and built when
   * it finishes. Before that the page inspector's lookups scan. Each runs in its own
   * transaction; call them outside a batch.
   */
  buildReadIndexes(): void {
    buildReadIndexes(this.db);
  }
  /**
   * A finished or stopped crawl's read indexes, built if its end-of-run build never completed
   * (a kill after the state's commit, page-search-index.ts completeReadIndexes).
   */
  completeReadIndexes(): boolean {
    return completeReadIndexes(this.db);
  }
  dropReadIndexes(): void {
    dropPageSearchIndexes(this.db);
    for (const index of READ_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${index.name}`);
  }

  // ---- batches -----------------------------------------------------------------------
  /**
   * From now on the writes go to `writer` (a thread with its own connection), and this
   * connection reads; call outside a batch. What the crawl reads back of writes not yet
   * committed is kept until they are (pending-writes.ts).
   */
  attachWriter(writer: StoreWriter): void {
    this.commit();
    // This connection's page cache is dropped whenever another connection commits (SQLite's
    // WAL mode), so once a second here: a large one would only hold memory.
    this.db.pragma(`cache_size = -${READER_CACHE_KIB}`);
    this.writes.use(writer);
  }
  /** Writes run on this connection again; call once the writer has committed (or given up) every batch. */
  detachWriter(): void {
    this.db.pragma(`cache_size = -${CRAWL_CACHE_KIB}`);
    this.writes.use(null);
  }

  begin(): void {
    if (!this.writes.writer && !this.db.inTransaction) this.db.exec('BEGIN');
  }
  /** Commits the batch (with a writer: hands it over, and returns the number it will commit as). */
  commit(): number {
    const writer = this.writes.writer;
    if (writer) return writer.seal();
    if (this.db.inTransaction) this.db.exec('COMMIT');
    return 0;
  }
  /**
   * Undoes the batch; the in-memory URL index and page facts are rebuilt from the file when
   * next asked. With a writer: the open batch is given up, and so is every batch after a
   * failed one; call it once the writer has no batch under way (drain), so that the file
   * is the truth again.
   */
  rollback(): void {
    const writer = this.writes.writer;
    if (writer) {
      if (writer.failed) writer.reset();
      else writer.discard();
      this.writes.clearPending();
    } else if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.urls = null;
    this.claims = null;
    this.facts = new PageFacts();
    this.lastFetchId = -1;
  }

  // ---- meta, settings, counters ------------------------------------------------------
  /** A meta value as committed (with a writer, a value set in a batch not yet committed reads as before). */
  getMeta(key: string): string | undefined {
    return this.st.getMeta!.get(key) as string | undefined;
  }
  setMeta(key: string, value: string): void {
    this.run(this.w.setMeta, [key, value]);
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
    if (n !== 0) this.run(this.w.addCounter, [name, n]);
  }
  counters(): Record<string, number> {
    const rows = this.db.prepare('SELECT name, value FROM counters').all() as Array<{ name: string; value: number }>;
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  }
  event(kind: string, e: { siteId?: number; pageId?: number; code?: string; message?: string } = {}): void {
    this.run(this.w.event, [Date.now(), kind, e.siteId ?? null, e.pageId ?? null, e.code ?? null, e.message ?? null]);
  }

  // ---- sites -------------------------------------------------------------------------
  loadSites(): SiteRow[] {
    return this.db.prepare('SELECT * FROM sites ORDER BY id').all() as SiteRow[];
  }
  insertSite(host: string): number {
    const id = this.nextSite++;
    this.run(this.w.insertSite, [id, host]);
    return id;
  }
  saveSite(row: SiteRow): void {
    this.run(this.w.saveSite, [
      row.ip, row.pages_known, row.pages_fetched, row.pages_failed, row.bytes, row.connections, row.requests,
      row.connect_ms, row.response_ms, row.requests_per_conn, row.consecutive_errors, row.errors, row.crawl_delay_ms,
      row.not_before, row.parked, row.schemes, row.tls, row.id,
    ]);
  }

  // ---- robots ------------------------------------------------------------------------
  getRobots(origin: string): RobotsRow | undefined {
    const pending = this.pendingRobots.get(origin);
    if (pending) return { ...pending };
    return this.st.getRobots!.get(origin) as RobotsRow | undefined;
  }
  putRobots(row: RobotsRow): void {
    this.run(this.w.putRobots, [row.origin, row.site_id, row.state, row.http_status, row.body, row.fetched_at, row.attempts]);
    if (this.behind) this.pendingRobots.set(row.origin, { ...row }, this.writes.batch);
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
    const index = this.urlIndex();
    const facts = this.facts;
    return index.find(url, (id) => {
      const plain = plainPage(facts.get(id));
      if (plain !== undefined) return { id, status: plain.status, error_code: null, depth: plain.depth };
      const row = this.pageState(id);
      return row !== undefined && row.url === url ? { id, status: row.status, error_code: row.errorCode, depth: row.depth } : undefined;
    });
  }
  /** A page found by a shorter path (engine/discovery.ts). */
  setDepth(id: number, depth: number): void {
    this.run(this.w.setDepth, [depth, id]);
    this.facts.setDepth(id, depth);
    if (this.behind) this.pendingPage(id).depth = depth;
  }
  /**
   * The links of page `id` whose targets a shorter path to it lowers: those stored deeper than
   * `childDepth(kind)`, the depth the link now gives its target (discovery's rule), with what
   * discovery needs to find them again. A target's depth comes from the page facts
   * in memory where they hold it, so only the targets to lower have their rows read (the
   * links joined with every target's row were 13% of bench/frontier's crawl thread at 1M URLs,
   * where links go anywhere and shorter paths are many). The file's links as stored, then those
   * of batches not yet committed to targets not listed already.
   */
  linksToLower(id: number, childDepth: (kind: string) => number): PageLink[] {
    const out: PageLink[] = [];
    const seen = this.behind ? new Set<number>() : null;
    const take = (dst: number, anchor: string | null, nofollow: number, kind: string, pending: boolean) => {
      // A target of the file's links can come twice (a page that is also a sitemap: its two
      // keys), and each of those rows counts; a link not yet committed to a target already
      // listed is passed over.
      if (seen !== null) {
        if (pending && seen.has(dst)) return;
        seen.add(dst);
      }
      const to = childDepth(kind);
      const known = this.facts.depth(dst);
      if (known !== undefined && known <= to) return;
      const p = this.pageState(dst);
      if (p === undefined || p.depth <= to) return;
      out.push({ dst, url: p.url, depth: p.depth, redirects: p.redirects, errorCode: p.errorCode, anchor, nofollow, kind });
    };
    for (const [dst, anchor, nofollow, kind] of this.st.linkTargets!.iterate({ src: id }) as Iterable<[number, string | null, number, string]>) {
      take(dst, anchor, nofollow, kind, false);
    }
    if (seen !== null) for (const l of this.pendingLinks.get(id)) take(l.dst, l.anchor, l.nofollow ? 1 : 0, l.kind, true);
    return out;
  }
  /** Links written elsewhere (a sitemap's page, sitemap-store.ts), for linksToLower to read back before they commit. */
  notePendingLinks(src: number, links: readonly NewLink[]): void {
    if (this.behind && links.length > 0) this.pendingLinks.set(src, links, this.writes.batch);
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
  /**
   * A page's row as the crawl last wrote it: from memory for fields written in batches not yet
   * committed, else from the file (which holds every committed batch).
   */
  private pageState(id: number): PageState | undefined {
    return this.pendingPages.state(id, this.readPageState);
  }
  private readonly readPageState = (id: number): PageState | undefined => {
    const row = this.st.pageState!.get(id) as [string, number, number, PageStatus, string | null, number] | undefined;
    return row === undefined ? undefined : { url: row[0], redirects: row[1], depth: row[2], status: row[3], errorCode: row[4], attempts: row[5] };
  };
  /** A skipped page that a later link made admissible goes back into the frontier. */
  requeuePage(id: number, siteId: number, depth: number, priority: number): void {
    this.run(this.w.requeue, [depth, id]);
    this.run(this.w.enqueue, [id, siteId, priority]);
    this.facts.set(id, 'queued', false, depth);
    if (this.behind) {
      const p = this.pendingPage(id);
      p.status = 'queued';
      p.errorCode = null;
      p.depth = depth;
    }
  }
  /** The id the next insertPage gives its page. */
  get nextPageId(): number {
    return this.nextPage;
  }
  /** Adds a discovered page (and, if queued, its frontier entry); returns its id. */
  insertPage(p: Omit<NewPage, 'id'>, priority = 0): number {
    // The table has no UNIQUE index on url (schema 3): the in-memory index keeps URLs unique.
    const id = this.nextPage;
    if (!this.urlIndex().addNew(p.url, id, (other) => this.pageUrl(other) === p.url)) {
      throw new CrawlError(ErrorCodes.INTERNAL, `page ${p.url} is already stored`);
    }
    this.nextPage++;
    const errorCode = p.errorCode ?? null;
    this.run(this.w.insertPage, [id, p.url, p.siteId, p.depth, p.parentId, p.redirects, p.status, errorCode]);
    if (p.status === 'queued') this.run(this.w.enqueue, [id, p.siteId, priority]);
    this.facts.set(id, p.status, errorCode !== null, p.depth);
    if (this.behind) {
      const e = this.pendingPage(id);
      e.url = p.url;
      e.redirects = p.redirects;
      e.depth = p.depth;
      e.status = p.status;
      e.errorCode = errorCode;
      e.attempts = 0;
    }
    return id;
  }
  pageForFetch(id: number): { url: string; depth: number; redirects: number; attempts: number } {
    return this.pageState(id)!;
  }
  pageUrl(id: number): string {
    const url = this.pendingPages.get(id)?.url;
    return url ?? (this.st.pageUrl!.get(id) as string);
  }
  /** Stores a fetch result and removes the page from the frontier, in the current batch. */
  recordFetch(id: number, r: FetchRecord): number {
    const seq = this.nextSeq++;
    this.run(this.w.recordFetch, [
      r.status, r.httpStatus, r.contentType, r.bytes, r.contentHash, r.duplicateOf, r.title, r.noindex ? 1 : 0,
      r.errorCode, r.attempts, seq, r.fetchedAt, r.responseMs, r.etag ?? null, r.lastModified ?? null, r.notModified ? 1 : 0, id,
    ]);
    this.run(this.w.dequeue, [id]);
    this.facts.setStatus(id, r.status, r.errorCode !== null);
    this.lastFetchId = id;
    this.lastFetchSeq = seq;
    if (this.behind) {
      this.changed(id, r.status, r.errorCode, r.attempts);
      this.pendingPage(id).seq = seq;
    }
    return seq;
  }
  /** A page that ends without a fetch (robots, trap found late, parked site, failed for good). */
  finishPage(id: number, status: PageStatus, errorCode: string | null, attempts: number): void {
    this.run(this.w.setPageStatus, [status, errorCode, attempts, id]);
    this.run(this.w.dequeue, [id]);
    this.facts.setStatus(id, status, errorCode !== null);
    if (this.behind) this.changed(id, status, errorCode, attempts);
  }
  /** A failed attempt that will be retried: the page stays in the frontier. */
  recordAttempt(id: number, attempts: number, errorCode: string): void {
    this.run(this.w.setAttempts, [attempts, errorCode, id]);
    this.facts.setHasError(id, true);
    if (this.behind) {
      const p = this.pendingPage(id);
      p.attempts = attempts;
      p.errorCode = errorCode;
    }
  }
  private changed(id: number, status: PageStatus, errorCode: string | null, attempts: number): void {
    const p = this.pendingPage(id);
    p.status = status;
    p.errorCode = errorCode;
    p.attempts = attempts;
  }
  setPriority(id: number, priority: number): void {
    this.run(this.w.setPriority, [priority, id]);
  }
  /** The frontier as committed (read when a crawl opens, before any writer). */
  loadFrontier(): FrontierRow[] {
    return this.db
      .prepare(
        `SELECT f.page_id, f.site_id, f.priority, p.url, p.depth, p.redirects, p.attempts
         FROM frontier f JOIN pages p ON p.id = f.page_id ORDER BY f.page_id`,
      )
      .all() as FrontierRow[];
  }

  // ---- links, duplicates, content ----------------------------------------------------
  /**
   * The out-links of one page, LINK_ROWS rows per INSERT: saves the per-statement overhead of
   * a row at a time (~15% of link-insert time in bench/throughput; the B-tree work remains).
   * They are stored under the page's fetch (linkSeq), so a fetched page's links append.
   */
  insertLinks(src: number, links: readonly NewLink[]): void {
    const seq = this.linkSeq(src);
    for (let from = 0; from < links.length; from += LINK_ROWS) {
      const n = Math.min(LINK_ROWS, links.length - from);
      const args: SqlValue[] = new Array(n * 6);
      for (let i = 0; i < n; i++) {
        const l = links[from + i]!;
        args[i * 6] = seq;
        args[i * 6 + 1] = l.dst;
        args[i * 6 + 2] = src;
        args[i * 6 + 3] = l.anchor;
        args[i * 6 + 4] = l.nofollow ? 1 : 0;
        args[i * 6 + 5] = l.kind;
      }
      this.run((this.insertLinksBy[n] ??= this.writes.statement(linksSql(n))), args);
    }
    this.notePendingLinks(src, links);
  }
  /**
   * The key page `src`'s links are stored under (schema 12): the fetch_seq of its fetch, as
   * written (the fetch just recorded, one in a batch not yet committed, or the file's), or
   * minus its id when it has none (links without a fetch; a sitemap's are always stored so,
   * sitemap-store.ts).
   */
  private linkSeq(src: number): number {
    if (src === this.lastFetchId) return this.lastFetchSeq;
    const pending = this.pendingPages.get(src)?.seq;
    if (pending !== undefined) return pending;
    return (this.st.fetchSeq!.get(src) as number | null | undefined) ?? -src;
  }
  /** The first page stored with this content hash, if any. */
  findHash(hash: string): number | undefined {
    const pending = this.pendingHashes.get(hash);
    if (pending !== undefined) return pending;
    // A tag matched: the page claimed this hash if its row holds it (its claim and its row
    // are written together, in one batch).
    return this.contentClaims().find(hash, (id) => this.st.pageHash!.get(id) === hash);
  }
  /**
   * Records `pageId` as the first page with this content, unless one is; returns the first.
   * Found in memory (content-claims.ts); the claim is appended to the file's log of claims.
   */
  claimHash(hash: string, pageId: number): number {
    const first = this.findHash(hash);
    if (first !== undefined) return first;
    this.run(this.w.insertHash, [hash, pageId]);
    if (this.behind) this.pendingHashes.set(hash, pageId, this.writes.batch);
    this.contentClaims().add(hash, pageId);
    return pageId;
  }
  /** The claims the file holds, read from its log when first asked. */
  private contentClaims(): ContentClaims {
    if (this.claims) return this.claims;
    const count = (this.db.prepare('SELECT count(*) FROM content_claims').pluck().get() as number) ?? 0;
    const claims = new ContentClaims(count);
    for (const [hash, pageId] of this.db.prepare('SELECT hash, page_id FROM content_claims').raw().iterate() as Iterable<[string, number]>) {
      claims.add(hash, pageId);
    }
    return (this.claims = claims);
  }
  /** Where a page's capture lies (content-store.ts); its status line and headers are as received (schema 5). */
  insertContent(pageId: number, segment: number, offset: number, reqLen: number, hdrLen: number, bodyLen: number): void {
    this.run(this.w.insertContent, [pageId, segment, offset, reqLen, hdrLen, bodyLen]);
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
    this.run(this.w.insertRobotsContent, [r.siteId, r.url, this.nextSeq - 1, r.httpStatus, r.fetchedAt, at.segment, at.offset, at.reqLen, at.hdrLen, bodyLen]);
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

/** One link's INSERT, taken apart so that a page's links go in statements of up to LINK_ROWS rows. */
const LINK_SHAPE = rowsShape('INSERT OR IGNORE INTO links(seq, dst, src, anchor, nofollow, kind) VALUES (?, ?, ?, ?, ?, ?)');

function linksSql(n: number): string {
  return multiRowSql(LINK_SHAPE, n);
}
