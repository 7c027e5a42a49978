/**
 * The sites table as the Sites view reads it, over a CrawlReader and bounded by its snapshot:
 * one page of sites filtered (host substring, state, errors) and sorted in SQL, with the
 * number matching; then, for the page's sites only, their pages' error codes (one grouped
 * query) and their robots.txt answers. Kept apart from crawl-reader.ts so each file stays one
 * subject.
 *
 * A site's state comes from its row and the frontier: parked (sites.parked set), pending
 * (a page of it in the frontier, or fetched after the snapshot), done (neither). A crawl
 * that has finished or stopped has frontier_site (a read index, migration 010): a page of 50
 * sites then probes it 50 times, and an index per sort key (migration 011), so the first
 * page's 50 sites are the first 50 entries of one. A running crawl has none (its frontier and
 * its sites' counters change with every page): the pending set is one scan of the frontier
 * per query and the pick one pass over the sites, both bounded by their size.
 */
import type { CrawlReader } from './crawl-reader.js';
import { siteSelect, type SiteRecord } from './record-fields.js';

export type SiteListState = 'pending' | 'done' | 'parked';

/** What a list can be sorted by: a site field, the site's PageRank, or its state. */
export type SiteListSort =
  | 'host'
  | 'pagesFetched'
  | 'pagesKnown'
  | 'bytes'
  | 'errors'
  | 'connectMs'
  | 'responseMs'
  | 'requestsPerConn'
  | 'crawlDelayMs'
  | 'pagerank'
  | 'state';

export interface SiteListQuery {
  /** Lower-case text the host holds (LIKE wildcards in it are taken literally); null: any. */
  host: string | null;
  state: SiteListState | null;
  /** Only sites with a failed request or page, or parked (its robots.txt failed, or its error budget). */
  errorsOnly: boolean;
  sort: SiteListSort;
  descending: boolean;
  limit: number;
  offset: number;
}

const ROW_FIELDS = ['id', 'host', 'pagesFetched', 'pagesKnown', 'bytes', 'errors', 'connectMs', 'responseMs', 'requestsPerConn', 'crawlDelayMs', 'parked', 'schemes', 'tls'] as const;

export type SiteListRow = Pick<SiteRecord, (typeof ROW_FIELDS)[number]> & {
  state: SiteListState;
  /** The site's value in the run asked for; null without a run or a value. */
  pagerank: number | null;
};

export interface SiteListPage {
  /** Sites matching the filters. */
  matching: number;
  rows: SiteListRow[];
}

/** One robots.txt answer of an origin of a site (robots table: rules, allow-all, unavailable). */
export interface SiteRobotsRow {
  siteId: number;
  origin: string;
  state: 'rules' | 'allow-all' | 'unavailable';
  httpStatus: number | null;
}

/** The ORDER BY expression of each sort (a column of the inner select): named here, never by a caller. */
const ORDER: Readonly<Record<SiteListSort, string>> = {
  host: '"host"',
  pagesFetched: '"pagesFetched"',
  pagesKnown: '"pagesKnown"',
  bytes: '"bytes"',
  errors: '"errors"',
  connectMs: '"connectMs"',
  responseMs: '"responseMs"',
  requestsPerConn: '"requestsPerConn"',
  crawlDelayMs: '"crawlDelayMs"',
  pagerank: '"pagerank"',
  state: '"state"',
};

/** Sites with a page still to fetch as of the snapshot (in the frontier, or fetched since). */
// UNION ALL: a UNION made SQLite merge both sides in site order, through a scan of every page.
const PENDING = `(SELECT site_id FROM frontier WHERE page_id <= @p UNION ALL SELECT site_id FROM pages WHERE fetch_seq > @s)`;
const STATE = `CASE WHEN s.parked IS NOT NULL THEN 'parked' WHEN s.id IN ${PENDING} THEN 'pending' ELSE 'done' END`;
/**
 * STATE for a few sites, through frontier_site: a probe per site instead of the whole pending
 * set (bench/sites' 208,063 queued pages: 80-100 ms of a 120 ms Sites page on a loaded machine,
 * against well under 1 ms). Pages fetched after the snapshot come from pages_fetch_seq, a range
 * that is empty unless the crawl is running.
 */
const STATE_PROBED = `CASE WHEN s.parked IS NOT NULL THEN 'parked'
  WHEN EXISTS (SELECT 1 FROM frontier f WHERE f.site_id = s.id AND f.page_id <= @p)
    OR s.id IN (SELECT site_id FROM pages WHERE fetch_seq > @s) THEN 'pending' ELSE 'done' END`;
// +s.id: the snapshot's bound is not a range to search (it holds every site of a finished
// crawl), so SQLite walks the sort key's index (011-site-sorts.ts) where there is one.
const FILTER = `+s.id <= @site
  AND (@host IS NULL OR s.host LIKE @host ESCAPE '\\')
  AND (@errorsOnly = 0 OR s.errors > 0 OR s.pages_failed > 0 OR s.parked IS NOT NULL)`;

export class SiteList {
  constructor(private readonly reader: CrawlReader) {}

