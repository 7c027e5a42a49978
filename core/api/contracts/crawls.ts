/**
 * Crawls: the workspace's crawls, New crawl (policies, seeds, create) and a crawl's life (start,
 * pause, resume, stop, delete).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { Unsubscribe } from './shared.js';

/**
 * 'paused': resumable; 'stopped': ended for good by the user (analyses run on it, no resume);
 * 'interrupted': the process died mid-run (resumable from its file); 'starting': its process
 * runs and opens the crawl (its frontier loaded, its policy replayed: a minute and more for
 * millions of fetched pages), 'running' once it crawls. 'upgrading': a crawl file of an earlier
 * crawlbench being brought up to this version's schema in a process of its own (minutes for
 * millions of pages); its reads, its start and the jobs on it are refused with
 * CRAWL_DB_UPGRADING until a crawlState event gives its status again.
 */
export type CrawlStatus = 'created' | 'starting' | 'running' | 'pausing' | 'paused' | 'stopped' | 'finished' | 'interrupted' | 'unreadable' | 'upgrading';

/** A crawl whose file can be read now (not 'unreadable', nor 'upgrading'): what the views offer to open, compare, export. */
export function crawlReadable(c: { status: CrawlStatus }): boolean {
  return c.status !== 'unreadable' && c.status !== 'upgrading';
}

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
  /** Why the file could not be read (status 'unreadable'), or what is done to it (status 'upgrading'). */
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
  /** The policy's parameters, but not `history`: an earlier crawl is historyCrawl (refused here, CRAWL_BAD_OPTION). */
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

export interface CrawlStateEvent {
  crawlId: string;
  status: CrawlStatus;
  /** Why a run ended: finished, max-pages, paused, disk-full, or the error's message. */
  reason?: string;
}

/** What the Crawls feature asks of the engine. */
export interface CrawlsApi {
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
  onCrawlState(cb: (e: CrawlStateEvent) => void): Unsubscribe;
}

/** The Crawls methods a transport dispatches (those that return a promise). */
export const CRAWLS_METHODS = ['listPolicies', 'parseSeeds', 'uploadSeeds', 'health', 'listCrawls', 'createCrawl', 'crawlSettings', 'start', 'pause', 'resume', 'stop', 'deleteCrawl'] as const satisfies ReadonlyArray<keyof CrawlsApi>;
/** The Crawls events on the wire, and the subscription each one feeds. */
export const CRAWLS_EVENTS = { crawlState: 'onCrawlState' } as const satisfies Record<string, keyof CrawlsApi>;
