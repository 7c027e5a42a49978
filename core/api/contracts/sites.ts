/**
 * Sites and Pages: a crawl's sites paged, sorted and filtered in the engine, its pages searched,
 * and one page with its links.
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */

export const SITE_SORT_KEYS = [
  'host',
  'pages_fetched',
  'pages_known',
  'bytes',
  'errors',
  'connect_ms',
  'response_ms',
  'requests_per_conn',
  'crawl_delay',
  'site_pagerank',
  'state',
] as const;

export type SiteSortKey = (typeof SITE_SORT_KEYS)[number];

/**
 * Where a site stands, from its row: `parked` (given up: see `parked` for why), `pending`
 * (pages of it still to fetch, in flight included), `done` (nothing of it left to fetch).
 */
export const SITE_STATES = ['pending', 'done', 'parked'] as const;

export type SiteStateDto = (typeof SITE_STATES)[number];

export interface SitesQuery {
  offset?: number;
  /** 1..500; default 50. */
  limit?: number;
  sort?: SiteSortKey;
  /** Default: largest first, except host and state (A to Z). */
  descending?: boolean;
  /** Sites whose host holds this text (any case); empty: all. */
  host?: string;
  /** Only sites in this state; absent: all. */
  state?: SiteStateDto;
  /** Only sites with errors: failed requests or pages, or parked (robots.txt unreadable, error budget spent). */
  errorsOnly?: boolean;
}

/** robots.txt of a site: `fetched` (rules, none of the pages met disallowed), `disallowing` (rules that kept pages out), `allow-all` (none there: everything allowed), `unavailable`. */
export interface SiteRobotsDto {
  state: 'fetched' | 'disallowing' | 'allow-all' | 'unavailable';
  /** The HTTP status of the robots.txt answer (null: no answer). */
  status: number | null;
  /** Origins (scheme, host, port) of the site whose robots.txt was asked for; the state shown is the worst. */
  origins: number;
}

export interface SiteRowDto {
  host: string;
  pagesFetched: number;
  pagesKnown: number;
  bytes: number;
  /** Failed requests, retries included. */
  errors: number;
  connectMs: number | null;
  responseMs: number | null;
  requestsPerConn: number | null;
  parked: string | null;
  state: SiteStateDto;
  /** Pages not fetched or failed, by the code they ended with (robots.txt refusals and parked sites' skipped pages included; nofollow and page-limit skips not). */
  errorsByKind: Record<string, number>;
  robots: SiteRobotsDto | null;
  crawlDelayMs: number | null;
  /** The site's value in the latest site PageRank run; null when no run exists. */
  pagerank: number | null;
  /** The schemes the crawl reached the site over, http before https (empty before its first connection). */
  schemes: Array<'http' | 'https'>;
  /** Its certificate as last found over https: 'ok', or the problem's code (CRAWL_TLS_...); null: never reached over https. */
  certificate: string | null;
}

export interface SitesPage {
  /** Sites matching the query's filters. */
  total: number;
  /** Every site of the crawl. */
  allSites: number;
  /** The site PageRank run the values are from (null: none yet). */
  pagerankRun: { id: number; createdAt: string } | null;
  rows: SiteRowDto[];
}

export interface LinkDto {
  url: string;
  anchor: string | null;
  kind: string;
}

