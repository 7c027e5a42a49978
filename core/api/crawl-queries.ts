/**
 * The API's read-only questions about a crawl database, as contract DTOs: limits clamped
 * and rows mapped here, every query asked of a CrawlReader (core/store/crawl-reader.ts),
 * each on a fresh reader, so a running crawl is read as of its last committed batch.
 */
import { existsSync, statSync } from 'node:fs';
import type { CrawlReader } from '../store/crawl-reader.js';
import type { SiteField } from '../store/record-fields.js';
import { canonicalize } from '../url/canonical.js';
import type { CrawlSettings } from '../config/settings.js';
import { SITE_SORT_KEYS, type CrawlSettingsDto, type EndReasonDto, type PageDetail, type ParkedSiteDto, type RecentError, type SiteSortKey, type SitesPage, type SitesQuery } from './contract.js';

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
}

export function storedSummary(reader: CrawlReader): StoredSummary {
  let policy: string | null = null;
  try {
    policy = (JSON.parse(reader.meta('settings') ?? '{}') as { policy?: string }).policy ?? null;
  } catch {
    policy = null;
  }
  const { pagesFetched, pagesKnown, queued, sites } = reader.counts();
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
    errorTotal: Object.values(reader.errorCounts()).reduce((a, b) => a + b, 0),
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
export function parkedSites(reader: CrawlReader, limit = 20): ParkedSiteDto[] {
  return reader.parkedSites(Math.min(Math.max(0, Math.floor(limit)), 200));
}

export function fileSize(path: string): number {
  return [path, `${path}-wal`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
}

/** The contract's sort keys (column names) as the reader's site fields. */
const SORT_FIELDS: Readonly<Record<SiteSortKey, SiteField>> = {
  host: 'host',
  pages_fetched: 'pagesFetched',
  pages_known: 'pagesKnown',
  bytes: 'bytes',
  errors: 'errors',
  connect_ms: 'connectMs',
  response_ms: 'responseMs',
  requests_per_conn: 'requestsPerConn',
};
const SORT_KEYS: ReadonlySet<string> = new Set(SITE_SORT_KEYS);

export function sitesPage(reader: CrawlReader, q: SitesQuery = {}): SitesPage {
  const sort = q.sort && SORT_KEYS.has(q.sort) ? q.sort : 'pages_fetched';
  const fields = ['host', 'pagesFetched', 'pagesKnown', 'bytes', 'errors', 'connectMs', 'responseMs', 'requestsPerConn', 'parked'] as const;
  return {
    total: reader.siteCount(),
    rows: reader.sitesPage(fields, {
      sort: SORT_FIELDS[sort],
      descending: q.descending ?? sort !== 'host',
      limit: Math.min(Math.max(1, Math.floor(q.limit ?? 50)), 500),
      offset: Math.max(0, Math.floor(q.offset ?? 0)),
    }),
  };
}

export function pageDetail(reader: CrawlReader, url: string, limit = 100): PageDetail | null {
  const fields = ['id', 'url', 'status', 'httpStatus', 'title', 'contentType', 'bytes', 'depth', 'errorCode', 'fetchedAt'] as const;
  const asked = url.trim();
  const row = reader.pageByUrl(canonicalize(asked) ?? asked, fields) ?? reader.pageByUrl(asked, fields);
  if (!row) return null;
  const n = Math.min(Math.max(1, limit), 1000);
  const inLinks = reader.linksTo(row.id, n + 1);
  const outLinks = reader.linksFrom(row.id, n + 1);
  return {
    url: row.url,
    status: row.status,
    httpStatus: row.httpStatus,
    title: row.title,
    contentType: row.contentType,
    bytes: row.bytes,
    depth: row.depth,
    errorCode: row.errorCode,
    fetchedAt: row.fetchedAt,
    inLinks: inLinks.slice(0, n),
    outLinks: outLinks.slice(0, n),
    truncated: inLinks.length > n || outLinks.length > n,
  };
}

export function recentErrors(reader: CrawlReader, limit = 20): RecentError[] {
  return reader.recentErrors(Math.min(Math.max(1, limit), 200)).map((e) => ({ url: e.url, code: e.errorCode, httpStatus: e.httpStatus }));
}

/**
 * A crawl's stored settings in New crawl's terms. `demo` is its demo web's spec (from the
 * sidecar), `historyId` names a history file as a crawl of the workspace (null: elsewhere).
 */
export function crawlSettingsDto(reader: CrawlReader, id: string, demo: { sites: number; pages: number; latencyMs: number; revision?: 1 | 2 } | null, historyId: (path: string) => string | null): CrawlSettingsDto {
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
    demoWeb: demo ? { sites: demo.sites, pages: demo.pages, latencyMs: demo.latencyMs, revision: demo.revision ?? 1 } : null,
  };
}
