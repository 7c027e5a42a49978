/**
 * The crawl database's rows as the engine writes and reads them (crawl-store.ts), and the
 * statements that write them: run on the store's connection, or handed to the writer thread
 * (store-writes.ts).
 */
import type { PageStatus } from './crawl-state.js';
import type { PageRecord } from './record-fields.js';

/** A stored link with its target page (CrawlStore.linksToLower). */
export interface PageLink {
  dst: number;
  url: string;
  depth: number;
  redirects: number;
  errorCode: string | null;
  anchor: string | null;
  nofollow: number;
  kind: string;
}

export interface SiteRow {
  id: number;
  host: string;
  ip: string | null;
  pages_known: number;
  pages_fetched: number;
  pages_failed: number;
  bytes: number;
  connections: number;
  requests: number;
  connect_ms: number | null;
  response_ms: number | null;
  requests_per_conn: number | null;
  consecutive_errors: number;
  errors: number;
  crawl_delay_ms: number | null;
  not_before: number | null;
  parked: string | null;
  /** Schemes the site was reached over, as bits: 1 http, 2 https (schema 7). */
  schemes: number;
  /** Its certificate as last found over https: 'ok' or a CRAWL_TLS_ code; null: never reached over https. */
  tls: string | null;
}

/** A page as it is first stored: its record's discovery fields. */
export type NewPage = Pick<PageRecord, 'id' | 'url' | 'siteId' | 'depth' | 'parentId' | 'redirects' | 'status'> & { errorCode?: string | null };

export interface FetchRecord {
  status: PageStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number;
  contentHash: string | null;
  duplicateOf: number | null;
  title: string | null;
  noindex: boolean;
  errorCode: string | null;
  attempts: number;
  fetchedAt: number;
  responseMs: number | null;
  /** The validators the server sent (ETag, Last-Modified), for a later conditional recrawl. */
  etag?: string | null;
  lastModified?: string | null;
  /** A 304 to a conditional request: content hash, size, title and links are the history crawl's. */
  notModified?: boolean;
}

export interface NewLink {
  dst: number;
  anchor: string | null;
  nofollow: boolean;
  kind: string;
}

/** Link rows per multi-row INSERT. */
export const LINK_ROWS = 32;

/**
 * The links of one page (schema 12, migrations/012-links-by-fetch.ts): the table is keyed by
 * (seq, dst), seq being the fetch_seq of the fetch that stored them, or minus the page's id
 * for links stored without a fetch (every sitemap link: sitemap-store.ts). So a page's links are
 * read by two key lookups: SQL for `alias`'s rows of the page whose id is the named parameter
 * `param` (as @name).
 */
export function linksOfPage(alias: string, param: string): string {
  return `${alias}.seq IN ((SELECT fetch_seq FROM pages WHERE id = ${param}), -${param}) AND ${alias}.src = ${param}`;
}

export interface FrontierRow {
  page_id: number;
  site_id: number;
  priority: number;
  url: string;
  depth: number;
  redirects: number;
  attempts: number;
}

export interface RobotsRow {
  origin: string;
  site_id: number;
  state: 'rules' | 'allow-all' | 'unavailable';
  http_status: number | null;
  body: string | null;
  fetched_at: number;
  attempts: number;
}

/**
 * A discovered page's row and its frontier entry, the two inserts discovery makes for each new
 * URL: a writer thread runs each page's new rows of them as multi-row INSERTs (row-groups.ts).
 * Neither table's rows depend on the other's (pages refers to sites only, frontier to nothing),
 * so their rows may run in either order; every other write runs after the rows written before it.
 */
export const ROWS_WRITES: ReadonlySet<keyof typeof WRITE_SQL> = new Set(['insertPage', 'enqueue'] as const);

/** The writes of a crawl, by name: run on the store's connection or handed to the writer thread (store-writes.ts). */
export const WRITE_SQL = {
  setMeta: 'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  addCounter: 'INSERT INTO counters(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value',
  insertSite: 'INSERT INTO sites(id, host) VALUES (?, ?)',
  // Positional, as recordFetch: every commit saves each site touched since the last one.
  saveSite: `UPDATE sites SET ip = ?, pages_known = ?, pages_fetched = ?,
    pages_failed = ?, bytes = ?, connections = ?, requests = ?,
    connect_ms = ?, response_ms = ?, requests_per_conn = ?,
    consecutive_errors = ?, errors = ?, crawl_delay_ms = ?,
    not_before = ?, parked = ?, schemes = ?, tls = ? WHERE id = ?`,
  setDepth: 'UPDATE pages SET depth = ? WHERE id = ?',
  requeue: "UPDATE pages SET status = 'queued', error_code = NULL, depth = ? WHERE id = ?",
  insertPage: `INSERT INTO pages(id, url, site_id, depth, parent_id, redirects, status, error_code)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  // Positional parameters: binding an object by name costs more than the UPDATE's own work here.
  recordFetch: `UPDATE pages SET status = ?, http_status = ?, content_type = ?,
    bytes = ?, content_hash = ?, duplicate_of = ?, title = ?, noindex = ?,
    error_code = ?, attempts = ?, fetch_seq = ?, fetched_at = ?, response_ms = ?,
    etag = ?, last_modified = ?, not_modified = ?
    WHERE id = ?`,
  setPageStatus: 'UPDATE pages SET status = ?, error_code = ?, attempts = ? WHERE id = ?',
  setAttempts: 'UPDATE pages SET attempts = ?, error_code = ? WHERE id = ?',
  enqueue: 'INSERT OR REPLACE INTO frontier(page_id, site_id, priority) VALUES (?, ?, ?)',
  dequeue: 'DELETE FROM frontier WHERE page_id = ?',
  setPriority: 'UPDATE frontier SET priority = ? WHERE page_id = ?',
  insertHash: 'INSERT INTO content_claims(hash, page_id) VALUES (?, ?)',
  putRobots: `INSERT INTO robots(origin, site_id, state, http_status, body, fetched_at, attempts)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(origin) DO UPDATE SET state = excluded.state, http_status = excluded.http_status,
    body = excluded.body, fetched_at = excluded.fetched_at, attempts = excluded.attempts`,
  insertContent: `INSERT OR REPLACE INTO content(page_id, segment, offset, request_len, response_header_len, body_len, raw)
    VALUES (?, ?, ?, ?, ?, ?, 1)`,
  insertRobotsContent: `INSERT INTO robots_content(site_id, url, after_seq, http_status, fetched_at,
    segment, offset, request_len, response_header_len, body_len) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  event: 'INSERT INTO events(at, kind, site_id, page_id, code, message) VALUES (?, ?, ?, ?, ?, ?)',
} as const;

/** A page's row as the crawl reads it back: what discovery, sessions and shorter paths ask. */
export interface PageState {
  url: string;
  redirects: number;
  depth: number;
  status: PageStatus;
  errorCode: string | null;
  attempts: number;
}

