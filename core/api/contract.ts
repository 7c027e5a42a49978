/**
 * The one typed contract between a user interface and the engine. Every transport
 * (in-process, WebSocket for browser mode, Electron IPC) implements CrawlbenchApi and passes
 * the same contract tests. Everything in and out is plain JSON, so that it can cross a
 * socket, a MessagePort or contextBridge unchanged. This file is browser-safe: types and two
 * constant lists only; it imports only other browser-safe modules (the comparison's report types).
 */
import type { CompareReport } from '../compare/report.js';

export type { CompareReport } from '../compare/report.js';
import type { GraphFormat, GraphModel, PartitionReport } from '../graph/report.js';

export { FORMATS as GRAPH_FORMATS, MODELS as GRAPH_MODELS } from '../graph/report.js';
export type { GraphFormat, GraphModel, Method as PartitionMethod, PartitionMetrics, PartitionReport, PartitionRow } from '../graph/report.js';

/**
 * 'paused': resumable; 'stopped': ended for good by the user (analyses run on it, no resume);
 * 'interrupted': the process died mid-run (resumable from its file).
 */
export type CrawlStatus = 'created' | 'running' | 'pausing' | 'paused' | 'stopped' | 'finished' | 'interrupted' | 'unreadable';

/** Why a crawl's last run ended, as stored with it. */
export interface EndReasonDto {
  kind: 'finished' | 'max-pages' | 'paused' | 'stopped' | 'disk-full' | 'failed' | 'interrupted';
  /** ISO time the run ended, when known. */
  at: string | null;
  /** The error of a failed run. */
  message?: string;
}

export interface CrawlInfo {
  id: string;
  status: CrawlStatus;
  policy: string | null;
  pagesFetched: number;
  pagesKnown: number;
  queued: number;
  sites: number;
  sizeBytes: number;
  createdAt: string | null;
  demoWeb: boolean;
  /** Why the last run ended; null for a crawl never run (or whose run is on now). */
  endReason: EndReasonDto | null;
  /** Policies guided by an earlier crawl: this crawl's pages found in it; null for other policies. */
  historyMatched: number | null;
  /** The crawl's running time over all its runs (pauses excluded) as of its last commit; null before it first ran. */
  crawlSeconds?: number | null;
  /** Errors of every kind counted over the whole crawl, as of its last commit. */
  errorTotal?: number;
  /** Those errors by code (robots.txt failures, failed requests with their retries, pages answered with an error). */
  errors?: Record<string, number>;
  /** Why the file could not be read (status 'unreadable'). */
  problem?: string;
}

export interface PolicyParam {
  name: string;
  /** The parameter in words, for a form (no CLI flag). */
  label?: string;
  type: 'number' | 'integer' | 'string' | 'boolean';
  default?: unknown;
  summary?: string;
}

export interface PolicyDescription {
  name: string;
  summary: string;
  params: PolicyParam[];
}

/** The seed box's text, understood line by line (or comma by comma). */
export interface ParsedSeeds {
  urls: string[];
  hosts: string[];
  suffixes: string[];
  /** One per bad line, in line order; at most the first 1000 (see problemCount). */
  problems: Array<{ line: number; text: string; problem: string }>;
  /** How many lines have a problem in all (can exceed problems.length); absent = problems.length. */
  problemCount?: number;
}

/** A seed upload so far (uploadSeeds): the parts received and their characters in all. */
export interface SeedUploadDto {
  uploadId: string;
  parts: number;
  chars: number;
}

/** What health() answers: the server is up, since when, and the crawls it is attached to. */
export interface HealthDto {
  ok: true;
  /** The engine's process (in Electron its utility process). */
  pid: number;
  uptimeSeconds: number;
  /** The ids of the crawls running now, each in its own process, that this server follows. */
  crawls: string[];
}