export interface PageDetail {
  url: string;
  status: string;
  httpStatus: number | null;
  title: string | null;
  contentType: string | null;
  bytes: number | null;
  depth: number;
  errorCode: string | null;
  /** Epoch ms. */
  fetchedAt: number | null;
  /** Links to the page from inOffset on (at most linkLimit). */
  inLinks: LinkDto[];
  /** Links from the page from outOffset on (at most linkLimit). */
  outLinks: LinkDto[];
  /** True when a list was cut at its limit. */
  truncated: boolean;
  // ---- pages (issue 18): the inspector's facts ----
  /** The page's value in the latest stored page PageRank run; null when none is stored. */
  pagerank: number | null;
  /** That run's id and when it was stored (null: no run). */
  pagerankRun: { id: number; createdAt: string } | null;
  /** The fetch order (1 = fetched first); null while not fetched. */
  fetchSeq: number | null;
  /** How the page was found: the pages from a seed to its parent, each discovered through the one before. Empty for a seed. */
  discoveryPath: Array<{ url: string; depth: number }>;
  /** All links to the page (null: not counted, a running crawl too large to count without its index). */
  inLinkCount: number | null;
  /** All links from the page. */
  outLinkCount: number;
  inOffset: number;
  outOffset: number;
  linkLimit: number;
}

/** Which links getPage returns: `linkLimit` (1..1000, default 100) from each list's offset. */
export interface PageLinksQuery {
  linkLimit?: number;
  inOffset?: number;
  outOffset?: number;
}

export const PAGE_SORT_KEYS = ['fetch', 'pagerank', 'indegree'] as const;

export type PageSortKey = (typeof PAGE_SORT_KEYS)[number];

/** A page's status in the crawl, or the class of its HTTP answer. */
export const PAGE_STATUS_FILTERS = ['fetched', 'queued', 'duplicate', 'failed', 'skipped', 'disallowed', '2xx', '3xx', '4xx', '5xx'] as const;

export type PageStatusFilter = (typeof PAGE_STATUS_FILTERS)[number];

export interface PageSearchQuery {
  /** Text the URL contains (any case); at most 500 characters. */
  url?: string;
  /** The site (its host, as the Sites view lists it). */
  site?: string;
  status?: PageStatusFilter;
  /** The content type starts with this (any case), e.g. "text/html". */
  type?: string;
  /** Depth at most this (or exactly, with exactDepth). */
  depth?: number;
  exactDepth?: boolean;
  /** Default fetch. pagerank needs a stored page run; indegree a finished crawl. */
  sort?: PageSortKey;
  /** Default: ascending for fetch, descending for pagerank and indegree. */
  descending?: boolean;
  offset?: number;
  /** 1..500; default 50. */
  limit?: number;
}

export interface PageRowDto {
  url: string;
  status: string;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  depth: number;
  pagerank: number | null;
  /** null where not counted (before the crawl finishes). */
  inDegree: number | null;
  fetchSeq: number | null;
}

export interface PageSearchDto {
  /** Pages matching; null when counting them all would take too long (see totalAtLeast). */
  total: number | null;
  /** At least this many match (the count so far when total is null). */
  totalAtLeast: number;
  rows: PageRowDto[];
  offset: number;
  limit: number;
  sort: PageSortKey;
  descending: boolean;
  /** The crawl's search indexes exist (built when it finishes): URL text is found through an index, in-degree can sort. */
  indexed: boolean;
  /**
   * False when the search stopped at its time limit (about 0.6 s) having looked at `examined`
   * pages in the sort's order without filling the result page: matches further on are not shown.
   */
  complete: boolean;
  examined: number;
  /** The stored page PageRank run the values come from (null: none, so no PageRank sort). */
  pagerankRun: { id: number; createdAt: string } | null;
}

/** What the Sites feature asks of the engine. */
export interface SitesApi {
  listSites(crawlId: string, query?: SitesQuery): Promise<SitesPage>;
  /** A page and its links; the third argument is the old link limit or which links to list. */
  getPage(crawlId: string, url: string, links?: number | PageLinksQuery): Promise<PageDetail | null>;
  /** Pages of a crawl found by URL text, site, status, type and depth, sorted and paged in the engine. */
  searchPages(crawlId: string, query?: PageSearchQuery): Promise<PageSearchDto>;
}

/** The Sites methods a transport dispatches (those that return a promise). */
export const SITES_METHODS = ['listSites', 'getPage', 'searchPages'] as const satisfies ReadonlyArray<keyof SitesApi>;
