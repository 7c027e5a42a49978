/**
 * listSites: a crawl's sites one page at a time, filtered and sorted by the engine (the Sites
 * view, Live's top sites). Every field of the query is checked here, since scripts reach the
 * API too: a bad one is refused with badField naming it, never clamped or ignored.
 */
import { badField, ErrorCodes, SkipCodes } from '../errors.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { schemeNames } from '../store/record-fields.js';
import { SiteList, type SiteListSort, type SiteRobotsRow } from '../store/site-list.js';
import { SITE_SORT_KEYS, SITE_STATES, type SiteRobotsDto, type SiteSortKey, type SitesPage, type SitesQuery, type SiteStateDto } from './contract.js';

export const MAX_SITES_LIMIT = 500;
const MAX_HOST_TEXT = 500;

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

export interface CheckedSitesQuery {
  offset: number;
  limit: number;
  sort: SiteSortKey;
  descending: boolean;
  host: string | null;
  state: SiteStateDto | null;
  errorsOnly: boolean;
}

/** The query with its defaults, or a CRAWL_BAD_OPTION naming the first bad field. */
export function checkSitesQuery(q: unknown): CheckedSitesQuery {
  if (q === undefined || q === null) q = {};
  if (typeof q !== 'object' || Array.isArray(q)) throw badField('query', 'must be an object of filters, sort and paging');
  const f = q as Record<keyof SitesQuery, unknown>;
  const offset = f.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > 1e9) throw badField('offset', 'must be a whole number from 0 to 1,000,000,000');
  const limit = f.limit ?? 50;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SITES_LIMIT) {
    throw badField('limit', `must be a whole number from 1 to ${MAX_SITES_LIMIT}`);
  }
  const sort = f.sort ?? 'pages_fetched';
  if (typeof sort !== 'string' || !(SITE_SORT_KEYS as readonly string[]).includes(sort)) {
    throw badField('sort', `must be one of ${SITE_SORT_KEYS.join(', ')}`);
  }
  const descending = f.descending ?? (sort !== 'host' && sort !== 'state');
  if (typeof descending !== 'boolean') throw badField('descending', 'must be true or false');
  const host = f.host ?? '';
  if (typeof host !== 'string') throw badField('host', 'must be text');
  if (host.length > MAX_HOST_TEXT) throw badField('host', `must be at most ${MAX_HOST_TEXT} characters`);
  const state = f.state ?? null;
  if (state !== null && (typeof state !== 'string' || !(SITE_STATES as readonly string[]).includes(state))) {
    throw badField('state', `must be one of ${SITE_STATES.join(', ')}`);
  }
  const errorsOnly = f.errorsOnly ?? false;
  if (typeof errorsOnly !== 'boolean') throw badField('errorsOnly', 'must be true or false');
  return {
    offset,
    limit,
    sort: sort as SiteSortKey,
    descending,
    host: host.trim() === '' ? null : host.trim().toLowerCase(),
    state: state as SiteStateDto | null,
    errorsOnly,
  };
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
