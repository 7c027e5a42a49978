/**
 * `crawlbench merge NAME.parts --out NAME.db`: the crawl databases of a parallel crawl's
 * workers (part-0.db, part-1.db, ...) made into one crawl database that every reader takes as
 * it takes a crawl of one process (docs/architecture.md, "The path of a URL that crosses
 * parts").
 *
 * - Pages unique by URL. Of the rows several parts hold for one URL the merge keeps the one that
 *   says most: a fetch result, else queued, else skipped by a limit, else the stub a worker
 *   keeps for another part's page (CRAWL_SKIPPED_OTHER_PART); between two fetches, the earlier.
 *   Ids are given in fetch-time order (pages never fetched after), fetch_seq likewise.
 * - Links, robots.txt, content hashes and events with their page and site ids mapped; sites by
 *   key with their counts summed; counters summed; the timelines added second by second (each
 *   part's latest sample at each second); the exchange counts and timelines of every worker carried.
 * - Stated: each worker's counters (its lease traffic among them), and the URLs two workers both fetched.
 * - Stored content (--store-content): every part's captures in NAME.db.content/ with the merged
 *   ids (merge-content.ts); the sitemaps read (--sitemaps), likewise (merge-sitemaps.ts).
 *
 * Written under a temporary name (its content folder too) and renamed when complete.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlError, ErrorCodes, SkipCodes, isDiskFull } from '../errors.js';
import type { CrawlSettings } from '../config/settings.js';
import { CrawlStore } from './crawl-store.js';
import type { Db } from './database.js';
import { MERGE_SITEMAPS, SITEMAP_TEMP_TABLES, gatherSitemaps } from './merge-sitemaps.js';
import { CONTENT_TEMP_TABLES, MERGE_CONTENT, gatherContent, placeSegments, segmentsOf } from './merge-content.js';
import { copyExchangeCounts, createExchangeCounts, readExchangeCounts, type ExchangeCount } from './exchange-store.js';
import { mergeTimelines, type TimelineRow } from './merge-timeline.js';

export interface WorkerCounters {
  part: number;
  file: string;
  state: string;
  /** Why its last run ended (end_reason's kind: finished, max-pages, paused, ...), null when it never ended one. */
  endKind: string | null;
  pagesFetched: number;
  pagesKnown: number;
  pagesOtherParts: number;
  links: number;
  bytes: number;
  seconds: number;
  /** Requests to the site-lease bucket and their bytes (a page assignment's politeness), apart from the link exchange. */
  leaseRequests: number;
  leaseBytes: number;
}

export interface MergeResult {
  out: string;
  parts: number;
  pagesFetched: number;
  pagesKnown: number;
  links: number;
  sites: number;
  /** The merged crawl's state and why it ended: max-pages when every part finished or spent its share of --max-pages. */
  state: string;
  endKind: string;
  workers: WorkerCounters[];
  /** URLs fetched by more than one worker (at most those in flight when a worker died, or new URLs found by two). */
  fetchedTwice: number;
  fetchedTwiceSample: string[];
  /** Every worker's exchange counts (sent to and received from each part). */
  exchange: ExchangeCount[];
}

/** The part files of a parts folder, in part order; refuses a folder without any. */
export function partFiles(dir: string): { part: number; file: string }[] {
  if (!existsSync(dir)) throw new CrawlError(ErrorCodes.DB_MISSING, `${dir} does not exist (a parallel crawl's parts folder, NAME.parts)`);
  // Before: a crawl database given for the folder ended in a stack trace (exit 1).
  if (!statSync(dir).isDirectory()) throw new CrawlError(ErrorCodes.DB_MISSING, `${dir} is not a parts folder (NAME.parts, beside a parallel crawl's database)`);
  const files = readdirSync(dir)
    .map((f) => /^part-(\d+)\.db$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ part: Number(m[1]), file: join(dir, m[0]) }))
    .sort((a, b) => a.part - b.part);
  if (files.length === 0) throw new CrawlError(ErrorCodes.DB_MISSING, `${dir} holds no part-I.db (a parallel crawl's parts folder)`);
  return files;
}

