/**
 * The fields a reader may ask of pages and sites, named as the code names them, with the
 * SQL that reads each as of a snapshot. Why a fixed table: a stream asks for only the fields
 * it needs (a million twenty-field objects cost more than the read itself), and every column
 * name that reaches SQL comes from here, never from a caller.
 *
 * Pages as of the snapshot: a page whose fetch was stored after it (fetch_seq > @s) reads
 * as not yet fetched: status 'queued' and every field its fetch wrote null. Other changes
 * carry no sequence number and read as stored now: a page finished without a fetch
 * (skipped, disallowed, failed for good), its attempts, a requeued page's depth.
 */
import type { PageStatus } from './crawl-state.js';

export interface PageRecord {
  id: number;
  /** Canonical URL. */
  url: string;
  siteId: number;
  depth: number;
  /** The page through which it was discovered (null for seeds). */
  parentId: number | null;
  redirects: number;
  status: PageStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  contentHash: string | null;
  duplicateOf: number | null;
  title: string | null;
  /** 1 when the page asked not to be indexed, 0 when not, null before its fetch. */
  noindex: number | null;
  errorCode: string | null;
  attempts: number;
  /** 1, 2, 3... in the order fetch results were stored; null while not fetched. */
  fetchSeq: number | null;
  /** Epoch ms. */
  fetchedAt: number | null;
  responseMs: number | null;
}

export type PageField = keyof PageRecord;

export interface SiteRecord {
  id: number;
  /** The site key (host, or registrable domain). */
  host: string;
  ip: string | null;
  pagesKnown: number;
  pagesFetched: number;
  pagesFailed: number;
  bytes: number;
  connections: number;
  requests: number;
  /** EWMAs (alpha 0.8) of connect time, response time and requests per connection. */
  connectMs: number | null;
  responseMs: number | null;
  requestsPerConn: number | null;
  consecutiveErrors: number;
  errors: number;
  crawlDelayMs: number | null;
  /** Epoch ms: backoff after errors. */
  notBefore: number | null;
  /** The error code that parked the site, or null. */
  parked: string | null;
  /** Schemes the site was reached over, as bits: 1 http, 2 https. */
  schemes: number;
  /** Its certificate as last found over https: 'ok' or a CRAWL_TLS_ code; null: never reached over https. */
  tls: string | null;
}

export type SiteField = keyof SiteRecord;

/** A column its fetch wrote: null for a page fetched after the snapshot. */
const fetched = (column: string) => `CASE WHEN fetch_seq > @s THEN NULL ELSE ${column} END`;

const PAGE_SQL: Record<PageField, string> = {
  id: 'id',
  url: 'url',
  siteId: 'site_id',
  depth: 'depth',
  parentId: 'parent_id',
  redirects: 'redirects',
  status: "CASE WHEN fetch_seq > @s THEN 'queued' ELSE status END",
  httpStatus: fetched('http_status'),
  contentType: fetched('content_type'),
  bytes: fetched('bytes'),
  contentHash: fetched('content_hash'),
  duplicateOf: fetched('duplicate_of'),
  title: fetched('title'),
  noindex: fetched('noindex'),
  errorCode: fetched('error_code'),
  attempts: 'attempts',
  fetchSeq: fetched('fetch_seq'),
  fetchedAt: fetched('fetched_at'),
  responseMs: fetched('response_ms'),
};

const SITE_SQL: Record<SiteField, string> = {
  id: 'id',
  host: 'host',
  ip: 'ip',
  pagesKnown: 'pages_known',
  pagesFetched: 'pages_fetched',
  pagesFailed: 'pages_failed',
  bytes: 'bytes',
  connections: 'connections',
  requests: 'requests',
  connectMs: 'connect_ms',
  responseMs: 'response_ms',
  requestsPerConn: 'requests_per_conn',
  consecutiveErrors: 'consecutive_errors',
  errors: 'errors',
  crawlDelayMs: 'crawl_delay_ms',
  notBefore: 'not_before',
  parked: 'parked',
  schemes: 'schemes',
  tls: 'tls',
};

/** The schemes a site's `schemes` bits stand for (1 http, 2 https), in that order. */
export function schemeNames(bits: number): Array<'http' | 'https'> {
  const out: Array<'http' | 'https'> = [];
  if (bits & 1) out.push('http');
  if (bits & 2) out.push('https');
  return out;
}

/** Every page field, for a caller that wants whole records. */
export const PAGE_FIELDS = Object.keys(PAGE_SQL) as PageField[];
export const SITE_FIELDS = Object.keys(SITE_SQL) as SiteField[];

/** `expr AS "field", ...` for pages (table alias optional); throws on a field not in the table. */
export function pageSelect(fields: readonly PageField[]): string {
  return select(fields, PAGE_SQL, 'page');
}

export function siteSelect(fields: readonly SiteField[]): string {
  return select(fields, SITE_SQL, 'site');
}

function select<F extends string>(fields: readonly F[], table: Record<F, string>, what: string): string {
  if (fields.length === 0) throw new TypeError(`ask for at least one ${what} field`);
  return fields
    .map((f) => {
      const sql = Object.hasOwn(table, f) ? table[f] : undefined;
      if (sql === undefined) throw new TypeError(`no ${what} field ${f}`);
      return `${sql} AS "${f}"`;
    })
    .join(', ');
}
