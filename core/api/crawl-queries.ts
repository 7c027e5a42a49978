/**
 * Read-only questions about a crawl database, asked over a separate read-only connection
 * (WAL lets it read the last committed batch while the crawl writes). Every query is
 * bounded by LIMIT or an index, so none holds the event loop for long.
 */
import { statSync, existsSync } from 'node:fs';
import { openDatabase, type Db } from '../store/database.js';
import { canonicalize } from '../url/canonical.js';
import { SITE_SORT_KEYS, type EndReasonDto, type LinkDto, type PageDetail, type ParkedSiteDto, type RecentError, type SitesPage, type SitesQuery } from './contract.js';

export function withReadonly<T>(path: string, fn: (db: Db) => T): T {
  const { db, release } = openDatabase(path, { readonly: true });
  try {
    return fn(db);
  } finally {
    release();
  }
}

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
}

export function storedSummary(db: Db): StoredSummary {
  const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const q = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0;
  let policy: string | null = null;
  try {
    policy = (JSON.parse((meta.get('settings') as string) ?? '{}') as { policy?: string }).policy ?? null;
  } catch {
    policy = null;
  }
  return {
    state: (meta.get('state') as string | undefined) ?? 'created',
    policy,
    createdAt: (meta.get('created_at') as string | undefined) ?? null,
    pagesFetched: q('SELECT count(*) FROM pages WHERE fetch_seq IS NOT NULL'),
    pagesKnown: q('SELECT count(*) FROM pages'),
    queued: q('SELECT count(*) FROM frontier'),
    sites: q('SELECT count(*) FROM sites'),
    endReason: endReasonOf(meta.get('end_reason') as string | undefined),
    historyMatched: (db.prepare("SELECT value FROM counters WHERE name = 'history:matched'").pluck().get() as number | undefined) ?? null,
  };
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

/**
 * Parked sites and the pages they left unfetched. One pass over the skipped pages of the
 * parked sites (pages has no site index while a crawl runs); the UI asks when the error
 * count changes, not every second.
 */
export function parkedSites(db: Db, limit = 20): ParkedSiteDto[] {
  const sites = db.prepare('SELECT id, host, parked FROM sites WHERE parked IS NOT NULL ORDER BY host LIMIT 1000').all() as Array<{ id: number; host: string; parked: string }>;
  if (sites.length === 0) return [];
  const n = Math.min(Math.max(0, Math.floor(limit)), 200);
  const byId = new Map(sites.map((s) => [s.id, { host: s.host, code: s.parked, pagesSkipped: 0, skipped: [] as string[] }]));
  const rows = db.prepare("SELECT site_id, url FROM pages WHERE status = 'skipped' AND site_id IN (SELECT id FROM sites WHERE parked IS NOT NULL) ORDER BY id").iterate() as Iterable<{ site_id: number; url: string }>;
  for (const r of rows) {
    const site = byId.get(r.site_id);
    if (!site) continue;
    site.pagesSkipped++;
    if (site.skipped.length < n) site.skipped.push(r.url);
  }
  return [...byId.values()];
}

export function fileSize(path: string): number {
  return [path, `${path}-wal`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
}

const SORT_COLUMNS: ReadonlySet<string> = new Set(SITE_SORT_KEYS);

export function sitesPage(db: Db, q: SitesQuery = {}): SitesPage {
  const sort = q.sort && SORT_COLUMNS.has(q.sort) ? q.sort : 'pages_fetched';
  const dir = (q.descending ?? sort !== 'host') ? 'DESC' : 'ASC';
  const limit = Math.min(Math.max(1, Math.floor(q.limit ?? 50)), 500);
  const offset = Math.max(0, Math.floor(q.offset ?? 0));
  // `sort` is one of a fixed list of column names, so interpolating it is safe.
  const rows = db
    .prepare(
      `SELECT host, pages_fetched, pages_known, bytes, errors, connect_ms, response_ms, requests_per_conn, parked
       FROM sites ORDER BY ${sort} ${dir} NULLS LAST, id LIMIT ? OFFSET ?`,
    )
    .all(limit, offset) as Array<Record<string, number | string | null>>;
  return {
    total: db.prepare('SELECT count(*) FROM sites').pluck().get() as number,
    rows: rows.map((r) => ({
      host: r.host as string,
      pagesFetched: r.pages_fetched as number,
      pagesKnown: r.pages_known as number,
      bytes: r.bytes as number,
      errors: r.errors as number,
      connectMs: r.connect_ms as number | null,
      responseMs: r.response_ms as number | null,
      requestsPerConn: r.requests_per_conn as number | null,
      parked: r.parked as string | null,
    })),
  };
}

interface PageRow {
  id: number;
  url: string;
  status: string;
  http_status: number | null;
  title: string | null;
  content_type: string | null;
  bytes: number | null;
  depth: number;
  error_code: string | null;
  fetched_at: number | null;
}

export function pageDetail(db: Db, url: string, limit = 100): PageDetail | null {
  const find = db.prepare('SELECT id, url, status, http_status, title, content_type, bytes, depth, error_code, fetched_at FROM pages WHERE url = ?');
  const row = (find.get(canonicalize(url.trim()) ?? url.trim()) ?? find.get(url.trim())) as PageRow | undefined;
  if (!row) return null;
  const n = Math.min(Math.max(1, limit), 1000);
  const links = (sql: string) => db.prepare(sql).all(row.id, n + 1) as LinkDto[];
  const inLinks = links('SELECT p.url, l.anchor, l.kind FROM links l JOIN pages p ON p.id = l.src WHERE l.dst = ? LIMIT ?');
  const outLinks = links('SELECT p.url, l.anchor, l.kind FROM links l JOIN pages p ON p.id = l.dst WHERE l.src = ? LIMIT ?');
  return {
    url: row.url,
    status: row.status,
    httpStatus: row.http_status,
    title: row.title,
    contentType: row.content_type,
    bytes: row.bytes,
    depth: row.depth,
    errorCode: row.error_code,
    fetchedAt: row.fetched_at,
    inLinks: inLinks.slice(0, n),
    outLinks: outLinks.slice(0, n),
    truncated: inLinks.length > n || outLinks.length > n,
  };
}

export function recentErrors(db: Db, limit = 20): RecentError[] {
  // Walks the fetch_seq index backwards: cheap however large the crawl.
  return (
    db
      .prepare(
        `SELECT url, error_code AS code, http_status AS httpStatus FROM pages
         WHERE fetch_seq IS NOT NULL AND error_code IS NOT NULL ORDER BY fetch_seq DESC LIMIT ?`,
      )
      .all(Math.min(Math.max(1, limit), 200)) as RecentError[]
  );
}