export interface CreateCrawlRequest {
  /** File name in the workspace (without .db); default: crawl-<timestamp>. */
  name?: string;
  /**
   * URLs, host names, or domain suffixes (".cl", ".uchile.cl"), one per line; or a file's text.
   * At most API_LIMITS.seedTextChars (limits.ts); longer text goes up with uploadSeeds.
   */
  seedText?: string;
  /** Seeds from an upload (uploadSeeds) instead of seedText; the upload is dropped once the crawl exists. */
  seedUploadId?: string;
  /** Start the built-in test web in-process on 127.0.0.1 and crawl it (fills seeds, scope, resolve). */
  demoWeb?: boolean | { sites?: number; pages?: number; latencyMs?: number; revision?: 1 | 2; tls?: number };
  policy?: string;
  policyParams?: Record<string, unknown>;
  w?: number;
  c?: number;
  r?: number;
  /** K: crawl in batches of K pages. */
  batch?: number | null;
  maxPages?: number | null;
  maxDepth?: number;
  maxPagesPerSite?: number;
  userAgent?: string;
  /** Host-name to address rules (e.g. a local test web). */
  resolve?: Array<{ pattern: string; address: string }>;
  /** Id of an earlier crawl in the workspace whose data the policy may use (historical PageRank). */
  historyCrawl?: string;
  /**
   * The user confirmed a w below 1 s for hosts outside this machine; without it such a crawl
   * is refused (CRAWL_SHORT_W_UNCONFIRMED).
   */
  allowShortW?: boolean;
  /** Keep raw requests, responses and bodies (for a WARC export), within contentBudget bytes. */
  storeContent?: boolean;
  contentBudget?: number;
  /** Read each site's sitemaps and crawl what they list (default false: links only). */
  sitemaps?: boolean;
  /** A site whose certificate fails: 'record' (default) fetches it and records the problem; 'verify' refuses it. */
  tls?: 'verify' | 'record';
  /** The text of a CA file (PEM certificates) to trust besides Node's and the system's; kept with the crawl. */
  caPem?: string;
}

export type StatsEvent = {
  crawlId: string;
  at: number;
  elapsedSeconds: number;
  pages: number;
  pagesPerSecond: number;
  bytes: number;
  bytesPerSecond: number;
  openConnections: number;
  r: number;
  sitesWithPending: number;
  queued: number;
  errors: Record<string, number>;
  errorTotal: number;
  pagerankEstimate: number | null;
  rssBytes: number;
  /** The crawl's running time over all its runs (pauses excluded): the x of its stored timeline. */
  crawlSeconds: number;
  /** Policies guided by an earlier crawl: this crawl's pages found in it so far; null for other policies. */
  historyMatched: number | null;
};

/** One stored stats sample (see StatsEvent); `t` is the crawl's running time in seconds. */
export interface TimelinePoint {
  t: number;
  at: number;
  pages: number;
  bytes: number;
  pagesPerSecond: number;
  bytesPerSecond: number;
  openConnections: number;
  r: number;
  sitesWithPending: number;
  queued: number;
  errors: number;
  pagerankEstimate: number | null;
}

/** A crawl's stored timeline, thinned to at most the points asked for; `stored` false for crawls made before it existed. */
export interface Timeline {
  stored: boolean;
  points: TimelinePoint[];
}

export interface CrawlStateEvent {
  crawlId: string;
  status: CrawlStatus;
  /** Why a run ended: finished, max-pages, paused, disk-full, or the error's message. */
  reason?: string;
}

// ---- sites (the Sites view and Live's top sites) ----
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
// ---- end sites ----

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

// ---- pages (issue 18): search and browse ----
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
// ---- end of pages ----

export interface RecentError {
  url: string;
  code: string;
  httpStatus: number | null;
}

/** A site parked for this crawl (robots.txt unreachable, error budget spent) and the pages it skipped. */
export interface ParkedSiteDto {
  host: string;
  /** CRAWL_ROBOTS_UNAVAILABLE or CRAWL_SITE_PARKED. */
  code: string;
  /** Known pages of the site left unfetched because it was parked. */
  pagesSkipped: number;
  /** The first of those pages (at most the limit asked for). */
  skipped: string[];
}

/** One stored PageRank run (page or site graph), as `crawlbench rank` reports it. */
export interface PageRankRunDto {
  kind: 'page' | 'site';
  runId: number;
  damping: number;
  tolerance: number;
  iterations: number;
  delta: number;
  nodes: number;
  edges: number;
  loadSeconds: number;
  computeSeconds: number;
  storeSeconds: number;
  /** URL (pages) or host (sites) with its value, highest first. */
  top: Array<{ name: string; value: number }>;
}

export interface PageRankResultDto {
  page: PageRankRunDto;
  site?: PageRankRunDto;
}