  /**
   * A page of sites and how many match. `runId`: the site PageRank run whose values to join
   * (null: none). Ties, and nulls (last either way), fall back to the site id.
   */
  page(q: SiteListQuery, runId: number | null): SiteListPage {
    const params = {
      ...this.reader.params,
      host: q.host === null || q.host === '' ? null : `%${likeEscape(q.host)}%`,
      state: q.state,
      errorsOnly: q.errorsOnly ? 1 : 0,
      run: runId ?? -1,
    };
    if (q.state === null && q.sort !== 'state') return this.pageByKey(q, params);
    // The state filter compares the CASE above: the pending set is built once per statement.
    const from = `FROM (SELECT ${siteSelect(ROW_FIELDS)}, ${STATE} AS state, r.value AS pagerank
        FROM sites s LEFT JOIN site_pagerank r ON r.run_id = @run AND r.site_id = s.id
        WHERE ${FILTER}) s
      WHERE (@state IS NULL OR s.state = @state)`;
    const matching = this.reader.prepared(`SELECT count(*) ${from}`).pluck().get(params) as number;
    const sql = `SELECT s.* ${from} ORDER BY s.${ORDER[q.sort]} ${q.descending ? 'DESC' : 'ASC'} NULLS LAST, s.id LIMIT @limit OFFSET @offset`;
    const rows = this.reader.prepared(sql).all({ ...params, limit: q.limit, offset: q.offset }) as SiteListRow[];
    return { matching, rows };
  }

  /**
   * page() without a state filter or sort (the Sites view's first ask): the same rows, in the
   * same order, chosen by their sort key alone (SQLite keeps the best offset + limit as it
   * scans), their other fields, state and PageRank then read for those rows only, instead of
   * building every site's row and sorting them all. The page's state is probed per site where
   * the crawl has frontier_site. Without a filter every site matches: the reader's site count,
   * which the Sites page reads anyway (each count reads the whole sites table).
   */
  private pageByKey(q: SiteListQuery, params: Record<string, unknown>): SiteListPage {
    const unfiltered = params.host === null && !q.errorsOnly;
    const matching = unfiltered ? this.reader.siteCount() : (this.reader.prepared(`SELECT count(*) FROM sites s WHERE ${FILTER}`).pluck().get(params) as number);
    const byRank = q.sort === 'pagerank';
    const key = byRank ? 'r.value AS pagerank' : siteSelect([q.sort as Exclude<SiteListSort, 'pagerank' | 'state'>]);
    const dir = q.descending ? 'DESC' : 'ASC';
    // The chosen ids and keys as p(pick, k): the key's own name (host, bytes) would be ambiguous beside the sites' columns.
    const state = this.hasFrontierSite() ? STATE_PROBED : STATE;
    const sql = `SELECT ${siteSelect(ROW_FIELDS)}, ${state} AS state, r.value AS pagerank
      FROM (SELECT pick, ${ORDER[q.sort]} AS k FROM (SELECT s.id AS pick, ${key} FROM sites s
              ${byRank ? 'LEFT JOIN site_pagerank r ON r.run_id = @run AND r.site_id = s.id' : ''}
            WHERE ${FILTER} ORDER BY ${ORDER[q.sort]} ${dir} NULLS LAST, s.id LIMIT @limit OFFSET @offset)) p
      JOIN sites s ON s.id = p.pick LEFT JOIN site_pagerank r ON r.run_id = @run AND r.site_id = s.id
      ORDER BY p.k ${dir} NULLS LAST, p.pick`;
    const rows = this.reader.prepared(sql).all({ ...params, limit: q.limit, offset: q.offset }) as SiteListRow[];
    return { matching, rows };
  }

  /** Whether the crawl has frontier_site (finished or stopped, migration 010): probes per site then beat a frontier scan. */
  private hasFrontierSite(): boolean {
    return this.reader.prepared("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'frontier_site'").pluck().get() === 1;
  }

  /**
   * Pages of these sites that ended with an error code, by site and code, as of the snapshot
   * (a page being retried, still queued, is not counted). One grouped query: through the
   * covering index pages_site_errors once the crawl has finished (a few ms), a scan of the
   * pages while it runs (about 0.65 s for 3M pages: bench/sites).
   */
  errorsByKind(siteIds: readonly number[]): Map<number, Record<string, number>> {
    const out = new Map<number, Record<string, number>>();
    if (siteIds.length === 0) return out;
    const rows = this.reader
      .prepared(
        `SELECT site_id AS siteId, error_code AS code, count(*) AS n FROM pages
         WHERE site_id IN (SELECT value FROM json_each(@ids)) AND id <= @p AND error_code IS NOT NULL
           AND status <> 'queued' AND (fetch_seq IS NULL OR fetch_seq <= @s)
         GROUP BY site_id, error_code`,
      )
      .all({ ...this.reader.params, ids: JSON.stringify(siteIds) }) as Array<{ siteId: number; code: string; n: number }>;
    for (const r of rows) {
      const kinds = out.get(r.siteId) ?? {};
      kinds[r.code] = r.n;
      out.set(r.siteId, kinds);
    }
    return out;
  }

  /** The robots.txt answers of these sites' origins, by origin. */
  robots(siteIds: readonly number[]): SiteRobotsRow[] {
    if (siteIds.length === 0) return [];
    return this.reader
      .prepared(
        `SELECT site_id AS siteId, origin, state, http_status AS httpStatus FROM robots
         WHERE site_id IN (SELECT value FROM json_each(@ids)) AND site_id <= @site ORDER BY site_id, origin`,
      )
      .all({ ...this.reader.params, ids: JSON.stringify(siteIds) }) as SiteRobotsRow[];
  }
}

/** Text for LIKE ... ESCAPE '\': its own %, _ and \ match themselves. */
function likeEscape(text: string): string {
  return text.replaceAll(/[\\%_]/g, (c) => `\\${c}`);
}