/** Merges the parts of `dir` into `out` (refused if it exists unless force). */
export function mergeParts(dir: string, out: string, opts: { force?: boolean; settings?: CrawlSettings } = {}): MergeResult {
  const files = partFiles(dir);
  if (existsSync(out) && !opts.force) throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${out} exists (--force writes over it)`);
  const tmp = `${out}.merging`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}.content`]) rmSync(f, { force: true, recursive: true });
  const first = CrawlStore.open(files[0]!.file, { readonly: true });
  const settings = opts.settings ?? first.settings();
  first.close();
  const store = CrawlStore.create(tmp, settings);
  let result: MergeResult;
  let merged = false;
  try {
    const db = store.db;
    db.exec(TEMP_TABLES);
    db.exec(CONTENT_TEMP_TABLES);
    db.exec(SITEMAP_TEMP_TABLES);
    createExchangeCounts(db);
    const timelines: TimelineRow[][] = [];
    // Each part's content segments numbered after the parts before it (merge-content.ts).
    const segments = contentBases(files);
    const workers = files.map(({ part, file }, i) => {
      try {
        return gather(db, part, file, segments[i]!.base, timelines);
      } catch (err) {
        if (err instanceof CrawlError || !String((err as { code?: unknown }).code).startsWith('SQLITE_')) throw err;
        if (isDiskFull(err)) throw new CrawlError(ErrorCodes.DISK_FULL, `the disk is full (merging ${file}: ${(err as Error).message}); nothing was merged`, { cause: err });
        throw new CrawlError(ErrorCodes.DB_CORRUPT, `${file}: cannot be read as a part of the crawl (${(err as Error).message}); nothing was merged`, { cause: err });
      }
    });
    result = { out, parts: files.length, workers, ...writeMerged(db, workers, timelines), fetchedTwice: 0, fetchedTwiceSample: [], exchange: readExchangeCounts(db) };
    const twice = db.prepare(`SELECT url FROM temp.all_pages WHERE fetch_seq IS NOT NULL GROUP BY url HAVING count(*) > 1 ORDER BY url`).pluck().all() as string[];
    result.fetchedTwice = twice.length;
    result.fetchedTwiceSample = twice.slice(0, 20);
    store.buildReadIndexes();
    placeSegments(segments, `${tmp}.content`);
    merged = true;
  } finally {
    try {
      store.close();
    } finally {
      // A part that cannot be read (damaged, not a crawl) leaves no half-merged file behind.
      if (!merged) for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}.content`]) rmSync(f, { force: true, recursive: true });
    }
  }
  for (const f of [out, `${out}-wal`, `${out}-shm`]) if (opts.force) rmSync(f, { force: true });
  // A content folder without its crawl beside it is an interrupted merge's (out did not exist, or --force): replaced.
  rmSync(`${out}.content`, { recursive: true, force: true });
  if (existsSync(`${tmp}.content`)) renameSync(`${tmp}.content`, `${out}.content`);
  renameSync(tmp, out);
  return result;
}

/** Each part's content folder and the number its segments start after in the merged folder. */
function contentBases(files: { file: string }[]): { dir: string; base: number }[] {
  let base = 0;
  return files.map(({ file }) => {
    const dir = `${file}.content`;
    const at = { dir, base };
    base += Math.max(0, ...segmentsOf(dir));
    return at;
  });
}

const TEMP_TABLES = `
CREATE TEMP TABLE all_pages AS SELECT 0 AS part, p.*, '' AS host, 0 AS rank FROM pages p WHERE 0;
CREATE TEMP TABLE all_sites AS SELECT 0 AS part, * FROM sites WHERE 0;
CREATE TEMP TABLE all_links AS SELECT 0 AS part, src, dst, anchor, nofollow, kind, lastmod FROM links WHERE 0;
CREATE TEMP TABLE all_events AS SELECT 0 AS part, * FROM events WHERE 0;
CREATE TEMP TABLE all_robots AS SELECT 0 AS part, r.*, '' AS host FROM robots r WHERE 0;
CREATE TEMP TABLE all_counters (name TEXT, value INTEGER);
CREATE TEMP TABLE all_meta (part INTEGER, key TEXT, value TEXT);
`;

/** The rank of a row among the rows of one URL: lower is kept. */
const RANK = `CASE WHEN p.fetch_seq IS NOT NULL OR p.status IN ('fetched', 'duplicate', 'failed', 'disallowed') THEN 0
  WHEN p.status = 'queued' THEN 1 WHEN p.error_code = '${SkipCodes.OTHER_PART}' THEN 3 ELSE 2 END`;

/** Copies one part's rows into the temporary tables and its timeline into `timelines`; returns its counters. */
function gather(db: Db, part: number, file: string, segmentBase: number, timelines: TimelineRow[][]): WorkerCounters {
  db.prepare('ATTACH DATABASE ? AS src').run(file);
  try {
    db.transaction(() => {
      db.exec(`INSERT INTO temp.all_pages SELECT ${part}, p.*, s.host, ${RANK} FROM src.pages p JOIN src.sites s ON s.id = p.site_id`);
      db.exec(`INSERT INTO temp.all_sites SELECT ${part}, * FROM src.sites`);
      db.exec(`INSERT INTO temp.all_links SELECT ${part}, src, dst, anchor, nofollow, kind, lastmod FROM src.links`);
      db.exec(`INSERT INTO temp.all_events SELECT ${part}, * FROM src.events`);
      db.exec(`INSERT INTO temp.all_robots SELECT ${part}, r.*, s.host FROM src.robots r JOIN src.sites s ON s.id = r.site_id`);
      db.exec('INSERT INTO temp.all_counters SELECT name, value FROM src.counters');
      db.exec(`INSERT INTO temp.all_meta SELECT ${part}, key, value FROM src.meta`);
      copyExchangeCounts(db, 'src');
      gatherContent(db, part, segmentBase);
      gatherSitemaps(db, part);
    })();
    timelines.push(db.prepare('SELECT * FROM src.timeline ORDER BY t').all() as TimelineRow[]);
    return workerCounters(db, part, file);
  } finally {
    db.exec('DETACH DATABASE src');
  }
}

function workerCounters(db: Db, part: number, file: string): WorkerCounters {
  const one = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0;
  const meta = (key: string) => db.prepare('SELECT value FROM src.meta WHERE key = ?').pluck().get(key) as string | undefined;
  return {
    part,
    file,
    state: meta('state') ?? 'created',
    endKind: endKindOf(meta('end_reason')),
    pagesFetched: one('SELECT count(*) FROM src.pages WHERE fetch_seq IS NOT NULL'),
    pagesKnown: one(`SELECT count(*) FROM src.pages WHERE error_code IS NOT '${SkipCodes.OTHER_PART}'`),
    pagesOtherParts: one(`SELECT count(*) FROM src.pages WHERE error_code = '${SkipCodes.OTHER_PART}'`),
    links: one('SELECT count(*) FROM src.links'),
    bytes: one('SELECT sum(bytes) FROM src.pages WHERE fetch_seq IS NOT NULL'),
    seconds: Number(meta('crawl_seconds') ?? 0) || 0,
    leaseRequests: one("SELECT value FROM src.counters WHERE name = 'leases:requests'"),
    leaseBytes: one("SELECT value FROM src.counters WHERE name = 'leases:bytes'"),
  };
}

const MERGE = `
CREATE TEMP TABLE winner AS
  SELECT * FROM (SELECT a.*, row_number() OVER (PARTITION BY url ORDER BY rank, fetched_at IS NULL, fetched_at, part, id) AS rn FROM temp.all_pages a) WHERE rn = 1;
CREATE TEMP TABLE new_ids AS
  SELECT url, row_number() OVER (ORDER BY fetched_at IS NULL, fetched_at, part, id) AS new_id,
    CASE WHEN fetch_seq IS NULL THEN NULL ELSE row_number() OVER (PARTITION BY fetch_seq IS NULL ORDER BY fetched_at, part, fetch_seq) END AS seq
  FROM temp.winner;
CREATE UNIQUE INDEX temp.new_ids_url ON new_ids(url);
CREATE TEMP TABLE idmap AS SELECT a.part, a.id AS old, n.new_id FROM temp.all_pages a JOIN temp.new_ids n USING (url);
CREATE UNIQUE INDEX temp.idmap_old ON idmap(part, old);
CREATE TEMP TABLE site_ids AS
  SELECT host, row_number() OVER (ORDER BY min_page IS NULL, min_page, host) AS new_id FROM
    (SELECT s.host, (SELECT min(n.new_id) FROM temp.winner w JOIN temp.new_ids n USING (url) WHERE w.host = s.host) AS min_page
     FROM (SELECT DISTINCT host FROM temp.all_sites) s);
CREATE UNIQUE INDEX temp.site_ids_host ON site_ids(host);
CREATE TEMP TABLE sitemap AS SELECT a.part, a.id AS old, s.new_id FROM temp.all_sites a JOIN temp.site_ids s USING (host);
INSERT INTO sites (id, host, ip, pages_known, pages_fetched, pages_failed, bytes, connections, requests, connect_ms, response_ms,
    requests_per_conn, consecutive_errors, errors, crawl_delay_ms, not_before, parked, schemes, tls)
  SELECT s.new_id, a.host, max(a.ip), sum(a.pages_known), sum(a.pages_fetched), sum(a.pages_failed), sum(a.bytes), sum(a.connections),
    sum(a.requests), avg(a.connect_ms), avg(a.response_ms), avg(a.requests_per_conn), max(a.consecutive_errors), sum(a.errors),
    max(a.crawl_delay_ms), max(a.not_before), max(a.parked), max(a.schemes), max(a.tls)
  FROM temp.all_sites a JOIN temp.site_ids s USING (host) GROUP BY a.host ORDER BY s.new_id;
INSERT INTO pages (id, url, site_id, depth, parent_id, redirects, status, http_status, content_type, bytes, content_hash, duplicate_of,
    title, noindex, error_code, attempts, fetch_seq, fetched_at, response_ms, etag, last_modified, not_modified)
  SELECT n.new_id, w.url, (SELECT new_id FROM temp.site_ids WHERE host = w.host), w.depth,
    (SELECT new_id FROM temp.idmap WHERE part = w.part AND old = w.parent_id), w.redirects, w.status, w.http_status, w.content_type,
    w.bytes, w.content_hash, (SELECT new_id FROM temp.idmap WHERE part = w.part AND old = w.duplicate_of), w.title, w.noindex,
    w.error_code, w.attempts, n.seq, w.fetched_at, w.response_ms, w.etag, w.last_modified, w.not_modified
  FROM temp.winner w JOIN temp.new_ids n USING (url) ORDER BY n.new_id;
INSERT OR IGNORE INTO links (seq, dst, src, anchor, nofollow, kind, lastmod)
  SELECT coalesce(p.fetch_seq, -s.new_id), d.new_id, s.new_id, l.anchor, l.nofollow, l.kind, l.lastmod FROM temp.all_links l
  JOIN temp.idmap s ON s.part = l.part AND s.old = l.src JOIN temp.idmap d ON d.part = l.part AND d.old = l.dst
  JOIN pages p ON p.id = s.new_id
  ORDER BY 1, 2;
INSERT INTO content_claims (hash, page_id)
  SELECT content_hash, id FROM (SELECT content_hash, id, fetch_seq,
      row_number() OVER (PARTITION BY content_hash ORDER BY fetch_seq) AS n
    FROM pages WHERE content_hash IS NOT NULL AND status = 'fetched')
  WHERE n = 1 ORDER BY fetch_seq;
INSERT INTO frontier (page_id, site_id, priority) SELECT id, site_id, 0 FROM pages WHERE status = 'queued';
INSERT OR IGNORE INTO robots (origin, site_id, state, http_status, body, fetched_at, attempts)
  SELECT r.origin, s.new_id, r.state, r.http_status, r.body, r.fetched_at, r.attempts
  FROM temp.all_robots r JOIN temp.site_ids s USING (host) ORDER BY r.fetched_at;
INSERT INTO events (at, kind, site_id, page_id, code, message)
  SELECT e.at, e.kind, (SELECT new_id FROM temp.sitemap WHERE part = e.part AND old = e.site_id),
    (SELECT new_id FROM temp.idmap WHERE part = e.part AND old = e.page_id), e.code,
    CASE WHEN e.message IS NULL THEN 'part ' || e.part ELSE 'part ' || e.part || ': ' || e.message END
  FROM temp.all_events e ORDER BY e.at, e.part, e.id;
INSERT INTO counters (name, value) SELECT name, sum(value) FROM temp.all_counters GROUP BY name;
`;

function endKindOf(json: string | undefined): string | null {
  try {
    return json ? ((JSON.parse(json) as { kind?: string }).kind ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * The merged crawl's state and end: finished when every part finished; stopped when one was
 * stopped; max-pages (paused, as a crawl of one process that reached its page limit) when every
 * part finished or spent its share of --max-pages; else paused.
 */
export function mergedEnd(workers: Pick<WorkerCounters, 'state' | 'endKind'>[]): { state: string; endKind: string } {
  if (workers.every((w) => w.state === 'finished')) return { state: 'finished', endKind: 'finished' };
  if (workers.some((w) => w.state === 'stopped')) return { state: 'stopped', endKind: 'stopped' };
  const limited = workers.every((w) => w.state === 'finished' || w.endKind === 'max-pages');
  return { state: 'paused', endKind: limited ? 'max-pages' : 'paused' };
}

/** The merged crawl's tables, meta and timeline; its totals. */
function writeMerged(db: Db, workers: WorkerCounters[], timelines: TimelineRow[][]): Pick<MergeResult, 'pagesFetched' | 'pagesKnown' | 'links' | 'sites' | 'state' | 'endKind'> {
  const { state, endKind } = mergedEnd(workers);
  db.transaction(() => {
    db.exec(MERGE);
    db.exec(MERGE_CONTENT);
    db.exec(MERGE_SITEMAPS);
    const meta = (key: string) => db.prepare('SELECT value FROM temp.all_meta WHERE key = ? ORDER BY part').pluck().all(key) as string[];
    const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    set.run('state', state);
    const created = meta('created_at').sort()[0];
    if (created) set.run('created_at', created);
    const seconds = Math.max(0, ...meta('crawl_seconds').map(Number).filter(Number.isFinite));
    set.run('crawl_seconds', String(seconds));
    set.run('end_reason', JSON.stringify({ kind: endKind, at: new Date().toISOString() }));
    set.run('parallel_parts', String(workers.length));
    const insert = db.prepare(`INSERT INTO timeline (t, at, pages, bytes, pages_per_s, bytes_per_s, open_conns, r, sites_pending, queued, errors, pagerank)
      VALUES (@t, @at, @pages, @bytes, @pages_per_s, @bytes_per_s, @open_conns, @r, @sites_pending, @queued, @errors, @pagerank)`);
    for (const row of mergeTimelines(timelines)) insert.run(row);
  })();
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    state,
    endKind,
    pagesFetched: one('SELECT count(*) FROM pages WHERE fetch_seq IS NOT NULL'),
    pagesKnown: one('SELECT count(*) FROM pages'),
    links: one('SELECT count(*) FROM links'),
    sites: one('SELECT count(*) FROM sites'),
  };
}
