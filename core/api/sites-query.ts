/**
 * listSites: a crawl's sites one page at a time, filtered and sorted by the engine (the Sites
 * view, Live's top sites). Every field of the query is checked with its schema
 * (sites-request-schema.ts), since scripts reach the API too: a bad one is refused naming it,
 * never clamped or ignored.
 */
import { badField, ErrorCodes, SkipCodes } from '../errors.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { schemeNames } from '../store/record-fields.js';
import { SiteList, type SiteListSort, type SiteRobotsRow } from '../store/site-list.js';
import type { SiteRobotsDto, SiteSortKey, SitesPage, SitesQuery } from './contract.js';
import { checkRequest } from './request-check.js';
import { SitesQuerySchema, type CheckedSitesQuery } from './sites-request-schema.js';

export { MAX_SITES_LIMIT, type CheckedSitesQuery } from './sites-request-schema.js';

/** The contract's sort keys (column names) as the store's sorts. */
const SORTS: Readonly<Record<SiteSortKey, SiteListSort>> = {
  host: 'host',
  pages_fetched: 'pagesFetched',
  pages_known: 'pagesKnown',
  bytes: 'bytes',
  errors: 'errors',
  connect_ms: 'connectMs',
  response_ms: 'responseMs',
  requests_per_conn: 'requestsPerConn',
  crawl_delay: 'crawlDelayMs',
  site_pagerank: 'pagerank',
  state: 'state',
};

/** Codes that say why a page was left alone, not that anything failed: not shown as errors. */
const NOT_ERRORS: ReadonlySet<string> = new Set(Object.values(SkipCodes));

/** The query with its defaults (sites-request-schema.ts), or a CRAWL_BAD_OPTION naming the first bad field. */
export function checkSitesQuery(q: unknown): CheckedSitesQuery {
  if (q !== undefined && q !== null && (typeof q !== 'object' || Array.isArray(q))) throw badField('query', 'must be an object of filters, sort and paging');
  return checkRequest(SitesQuerySchema, q ?? {}, 'a sites query');
}

export function sitesPage(reader: CrawlReader, query: SitesQuery = {}): SitesPage {
  const q = checkSitesQuery(query);
  const run = reader.latestRun('site');
  const list = new SiteList(reader);
  const page = list.page({ ...q, sort: SORTS[q.sort] }, run?.id ?? null);
  const ids = page.rows.map((r) => r.id);
  const kinds = list.errorsByKind(ids);
  const robots = robotsBySite(list.robots(ids), kinds);
  return {
    total: page.matching,
    allSites: reader.siteCount(),
    pagerankRun: run ? { id: run.id, createdAt: run.created_at } : null,
    rows: page.rows.map((r) => ({
      host: r.host,
      pagesFetched: r.pagesFetched,
      pagesKnown: r.pagesKnown,
      bytes: r.bytes,
      errors: r.errors,
      connectMs: r.connectMs,
      responseMs: r.responseMs,
      requestsPerConn: r.requestsPerConn,
      parked: r.parked,
      state: r.state,
      errorsByKind: Object.fromEntries(Object.entries(kinds.get(r.id) ?? {}).filter(([code]) => !NOT_ERRORS.has(code))),
      robots: robots.get(r.id) ?? null,
      crawlDelayMs: r.crawlDelayMs,
      pagerank: run ? (r.pagerank ?? null) : null,
      schemes: schemeNames(r.schemes),
      certificate: r.tls,
    })),
  };
}

/** Worst first: what a site's several origins show as one. */
const SEVERITY: ReadonlyArray<SiteRobotsDto['state']> = ['unavailable', 'disallowing', 'fetched', 'allow-all'];

/**
 * One robots.txt state per site: rules read as `disallowing` when they kept a page of the site
 * out (a page ended CRAWL_ROBOTS_DISALLOWED), `fetched` when not; the worst of its origins.
 */
function robotsBySite(rows: SiteRobotsRow[], kinds: Map<number, Record<string, number>>): Map<number, SiteRobotsDto> {
  const out = new Map<number, SiteRobotsDto>();
  for (const r of rows) {
    const state: SiteRobotsDto['state'] =
      r.state === 'rules' ? ((kinds.get(r.siteId)?.[ErrorCodes.ROBOTS_DISALLOWED] ?? 0) > 0 ? 'disallowing' : 'fetched') : r.state;
    const seen = out.get(r.siteId);
    if (!seen) out.set(r.siteId, { state, status: r.httpStatus, origins: 1 });
    else {
      seen.origins++;
      if (SEVERITY.indexOf(state) < SEVERITY.indexOf(seen.state)) Object.assign(seen, { state, status: r.httpStatus });
    }
  }
  return out;
}
