/**
 * The one typed contract between a user interface and the engine. Every transport
 * (in-process, WebSocket for browser mode, Electron IPC) implements CrawlbenchApi and passes
 * the same contract tests. Everything in and out is plain JSON, so that it can cross a
 * socket, a MessagePort or contextBridge unchanged. This file is browser-safe: types and two
 * constant lists only; it imports only other browser-safe modules (the comparison's report types).
 */
import type { CompareReport } from '../compare/report.js';

export type { CompareReport } from '../compare/report.js';

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
  /** Why the file could not be read (status 'unreadable'). */
  problem?: string;
}

export interface PolicyParam {
  name: string;
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

export interface CreateCrawlRequest {
  /** File name in the workspace (without .db); default: crawl-<timestamp>. */
  name?: string;
  /** URLs, host names, or domain suffixes (".cl", ".uchile.cl"), one per line; or a file's text. */
  seedText?: string;
  /** Start the built-in test web in-process on 127.0.0.1 and crawl it (fills seeds, scope, resolve). */
  demoWeb?: boolean | { sites?: number; pages?: number; latencyMs?: number; revision?: 1 | 2 };
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

export interface PageFetchedEvent {
  crawlId: string;
  url: string;
  status: string;
}

export const SITE_SORT_KEYS = [
  'host',
  'pages_fetched',
  'pages_known',
  'bytes',
  'errors',
  'connect_ms',
  'response_ms',
  'requests_per_conn',
] as const;
export type SiteSortKey = (typeof SITE_SORT_KEYS)[number];

export interface SitesQuery {
  offset?: number;
  limit?: number;
  sort?: SiteSortKey;
  descending?: boolean;
}

export interface SiteRowDto {
  host: string;
  pagesFetched: number;
  pagesKnown: number;
  bytes: number;
  errors: number;
  connectMs: number | null;
  responseMs: number | null;
  requestsPerConn: number | null;
  parked: string | null;
}

export interface SitesPage {
  total: number;
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
  fetchedAt: number | null;
  inLinks: LinkDto[];
  outLinks: LinkDto[];
  /** True when a list was cut at its limit. */
  truncated: boolean;
}

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

/** How good a crawl's fetch order was (design.md section 4), as `crawlbench eval` reports it. */
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

/** Results of export runs (arrives with the export issue): passed through as JSON. */
export type AnalysisResult = Record<string, unknown>;

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
  /** The demo web crawled (revision 2: the same web months later); null for a crawl of seeds. */
  demoWeb: { sites: number; pages: number; latencyMs: number; revision: 1 | 2 } | null;
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

export interface CrawlbenchApi {
  listPolicies(): Promise<PolicyDescription[]>;
  parseSeeds(text: string): Promise<ParsedSeeds>;
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
  getPage(crawlId: string, url: string, limit?: number): Promise<PageDetail | null>;
  recentErrors(crawlId: string, limit?: number): Promise<RecentError[]>;
  /** The crawl's stored stats samples from its start (at most maxPoints, evenly thinned). */
  timeline(crawlId: string, maxPoints?: number): Promise<Timeline>;
  /** Parked sites with the pages they skipped (up to `limit` URLs each). */
  parkedSites(crawlId: string, limit?: number): Promise<ParkedSiteDto[]>;
  runPageRank(crawlId: string): Promise<PageRankResultDto>;
  runEvaluation(crawlId: string, opts?: { oracle?: string; threshold?: number; points?: number }): Promise<EvaluationDto>;
  startExport(crawlId: string, opts?: Record<string, unknown>): Promise<AnalysisResult>;
  /** Compares crawl b with crawl a (computed in the engine; progress as compareProgress events). */
  compareCrawls(a: string, b: string, opts?: CompareRequest): Promise<CompareReport>;
  /** Cancels a comparison under way (it then fails with CRAWL_CANCELLED). */
  cancelCompare(jobId: string): Promise<void>;
  onCompareProgress?(cb: (e: CompareProgressEvent) => void): Unsubscribe;
  onStats(cb: (s: StatsEvent) => void): Unsubscribe;
  onCrawlState(cb: (e: CrawlStateEvent) => void): Unsubscribe;
  onPageFetched?(cb: (e: PageFetchedEvent) => void): Unsubscribe;
}

/** Methods that return a promise: the only names a transport will dispatch. */
export const API_METHODS = [
  'listPolicies',
  'parseSeeds',
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
  'recentErrors',
  'parkedSites',
  'timeline',
  'runPageRank',
  'runEvaluation',
  'startExport',
  'compareCrawls',
  'cancelCompare',
] as const satisfies ReadonlyArray<keyof CrawlbenchApi>;
export type ApiMethod = (typeof API_METHODS)[number];

/** Event names on the wire, and the subscription method each one feeds. */
export const API_EVENTS = { stats: 'onStats', crawlState: 'onCrawlState', pageFetched: 'onPageFetched', compareProgress: 'onCompareProgress' } as const;
export type ApiEvent = keyof typeof API_EVENTS;
