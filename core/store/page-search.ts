/**
 * The Pages view's questions (issue 18): pages found by URL text, site, status, type and
 * depth, sorted by fetch order, PageRank or in-degree, one page of results at a time; and one
 * page's facts for the inspector (PageRank, discovery path, link totals, links paged).
 *
 * Why two plans. The first result page of a 3M-page crawl must come within a second, and no
 * single SQL text does that for every question:
 * - a *narrow* question (a URL text whose trigram index finds at most NARROW pages, or a site
 *   with at most NARROW pages) reads those pages and sorts them;
 * - any other question walks the sort key's index (pages_fetch_seq, pagerank_order,
 *   page_indegree_order) and tests each page against the filters, stopping at the result
 *   page's end: a wide question meets its matches early.
 * A sort puts the pages it has no key for (not fetched yet, no PageRank value) after the
 * others, in discovery order, in either direction: each sort is a list of segments read in turn.
 *
 * Totals are counted in page-id ranges within a time budget; past it the total is unknown
 * (null) and `totalAtLeast` says how many were counted. All reads are as of the reader's
 * snapshot (a running crawl reads as at open).
 */
import type { CrawlReader } from './crawl-reader.js';
import type { PageStatus } from './crawl-state.js';
import { linksOfPage } from './crawl-rows.js';

export type PageSortKey = 'fetch' | 'pagerank' | 'indegree';
export type HttpClass = '2xx' | '3xx' | '4xx' | '5xx';

export interface PageSearchFilter {
  /** Text the URL contains (case-insensitive for ASCII letters). */
  urlText?: string;
  siteId?: number;
  status?: PageStatus | HttpClass;
  /** Content type prefix (case-insensitive), e.g. "text/html". */
  typePrefix?: string;
  depth?: number;
  /** true: depth equals `depth`; false: at most `depth`. */
  exactDepth?: boolean;
}

export interface PageSearchRequest extends PageSearchFilter {
  sort: PageSortKey;
  descending: boolean;
  offset: number;
  limit: number;
  /** Milliseconds the count may take before the total is given up (default 200). */
  countBudgetMs?: number;
  /** How long the walk along the sort may take (default SCAN_BUDGET_MS), and its chunk (default CHUNK): tests set them. */
  scanBudgetMs?: number;
  chunkRows?: number;
  /** A question reading at most this many pages is narrow (default NARROW; tests set it to try both plans). */
  narrowLimit?: number;
}

export interface PageSearchRow {
  id: number;
  url: string;
  status: PageStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  depth: number;
  fetchSeq: number | null;
  pagerank: number | null;
  inDegree: number | null;
}

export interface PageSearchResult {
  rows: PageSearchRow[];
  total: number | null;
  totalAtLeast: number;
  /** The crawl's search indexes exist (built when it finished). */
  indexed: boolean;
  /** The page PageRank run the values are from, if any. */
  pagerankRun: number | null;
  /** False when the walk along the sort stopped at its time limit: matches may lie beyond the `examined` pages looked at. */
  complete: boolean;
  examined: number;
  /** Which plan answered (for the bench and tests). */
  plan: 'narrow' | 'scan';
}

/** A question is narrow when it reads at most this many pages. */
export const NARROW = 20_000;
/** Pages of a sort looked at per step of the walk along it. */
const CHUNK = 20_000;
/** The walk along the sort stops after this long (the count has its own budget). */
const SCAN_BUDGET_MS = 600;
/** A trigram in at most this many URLs is rare enough to read its URLs without counting further. */
const FEW = 1_000;
/** Page ids per counting step. */
const COUNT_STEP = 100_000;
/** A site's pages are counted up to this many. */
const COUNT_CAP = 200_000;

const PAGE_STATUSES: ReadonlySet<string> = new Set(['queued', 'fetched', 'duplicate', 'failed', 'skipped', 'disallowed']);

/** A trigram as an FTS5 phrase. */
function phrase(gram: string): string {
  return `"${gram.replace(/"/g, '""')}"`;
}