/**
 * How good a crawl's fetch order was (docs/design.md section 4), as `crawlbench eval` reports
 * it.
 */
export interface EvaluationDto {
  db: string;
  oracle: string | null;
  truth: 'stored' | 'computed' | 'oracle';
  damping: number;
  pagesFetched: number;
  truthCovered: number;
  crawlSeconds: number;
  averageCumulativePageRank: number;
  upperBoundAverage: number;
  kendallTau: number;
  crawlAndStop: Array<{ percent: number; k: number; share: number }>;
  threshold: { g: number; hotPages: number; fetched: Array<{ percent: number; share: number | null }> };
  pagesForPageRank: Array<{ pageRank: number; fractionPages: number | null }>;
  curve: Array<{ fractionPages: number; cumulativePageRank: number; seconds: number; random: number; upperBound: number }>;
}

export const EXPORT_FORMATS = ['warc', 'jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_TABLES = ['pages', 'sites', 'links'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];

/** An export of a crawl, as `crawlbench export` takes it (filters repeatable, as lists). */
export interface ExportRequest {
  format: ExportFormat;
  /** The table for jsonl, csv and parquet (default pages); a WARC holds the fetches. */
  what?: ExportTable;
  /** Site keys (hosts). */
  sites?: string[];
  /** HTTP statuses or classes: '200', '4xx'. */
  statuses?: string[];
  /** Content-type prefixes: 'text/html'. */
  contentTypes?: string[];
  /** Fetch sequence ranges: '1..1000', '500..'. */
  seq?: string[];
  /** WARC: start a new file past this many bytes (default 1 GB). */
  maxFileSize?: number;
  /** WARC: also write a CDXJ index. */
  cdx?: boolean;
  // No path: where an export goes is the host's to say (HostCapabilities.chooseExportTarget);
  // a request naming one (`out`) is refused.
}

export interface ExportFileDto {
  name: string;
  bytes: number;
  /** Where it is on the engine's machine. */
  path: string;
  /** Browser mode: the file's download address on the workbench's own server; null when it has none. */
  href: string | null;
}

/** An export under way or done: its progress (also sent as exportProgress events) and result. */
export interface ExportJobDto {
  exportId: string;
  crawlId: string;
  format: ExportFormat;
  what: ExportTable;
  state: 'running' | 'finished' | 'failed' | 'cancelled';
  /** Rows read (for WARC: the crawl's fetches), of total. */
  done: number;
  total: number;
  unit: ExportTable;
  bytesWritten: number;
  /** Seconds left at the pace so far; null until it can be told. */
  etaSeconds: number | null;
  startedAt: string;
  endedAt: string | null;
  files: ExportFileDto[];
  warnings: string[];
  error: WireError | null;
}

/** How an error crosses any transport. `code` is a stable CrawlError code (e.g. CRAWL_BAD_SEED). */
export interface WireError {
  name: string;
  code: string;
  message: string;
  /** The request field the error is about (e.g. 'w', 'policyParams.alpha'), for showing it at the field. */
  field?: string;
}

export type Unsubscribe = () => void;

/**
 * A crawl's settings in the New crawl form's terms (what "Crawl again" fills in). Times in
 * milliseconds, as in CreateCrawlRequest.
 */
export interface CrawlSettingsDto {
  id: string;
  seeds: string[];
  scope: { suffixes: string[]; hosts: string[]; excludes: string[] };
  /** Seed-box text that gives these seeds and scope again; empty for a demo crawl (its web gives them). */
  seedText: string;
  siteKey: 'host' | 'domain';
  policy: string;
  /** The policy's parameters, without the history crawl's file (that is historyCrawl). */
  policyParams: Record<string, unknown>;
  /** The crawl of this workspace whose data guided the policy; null when none (or a file elsewhere). */
  historyCrawl: string | null;
  w: number;
  c: number;
  r: number;
  batch: number | null;
  maxPages: number | null;
  maxDepth: number;
  maxPagesPerSite: number;
  userAgent: string;
  storeContent: boolean;
  contentBudget: number;
  /** Sitemaps read (robots.txt Sitemap: lines and /sitemap.xml), their URLs crawled. */
  sitemaps: boolean;
  /** How certificates were treated, and the CA certificates (PEM) the crawl also trusted (null: none). */
  tls: 'verify' | 'record';
  caPem: string | null;
  /**
   * The demo web crawled (revision 2: the same web months later); null for a crawl of seeds.
   * `pages` is the spec's (revision 1's size); `webPages` the pages of the web crawled (revision
   * 2 has more or fewer), null where not known (a revision-2 crawl made before it was kept).
   */
  demoWeb: { sites: number; pages: number; latencyMs: number; revision: 1 | 2; webPages: number | null } | null;
}

/** A comparison of two crawls of the workspace, named by id. */
export interface CompareRequest {
  /** Chosen by the caller, to follow its progress events and to cancel it. */
  jobId?: string;
  /** Risers, fallers, sites and added, removed, changed pages listed (default 20). */
  top?: number;
  /** Per-page figures for this host only. */
  host?: string;
}

export interface CompareProgressEvent {
  jobId: string;
  step: string;
  /** 0..1 of the whole comparison. */
  fraction: number;
}

/** A partitioning of a crawl of the workspace among K processors (`crawlbench partition`). */
export interface PartitionRequest {
  /** Chosen by the caller, to follow its progress events and to cancel it. */
  jobId?: string;
  models: GraphModel[];
  /** The values of K (each 2 .. the vertices of every model). */
  parts: number[];
  /** Seeds per partitioner and K (default 4). */
  runs?: number;
}

/** One finished step of a partitioning: a hash baseline or one partitioner run. */
export interface PartitionProgressEvent {
  jobId: string;
  crawlId: string;
  done: number;
  total: number;
  step: string;
}

/** A model of a crawl's graph written in one format (`crawlbench export-graph`). */
export interface GraphExportRequest {
  model: GraphModel;
  format: GraphFormat;
}

export interface GraphExportDto {
  model: GraphModel;
  format: GraphFormat;
  vertices: number;
  edges: number;
  /** Bytes per unit of the vertex sizes written (1024: KB). */
  sizeUnit: number;
  /** The graph file, then its id map. */
  files: Array<{ name: string; bytes: number; path: string; href: string | null }>;
}

// ---- results (issue 18, the Results view) ----------------------------------------------
/** One stored PageRank run read back as it is kept in the crawl file (no times: those are of the computation). */
export interface StoredPageRankRunDto {
  kind: 'page' | 'site';
  runId: number;
  damping: number;
  tolerance: number;
  iterations: number;
  nodes: number;
  edges: number;
  /** ISO time the run was stored. */
  createdAt: string;
  /** False when the crawl has changed since (more pages, or fetches after it): its values are of an older snapshot. */
  current: boolean;
  /** URL (pages) or host (sites) with its value, highest first. */
  top: Array<{ name: string; value: number }>;
}

/** The latest stored PageRank runs of a crawl (pageRankResult), shown without recomputing. */
export interface StoredPageRankDto {
  page: StoredPageRankRunDto;
  site: StoredPageRankRunDto | null;
}
/** How far a PageRank computation or an evaluation of a crawl is (sent as analysisProgress events). */
export interface AnalysisProgressEvent {
  crawlId: string;
  what: 'pagerank' | 'evaluation';
  /** 0..1 of the whole computation. */
  fraction: number;
  /** The step under way, in words. */
  step: string;
}
// ---- end of results ---------------------------------------------------------------------

// ---- simulate (issue 18, the simulator in the window) -----------------------------------
/** A graph the simulator can replay: a crawl of the workspace or a dataset folder under the datasets directory. */
export interface SimulationSourceDto {
  kind: 'crawl' | 'dataset';
  /** The crawl's id or the dataset folder's name (never a path). */
  id: string;
  /** Pages and sites where known cheaply (a crawl's counts); null for a dataset folder (known once read). */
  pages: number | null;
  sites: number | null;
  /** Bytes on disk (the crawl file, or the dataset's two files). */
  bytes: number;
}

export interface SimulationSourcesDto {
  crawls: SimulationSourceDto[];
  datasets: SimulationSourceDto[];
  /** Where the engine looks for dataset folders (copy or link a folder there to add one). */
  datasetsDir: string;
  /** The simulator's policies (the crawler's and the references that need the true PageRank). */
  policies: Array<{ name: string; summary: string }>;
}

/** A simulation as `crawlbench simulate` takes it (one r, c and bandwidth; times in ms, bandwidth in bytes/s). */
export interface SimulationRequest {
  source: { kind: 'crawl' | 'dataset'; id: string };
  /** Policy names, or 'all' (every policy the simulator knows; topic only with a topic). */
  policies: string[];
  r?: number;
  w?: number;
  c?: number;
  /** The crawler's bandwidth in bytes/s; null or absent: unlimited. */
  bandwidth?: number | null;
  /** Simulated latency and transfer rates (false: order only). */
  latency?: boolean;
  /** Seed of the drawn latencies, rates and page sizes. */
  networkSeed?: number;
  batch?: number | null;
  maxPages?: number | null;
  maxPagesPerSite?: number | null;
  siteKey?: 'host' | 'domain';
  perIp?: boolean;
  /** The topic word of the topic policy. */
  topic?: string;
  /** Share of the pages a derived earlier crawl keeps, for the historical policies (default 0.55). */
  historyShare?: number;
  /** A crawl of the workspace whose PageRank the historical policies use instead. */
  historyCrawl?: string;
  /** Start URLs (pages of the graph); default every site's home page. */
  seeds?: string[];
}

/** One policy's outcome, as `crawlbench simulate --json` gives it. */
export interface SimulationOutcomeDto {
  policy: string;
  pagesFetched: number;
  averageCumulativePageRank: number;
  upperBoundAverage: number;
  kendallTau: number | null;
  pagesAt: Array<{ share: number; pages: number | null; fraction: number | null }>;
  pageRankCovered: number;
  simulatedSeconds: number;
  meanOpenConnections: number;
  connections: number;
  wallSeconds: number;
  /** At most about 400 points. */
  curve: Array<{ fractionPages: number; cumulativePageRank: number; seconds: number }>;
  /** Open connections over simulated ms (at most about 2,000 points). */
  openSeries: { t: number[]; open: number[] };
}

export interface SimulationReportDto {
  graph: string;
  pages: number;
  links: number;
  sites: number;
  seeds: number;
  reachable: number;
  addresses: number | null;
  /** bandwidth null: unlimited. */
  settings: { r: number; w: number; c: number; bandwidth: number | null; latency: boolean; networkSeed: number; batch: number | null; perIp: boolean };
  history: { source: string; pages: number } | null;
  loadSeconds: number;
  policies: SimulationOutcomeDto[];
}

export type SimulationState = 'running' | 'finished' | 'failed' | 'cancelled';

export interface SimulationProgressEvent {
  simulationId: string;
  state: SimulationState;
  /** Pages simulated so far over all policies, of total (policies x the pages each can fetch). */
  done: number;
  total: number;
  step: string;
  /** 0..1 */
  fraction: number;
}

/** A simulation under way or kept (WORKSPACE/simulations/ID.json); `report` only from getSimulation of a finished one. */
export interface SimulationDto {
  simulationId: string;
  state: SimulationState;
  /** The request with every default filled in and the policies expanded. */
  request: SimulationRequest & Required<Pick<SimulationRequest, 'r' | 'w' | 'c' | 'latency' | 'networkSeed' | 'siteKey' | 'perIp'>>;
  startedAt: string;
  finishedAt: string | null;
  progress: SimulationProgressEvent | null;
  error: WireError | null;
  /** The graph's pages (known once loaded). */
  pages: number | null;
  report: SimulationReportDto | null;
}
// ---- end of simulate --------------------------------------------------------------------

export interface CrawlbenchApi {
  listPolicies(): Promise<PolicyDescription[]>;
  /** Reads seed text (at most API_LIMITS.seedTextChars), or an upload of it. */
  parseSeeds(source: string | { uploadId: string }): Promise<ParsedSeeds>;
  /**
   * Appends one chunk (at most API_LIMITS.seedChunkChars) to a seed upload: part 0 starts it
   * (again), then 1, 2, ... in order, up to API_LIMITS.seedUploadChars in all. A seed file too
   * large for one message goes up so, then parseSeeds({ uploadId }) and
   * createCrawl({ seedUploadId }) read it. Unused uploads are dropped after a while.
   */
  uploadSeeds(uploadId: string, chunk: string, part: number): Promise<SeedUploadDto>;
  /** The server is up: its process, uptime and the crawls it is attached to (answers even while crawls run). */
  health(): Promise<HealthDto>;
  listCrawls(): Promise<CrawlInfo[]>;
  createCrawl(req: CreateCrawlRequest): Promise<CrawlInfo>;
  /** The settings a crawl was created with, as New crawl takes them (for "Crawl again"). */
  crawlSettings(crawlId: string): Promise<CrawlSettingsDto>;
  /** Runs a created, paused or interrupted crawl (reopening its file). */
  start(crawlId: string, overrides?: { maxPages?: number | null }): Promise<CrawlInfo>;
  /** Stops taking work; resolves once open connections have finished and the batch is committed. */
  pause(crawlId: string): Promise<CrawlInfo>;
  resume(crawlId: string): Promise<CrawlInfo>;
  /**
   * Ends the crawl for good (after the UI's confirmation): a running one is paused first; it is
   * recorded as stopped by the user, gets its read indexes, and can no longer be resumed.
   */
  stop(crawlId: string): Promise<CrawlInfo>;
  /** Refuses a running crawl (CRAWL_DB_LOCKED). */
  deleteCrawl(crawlId: string): Promise<void>;
  /** The last stats snapshot of a running crawl, or null. */
  currentStats(crawlId: string): Promise<StatsEvent | null>;
  listSites(crawlId: string, query?: SitesQuery): Promise<SitesPage>;
  /** A page and its links; the third argument is the old link limit or which links to list. */
  getPage(crawlId: string, url: string, links?: number | PageLinksQuery): Promise<PageDetail | null>;
  /** Pages of a crawl found by URL text, site, status, type and depth, sorted and paged in the engine. */
  searchPages(crawlId: string, query?: PageSearchQuery): Promise<PageSearchDto>;
  recentErrors(crawlId: string, limit?: number): Promise<RecentError[]>;
  /** The crawl's stored stats samples from its start (at most maxPoints, evenly thinned). */
  timeline(crawlId: string, maxPoints?: number): Promise<Timeline>;
  /** Parked sites with the pages they skipped (up to `limit` URLs each). */
  parkedSites(crawlId: string, limit?: number): Promise<ParkedSiteDto[]>;
  runPageRank(crawlId: string): Promise<PageRankResultDto>;
  /** The latest stored PageRank runs of a crawl with their top pages and sites (top 20), or null when none is stored; computes nothing. */
  pageRankResult(crawlId: string): Promise<StoredPageRankDto | null>;
  /** Cancels the PageRank or evaluation of the crawl under way (it then fails with CRAWL_CANCELLED). */
  cancelAnalysis(crawlId: string): Promise<void>;
  /** Progress of runPageRank and runEvaluation, per crawl. */
  onAnalysisProgress(cb: (e: AnalysisProgressEvent) => void): Unsubscribe;
  runEvaluation(crawlId: string, opts?: { oracle?: string; threshold?: number; points?: number }): Promise<EvaluationDto>;
  /**
   * Starts an export of a crawl (a running one is exported as of this moment) and returns at
   * once; progress comes as exportProgress events and from listExports. A bad request is
   * refused here, with the field named.
   */
  startExport(crawlId: string, req: ExportRequest): Promise<{ exportId: string }>;
  /** Stops an export under way; its partial files are removed. Returns its final state. */
  cancelExport(exportId: string): Promise<ExportJobDto>;
  /** Exports of a crawl (or of all crawls), newest first: those of this session and the finished ones kept in the workspace. */
  listExports(crawlId?: string): Promise<ExportJobDto[]>;
  onExportProgress(cb: (e: ExportJobDto) => void): Unsubscribe;
  /** Compares crawl b with crawl a (computed in the engine; progress as compareProgress events). */
  compareCrawls(a: string, b: string, opts?: CompareRequest): Promise<CompareReport>;
  /** Cancels a comparison under way (it then fails with CRAWL_CANCELLED). */
  cancelCompare(jobId: string): Promise<void>;
  onCompareProgress(cb: (e: CompareProgressEvent) => void): Unsubscribe;
  /**
   * Partitions a crawl's graph with gpmetis, Zoltan PHG (and KaHyPar where installed) beside hashing (computed in the engine,
   * the partitioners as child processes; progress as partitionProgress events). A partitioner
   * that is not installed leaves its rows out and says how to get it in the report's tools.
   */
  partitionCrawl(crawlId: string, req: PartitionRequest): Promise<PartitionReport>;
  /** Cancels a partitioning under way (the running partitioner is killed; it fails with CRAWL_CANCELLED). */
  cancelPartition(jobId: string): Promise<void>;
  /** Writes one model of a crawl's graph, with its id map, under the workspace's exports folder. */
  exportGraph(crawlId: string, req: GraphExportRequest): Promise<GraphExportDto>;
  onPartitionProgress(cb: (e: PartitionProgressEvent) => void): Unsubscribe;
  onStats(cb: (s: StatsEvent) => void): Unsubscribe;
  onCrawlState(cb: (e: CrawlStateEvent) => void): Unsubscribe;
  // simulate: the simulator in a worker thread of the engine; runs kept as files in WORKSPACE/simulations.
  /** The crawls of the workspace and the dataset folders of the datasets directory. */
  listSimulationSources(): Promise<SimulationSourcesDto>;
  /** Checks the request and starts the simulation in a worker thread; returns at once (progress as simulationProgress events). */
  startSimulation(req: SimulationRequest): Promise<{ simulationId: string }>;
  /** Stops a simulation under way (its worker is ended; no file is kept). Returns its final state. */
  cancelSimulation(simulationId: string): Promise<SimulationDto>;
  /** Simulations of this session and those kept in the workspace, newest first (without their reports). */
  listSimulations(): Promise<SimulationDto[]>;
  /** One simulation with its report (a kept one is read from its file). */
  getSimulation(simulationId: string): Promise<SimulationDto>;
  /** Removes a kept simulation's file (refused while it runs). */
  deleteSimulation(simulationId: string): Promise<void>;
  onSimulationProgress(cb: (e: SimulationProgressEvent) => void): Unsubscribe;
}

/** Methods that return a promise: the only names a transport will dispatch. */
export const API_METHODS = [
  'listPolicies',
  'parseSeeds',
  'uploadSeeds',
  'health',
  'listCrawls',
  'createCrawl',
  'crawlSettings',
  'start',
  'pause',
  'resume',
  'stop',
  'deleteCrawl',
  'currentStats',
  'listSites',
  'getPage',
  'searchPages',
  'recentErrors',
  'parkedSites',
  'timeline',
  'runPageRank',
  'pageRankResult',
  'cancelAnalysis',
  'runEvaluation',
  'startExport',
  'cancelExport',
  'listExports',
  'compareCrawls',
  'cancelCompare',
  'partitionCrawl',
  'cancelPartition',
  'exportGraph',
  'listSimulationSources', 'startSimulation', 'cancelSimulation', 'listSimulations', 'getSimulation', 'deleteSimulation',
] as const satisfies ReadonlyArray<keyof CrawlbenchApi>;
export type ApiMethod = (typeof API_METHODS)[number];

/** Event names on the wire, and the subscription method each one feeds. */
export const API_EVENTS = { stats: 'onStats', crawlState: 'onCrawlState', compareProgress: 'onCompareProgress', exportProgress: 'onExportProgress', partitionProgress: 'onPartitionProgress', analysisProgress: 'onAnalysisProgress', simulationProgress: 'onSimulationProgress' } as const;
export type ApiEvent = keyof typeof API_EVENTS;

/** Where the engine proposes to write an export, for the host to confirm or replace. */
export interface ExportTargetRequest {
  crawlId: string;
  format: ExportFormat;
  what: ExportTable;
  /** A folder (WARC files) or one file. */
  folder: boolean;
  /** The file or folder name the engine suggests, with its extension. */
  suggestedName: string;
  /** The place in the workspace's exports folder (browser mode downloads from there). */
  defaultOut: string;
}

export interface ExportTarget {
  out: string;
  /** Replace what is there (a save dialog asked the user already). */
  replace: boolean;
}

/**
 * What the engine asks of the program that hosts it: the desktop app (Electron's main
 * process) or browser mode's server. Both implement every capability; the transports carry
 * the engine's question to the host and its answer back, knowing nothing of either.
 */
export interface HostCapabilities {
  /** Where an export goes: a save dialog in the desktop app (null: closed without a choice), the workspace's exports folder in browser mode. */
  chooseExportTarget(req: ExportTargetRequest): Promise<ExportTarget | null>;
}

export const HOST_CAPABILITIES = ['chooseExportTarget'] as const satisfies ReadonlyArray<keyof HostCapabilities>;
