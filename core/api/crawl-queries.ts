/**
 * The API's read-only questions about a crawl database, as contract DTOs: limits clamped
 * and rows mapped here, every query asked of a CrawlReader (core/store/crawl-reader.ts),
 * each on a fresh reader, so a running crawl is read as of its last committed batch.
 */
import { existsSync, statSync } from 'node:fs';
import type { CrawlReader } from '../store/crawl-reader.js';
import type { CrawlSettings } from '../config/settings.js';
import type { CrawlSettingsDto, EndReasonDto, ParkedSiteDto, RecentError } from './contract.js';
import { badField } from '../errors.js';

export interface StoredSummary {
  state: string;
  policy: string | null;
  createdAt: string | null;
  pagesFetched: number;
  pagesKnown: number;
  queued: number;
  sites: number;
  endReason: EndReasonDto | null;
  historyMatched: number | null;
  /** The crawl's running time over all its runs, as stored at its last commit. */
  crawlSeconds: number | null;
  /** Errors counted over the whole crawl (every code). */
  errorTotal: number;
  /** Those errors by code. */
  errors: Record<string, number>;
}

export function storedSummary(reader: CrawlReader): StoredSummary {
  let policy: string | null = null;
  try {
    policy = (JSON.parse(reader.meta('settings') ?? '{}') as { policy?: string }).policy ?? null;
  } catch {
    policy = null;
  }
  const { pagesFetched, pagesKnown, queued, sites } = reader.counts();
  const errors = reader.errorCounts();
  return {
    state: reader.meta('state') ?? 'created',
    policy,
    createdAt: reader.meta('created_at') ?? null,
    pagesFetched,
    pagesKnown,
    queued,
    sites,
    endReason: endReasonOf(reader.meta('end_reason')),
    historyMatched: reader.counter('history:matched') ?? null,
    crawlSeconds: numberOrNull(reader.meta('crawl_seconds')),
    errorTotal: Object.values(errors).reduce((a, b) => a + b, 0),
    errors,
  };
}

function numberOrNull(v: string | undefined): number | null {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : null;
}

function endReasonOf(json: string | undefined): EndReasonDto | null {
  if (!json) return null;
  try {
    const e = JSON.parse(json) as { kind: EndReasonDto['kind']; at?: string; message?: string };
    return { kind: e.kind, at: e.at ?? null, ...(e.message ? { message: e.message } : {}) };
  } catch {
    return null;
  }
}

/** Parked sites and the pages they left unfetched; the UI asks when the error count changes, not every second. */
export function parkedSites(reader: CrawlReader, limit: unknown = 20): ParkedSiteDto[] {
  return reader.parkedSites(limitOf(limit, 20, 0, 'pages per site'));
}

export function fileSize(path: string): number {
  return [path, `${path}-wal`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
}

/** listSites lives in sites-query.ts (filters, states, errors by kind, robots.txt, site PageRank). */
export { sitesPage } from './sites-query.js';

export function recentErrors(reader: CrawlReader, limit: unknown = 20): RecentError[] {
  return reader.recentErrors(limitOf(limit, 20, 1, 'errors')).map((e) => ({ url: e.url, code: e.errorCode, httpStatus: e.httpStatus }));
}

/**
 * A list's limit from the API (undefined or null: `fallback`), in min..200. One that is not a
 * number is refused, naming `limit`: it reached SQLite as one and failed there (recentErrors,
 * found by test/api/api-fuzz.test.ts), or read as NaN, an empty list (parkedSites).
 */
function limitOf(limit: unknown, fallback: number, min: number, what: string): number {
  const n = limit === undefined || limit === null ? fallback : limit;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw badField('limit', `must be a number of ${what}, from ${min} to 200`);
  return Math.min(Math.max(min, Math.floor(n)), 200);
}

/**
 * A crawl's stored settings in New crawl's terms. `demo` is its demo web's spec (from the
 * sidecar), `historyId` names a history file as a crawl of the workspace (null: elsewhere).
 */
export function crawlSettingsDto(reader: CrawlReader, id: string, demo: { sites: number; pages: number; latencyMs: number; revision?: 1 | 2; webPages: number | null } | null, historyId: (path: string) => string | null): CrawlSettingsDto {
  const s = JSON.parse(reader.meta('settings') ?? '{}') as CrawlSettings;
  const { history, ...policyParams } = s.policyParams ?? {};
  const scope = { suffixes: s.scope?.suffixes ?? [], hosts: s.scope?.hosts ?? [], excludes: s.scope?.excludes ?? [] };
  return {
    id,
    seeds: s.seeds ?? [],
    scope,
    // seedSettings (seeds.ts) puts the seeds' own hosts in the scope with suffixes: seeds and suffixes give it all back.
    seedText: demo ? '' : [...(s.seeds ?? []), ...scope.suffixes].join('\n'),
    siteKey: s.siteKey ?? 'host',
    policy: s.policy ?? 'breadth-first',
    policyParams,
    historyCrawl: typeof history === 'string' ? historyId(history) : null,
    w: s.w,
    c: s.c,
    r: s.r,
    batch: s.batch ?? null,
    maxPages: s.maxPages ?? null,
    maxDepth: s.maxDepth,
    maxPagesPerSite: s.maxPagesPerSite,
    userAgent: s.userAgent,
    storeContent: s.storeContent ?? false,
    contentBudget: s.contentBudget,
    sitemaps: s.sitemaps ?? false,
    tls: s.tls ?? 'record',
    caPem: s.ca && s.ca.length > 0 ? s.ca.join('\n') : null,
    demoWeb: demo ? { sites: demo.sites, pages: demo.pages, latencyMs: demo.latencyMs, revision: demo.revision ?? 1, webPages: demo.webPages } : null,
  };
}