/** Escapes LIKE's wildcards (the pattern uses ESCAPE '\'). */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface Where {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * A segment of a sort: the pages it covers in one order, walked by a key unique per page.
 * `keyFrom`/`keyWhere` read the keys alone (an index), to find where a chunk ends;
 * `from`/`where` join the pages, to test them against the filters.
 */
interface Segment {
  keyFrom: string;
  keyWhere: string;
  from: string;
  where: string;
  /** The key's columns, as named in both FROMs. */
  key: string[];
  descending: boolean;
}

export class PageSearch {
  constructor(private readonly reader: CrawlReader) {}

  /** Whether the crawl's read indexes for the Pages view exist (built when it finished). */
  indexed(): boolean {
    return this.reader.prepared("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'pages_fts'").pluck().get() === 1;
  }

  private hasIndex(name: string): boolean {
    return this.reader.prepared("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(name) === 1;
  }

  siteId(host: string): number | undefined {
    return this.reader.prepared('SELECT id FROM sites WHERE host = ? AND id <= ?').pluck().get(host, this.reader.params.site) as number | undefined;
  }

  /** The latest page PageRank run's id, or null. */
  pagerankRun(): number | null {
    return this.reader.latestRun('page')?.id ?? null;
  }

  search(q: PageSearchRequest): PageSearchResult {
    const indexed = this.indexed();
    const run = this.pagerankRun();
    const where = this.filters(q, indexed);
    const narrow = this.narrowSource(q, indexed);
    let ids: number[];
    let total: number | null = null;
    let totalAtLeast = 0;
    let complete = true;
    let examined = 0;
    if (narrow) {
      ids = this.narrowPage(narrow, where, q, run);
      total = this.reader.prepared(`SELECT count(*) FROM pages p WHERE ${narrow.sql} AND ${where.sql}`).pluck().get({ ...this.params(), ...narrow.params, ...where.params }) as number;
      totalAtLeast = total;
    } else {
      const scanned = this.scanPage(where, q, run);
      ids = scanned.ids;
      complete = scanned.complete;
      examined = scanned.examined;
      const counted = this.count(where, q, indexed, q.countBudgetMs ?? 200);
      total = counted.total;
      totalAtLeast = Math.max(counted.atLeast, ids.length > 0 ? q.offset + ids.length : 0);
    }
    return { rows: this.decorate(ids, run, indexed), total, totalAtLeast, complete, examined, indexed, pagerankRun: run, plan: narrow ? 'narrow' : 'scan' };
  }

  private params(): Record<string, unknown> {
    return { ...this.reader.params };
  }

  /**
   * The filters as one SQL condition on pages p (snapshot-aware, like record-fields.ts). A
   * unary + keeps SQLite from driving a query by a filter's index (pages by id or by site)
   * when the plan is to walk the sort's index; a finished crawl (indexed) grows no more, so it
   * needs no bound on the page id.
   */
  private filters(f: PageSearchFilter, indexed: boolean): Where {
    const parts = [indexed ? 'TRUE' : '+p.id <= @p'];
    const params: Record<string, unknown> = {};
    if (f.urlText) {
      parts.push("p.url LIKE @urlLike ESCAPE '\\'");
      params.urlLike = `%${likeEscape(f.urlText)}%`;
    }
    if (f.siteId !== undefined) {
      parts.push('+p.site_id = @siteId');
      params.siteId = f.siteId;
    }
    if (f.status !== undefined) {
      if (PAGE_STATUSES.has(f.status)) {
        parts.push("(CASE WHEN p.fetch_seq > @s THEN 'queued' ELSE p.status END) = @status");
        params.status = f.status;
      } else {
        const lo = Number(f.status[0]) * 100;
        parts.push('p.http_status >= @httpLo AND p.http_status < @httpHi AND (p.fetch_seq IS NULL OR p.fetch_seq <= @s)');
        Object.assign(params, { httpLo: lo, httpHi: lo + 100 });
      }
    }
    if (f.typePrefix) {
      parts.push("p.content_type LIKE @typeLike ESCAPE '\\' AND (p.fetch_seq IS NULL OR p.fetch_seq <= @s)");
      params.typeLike = `${likeEscape(f.typePrefix)}%`;
    }
    if (f.depth !== undefined) {
      parts.push(f.exactDepth ? 'p.depth = @depth' : 'p.depth <= @depth');
      params.depth = f.depth;
    }
    return { sql: parts.join(' AND '), params };
  }

  /**
   * The few pages a narrow question reads, as a condition on p.id or p.site_id; undefined when
   * it is wide. URL text: the trigram index is asked how many URLs hold each of the text's
   * trigrams, counting each only up to NARROW (so a common trigram costs no more than a rare
   * one); the rarest three then give the candidates, which the filters' LIKE checks exactly.
   * Only for ASCII text, where SQLite's case folding and JavaScript's agree.
   */
  private narrowSource(q: PageSearchRequest, indexed: boolean): Where | undefined {
    const limit = q.narrowLimit ?? NARROW;
    if (q.urlText && indexed && q.urlText.length >= 3 && /^[\x20-\x7e]+$/.test(q.urlText)) {
      const text = q.urlText.toLowerCase();
      const grams = [...new Set(Array.from({ length: text.length - 2 }, (_, i) => text.slice(i, i + 3)))];
      // A long text: a sample of its trigrams is enough to find rare ones.
      const step = Math.max(1, Math.ceil(grams.length / 40));
      const probe = this.reader.prepared('SELECT count(*) FROM (SELECT 1 FROM pages_fts WHERE pages_fts MATCH @m LIMIT @cap)').pluck();
      const sample = grams.filter((_, i) => i % step === 0);
      // Counted up to a small cap first (cheap), up to `limit` only when no trigram is that rare.
      const countUpTo = (cap: number) => sample.map((g) => ({ g, n: probe.get({ m: phrase(g), cap: cap + 1 }) as number })).sort((a, b) => a.n - b.n);
      let counted = countUpTo(Math.min(limit, FEW));
      if (counted[0]!.n > FEW && limit > FEW) counted = countUpTo(limit);
      if (counted[0]!.n <= limit) {
        const match = counted.slice(0, 3).map((c) => phrase(c.g)).join(' AND ');
        return { sql: 'p.id IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH @ftsMatch)', params: { ftsMatch: match } };
      }
    }
    if (q.siteId !== undefined && this.hasIndex('pages_site') && this.siteSize(q.siteId, limit + 1) <= limit) {
      return { sql: 'p.site_id = @narrowSite', params: { narrowSite: q.siteId } };
    }
    return undefined;
  }

  /** Pages of a site, counted up to `cap` (through pages_site). */
  private siteSize(siteId: number, cap: number): number {
    return this.reader.prepared('SELECT count(*) FROM (SELECT 1 FROM pages WHERE site_id = @site LIMIT @cap)').pluck().get({ site: siteId, cap }) as number;
  }

  /** Sort keys as SQL over pages p with pagerank r and page_indegree d joined. */
  private keyOf(sort: PageSortKey): { key: string; missing: string; join: string } {
    if (sort === 'fetch') return { key: 'p.fetch_seq', missing: '(p.fetch_seq IS NULL OR p.fetch_seq > @s)', join: '' };
    if (sort === 'pagerank') return { key: 'r.value', missing: 'r.value IS NULL', join: 'LEFT JOIN pagerank r ON r.run_id = @run AND r.page_id = p.id' };
    return { key: 'd.indegree', missing: 'd.indegree IS NULL', join: 'LEFT JOIN page_indegree d ON d.page_id = p.id' };
  }

  private narrowPage(source: Where, where: Where, q: PageSearchRequest, run: number | null): number[] {
    const { key, missing, join } = this.keyOf(q.sort);
    const dir = q.descending ? 'DESC' : 'ASC';
    const sql = `SELECT p.id FROM pages p ${join} WHERE ${source.sql} AND ${where.sql}
      ORDER BY ${missing}, ${key} ${dir}, CASE WHEN ${missing} THEN p.id ELSE 0 END, p.id ${dir} LIMIT @limit OFFSET @offset`;
    return this.reader.prepared(sql).pluck().all({ ...this.params(), ...source.params, ...where.params, run, limit: q.limit, offset: q.offset }) as number[];
  }

  /** A sort's segments: the pages with a key in key order (by its index), then those without one by id. */
  private segments(sort: PageSortKey, descending: boolean): Segment[] {
    const byId: Segment = { keyFrom: 'pages p', keyWhere: '', from: 'pages p', where: '', key: ['p.id'], descending: false };
    if (sort === 'fetch') {
      const where = 'p.fetch_seq <= @s';
      return [
        { keyFrom: 'pages p', keyWhere: where, from: 'pages p', where, key: ['p.fetch_seq'], descending },
        { ...byId, keyWhere: '(p.fetch_seq IS NULL OR p.fetch_seq > @s)', where: '(p.fetch_seq IS NULL OR p.fetch_seq > @s)' },
      ];
    }
    if (sort === 'pagerank') {
      const missing = 'NOT EXISTS (SELECT 1 FROM pagerank r WHERE r.run_id = @run AND r.page_id = p.id)';
      return [
        { keyFrom: 'pagerank r', keyWhere: 'r.run_id = @run', from: 'pagerank r JOIN pages p ON p.id = r.page_id', where: 'r.run_id = @run', key: ['r.value', 'r.page_id'], descending },
        { ...byId, keyWhere: missing, where: missing },
      ];
    }
    const missing = 'NOT EXISTS (SELECT 1 FROM page_indegree d WHERE d.page_id = p.id)';
    return [
      { keyFrom: 'page_indegree d', keyWhere: 'TRUE', from: 'page_indegree d JOIN pages p ON p.id = d.page_id', where: 'TRUE', key: ['d.indegree', 'd.page_id'], descending },
      { ...byId, keyWhere: missing, where: missing },
    ];
  }

  /**
   * One result page along the sort: each segment walked in chunks of CHUNK pages (the chunk's
   * end found on the key's index alone), each chunk's matches counted while the offset is
   * skipped and read once it is reached. A question whose matches are rare in sort order
   * stops after SCAN_BUDGET_MS, having looked at `examined` pages, instead of reading a
   * whole 3M-page crawl (a status no page has, sorted by PageRank: 16 s).
   */
  private scanPage(where: Where, q: PageSearchRequest, run: number | null): { ids: number[]; complete: boolean; examined: number } {
    const started = Date.now();
    const budget = q.scanBudgetMs ?? SCAN_BUDGET_MS;
    const chunk = q.chunkRows ?? CHUNK;
    const out: number[] = [];
    let skip = q.offset;
    let examined = 0;
    const base = { ...this.params(), ...where.params, run };
    for (const seg of this.segments(q.sort, q.descending)) {
      const dir = seg.descending ? 'DESC' : 'ASC';
      const order = seg.key.map((k) => `${k} ${dir}`).join(', ');
      const tuple = `(${seg.key.join(', ')})`;
      const marks = `(${seg.key.map((_, i) => `@k${i}`).join(', ')})`;
      const after = `${tuple} ${seg.descending ? '<' : '>'} ${marks}`;
      const upTo = `${tuple} ${seg.descending ? '>=' : '<='} (${seg.key.map((_, i) => `@e${i}`).join(', ')})`;
      const and = (...c: string[]) => c.filter((x) => x !== '').join(' AND ') || 'TRUE';
      let cursor: unknown[] | null = null;
      for (;;) {
        if (Date.now() - started > budget) return { ids: out, complete: false, examined };
        const from = cursor ? after : '';
        const keys = (k: unknown[] | null, prefix: string) => Object.fromEntries((k ?? seg.key.map(() => null)).map((v, i) => [`${prefix}${i}`, v]));
        const end = this.reader
          .prepared(`SELECT ${seg.key.join(', ')} FROM ${seg.keyFrom} WHERE ${and(seg.keyWhere, from)} ORDER BY ${order} LIMIT 1 OFFSET @chunk`, true)
          .get({ ...base, ...keys(cursor, 'k'), chunk: chunk - 1 }) as unknown[] | undefined;
        const range = and(seg.where, from, end ? upTo : '', where.sql);
        const params = { ...base, ...keys(cursor, 'k'), ...keys(end ?? null, 'e') };
        let n = 0;
        if (skip > 0) {
          n = this.reader.prepared(`SELECT count(*) FROM ${seg.from} WHERE ${range}`).pluck().get(params) as number;
        }
        if (skip >= n && skip > 0) skip -= n;
        else {
          const rows = this.reader.prepared(`SELECT p.id FROM ${seg.from} WHERE ${range} ORDER BY ${order} LIMIT @limit OFFSET @skip`).pluck().all({ ...params, limit: q.limit - out.length, skip }) as number[];
          skip = 0;
          out.push(...rows);
          if (out.length >= q.limit) return { ids: out, complete: true, examined: examined + chunk };
        }
        examined += chunk;
        if (!end) break;
        cursor = end;
      }
    }
    return { ids: out, complete: true, examined };
  }

  /**
   * Pages matching: all of a finished crawl at once (SQLite counts a small index); a site's
   * through pages_site up to COUNT_CAP; else in page-id ranges until done or out of time.
   */
  private count(where: Where, q: PageSearchFilter, indexed: boolean, budgetMs: number): { total: number | null; atLeast: number } {
    const started = Date.now();
    const params = { ...this.params(), ...where.params };
    const filtered = Object.keys(where.params).length > 0;
    if (!filtered && indexed) {
      const n = this.reader.prepared('SELECT count(*) FROM pages').pluck().get() as number;
      return { total: n, atLeast: n };
    }
    if (q.siteId !== undefined && this.hasIndex('pages_site')) {
      const n = this.reader.prepared(`SELECT count(*) FROM (SELECT 1 FROM pages p WHERE p.site_id = @site AND ${where.sql} LIMIT @cap)`).pluck().get({ ...params, site: q.siteId, cap: COUNT_CAP + 1 }) as number;
      return n > COUNT_CAP ? { total: null, atLeast: COUNT_CAP } : { total: n, atLeast: n };
    }
    const st = this.reader.prepared(`SELECT count(*) FROM pages p WHERE p.id > @lo AND p.id <= @hi AND ${where.sql}`).pluck();
    const last = this.reader.params.p;
    let n = 0;
    for (let lo = 0; lo < last; lo += COUNT_STEP) {
      if (Date.now() - started > budgetMs) return { total: null, atLeast: n };
      n += st.get({ ...params, lo, hi: Math.min(last, lo + COUNT_STEP) }) as number;
    }
    return { total: n, atLeast: n };
  }

  private decorate(ids: number[], run: number | null, indexed: boolean): PageSearchRow[] {
    const page = this.reader.prepared(`SELECT p.id, p.url, CASE WHEN p.fetch_seq > @s THEN 'queued' ELSE p.status END AS status,
        CASE WHEN p.fetch_seq > @s THEN NULL ELSE p.http_status END AS httpStatus,
        CASE WHEN p.fetch_seq > @s THEN NULL ELSE p.content_type END AS contentType,
        CASE WHEN p.fetch_seq > @s THEN NULL ELSE p.bytes END AS bytes, p.depth,
        CASE WHEN p.fetch_seq > @s THEN NULL ELSE p.fetch_seq END AS fetchSeq,
        (SELECT value FROM pagerank WHERE run_id = @run AND page_id = p.id) AS pagerank,
        CASE WHEN @indexed THEN (SELECT indegree FROM page_indegree WHERE page_id = p.id) END AS inDegree
      FROM pages p WHERE p.id = @id`);
    const params = { ...this.params(), run, indexed: indexed ? 1 : 0 };
    return ids.map((id) => page.get({ ...params, id }) as PageSearchRow);
  }

  // ---- one page, for the inspector --------------------------------------------------------
  /** The page's PageRank in the latest page run, or null. */
  pagerankOf(pageId: number, run: number | null): number | null {
    if (run === null) return null;
    return (this.reader.prepared('SELECT value FROM pagerank WHERE run_id = ? AND page_id = ?').pluck().get(run, pageId) as number | undefined) ?? null;
  }

  /** The chain of pages from a seed to this page's parent (pages.parent_id), at most `max` long. */
  discoveryPath(pageId: number, max = 1000): Array<{ url: string; depth: number }> {
    const st = this.reader.prepared('SELECT parent_id AS parentId, url, depth FROM pages WHERE id = ?');
    const path: Array<{ url: string; depth: number }> = [];
    const seen = new Set<number>([pageId]);
    let next = (st.get(pageId) as { parentId: number | null } | undefined)?.parentId ?? null;
    while (next !== null && !seen.has(next) && path.length < max) {
      seen.add(next);
      const row = st.get(next) as { parentId: number | null; url: string; depth: number } | undefined;
      if (!row) break;
      path.push({ url: row.url, depth: row.depth });
      next = row.parentId;
    }
    return path.reverse();
  }

  /** Links from a page (in target id order) and their total, as of the snapshot. */
  outLinks(pageId: number, offset: number, limit: number): { total: number; links: Array<{ url: string; anchor: string | null; kind: string }> } {
    const from = `FROM links l JOIN pages p ON p.id = l.dst
      WHERE ${linksOfPage('l', '@src')} AND p.id <= @p AND l.seq <= @s`;
    const params = { ...this.params(), src: pageId };
    const total = this.reader.prepared(`SELECT count(*) ${from}`).pluck().get(params) as number;
    const links = this.reader.prepared(`SELECT p.url, l.anchor, l.kind ${from} ORDER BY l.dst LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as Array<{
      url: string;
      anchor: string | null;
      kind: string;
    }>;
    return { total, links };
  }

  /**
   * Links to a page (in the order their sources were fetched: links_dst's order, schema 12,
   * so a page of them reads no more than it shows) and their total. Without links_dst (a
   * running crawl) each read scans every link, so the total is left null there unless the
   * crawl is small.
   */
  inLinks(pageId: number, offset: number, limit: number): { total: number | null; links: Array<{ url: string; anchor: string | null; kind: string }> } {
    const from = `FROM links l JOIN pages p ON p.id = l.src
      WHERE l.dst = @dst AND l.seq <= @s`;
    const params = { ...this.params(), dst: pageId };
    const countable = this.hasIndex('links_dst') || this.reader.params.p <= 100_000;
    const total = countable ? (this.reader.prepared(`SELECT count(*) ${from}`).pluck().get(params) as number) : null;
    const links = this.reader.prepared(`SELECT p.url, l.anchor, l.kind ${from} ORDER BY l.seq LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as Array<{
      url: string;
      anchor: string | null;
      kind: string;
    }>;
    return { total, links };
  }
}
