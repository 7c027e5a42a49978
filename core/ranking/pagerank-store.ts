import type { Db } from '../store/database.js';
import { CrawlStore } from '../store/crawl-store.js';

export type RunKind = 'page' | 'site';

export interface PageRankRun {
  id: number;
  kind: RunKind;
  damping: number;
  tolerance: number;
  iterations: number;
  nodes: number;
  edges: number;
  created_at: string;
}

/**
 * Opens a crawl read-only through CrawlStore, so a file that is not a crawl fails with the
 * store's own error codes (DB_MISSING, DB_CORRUPT, DB_NOT_A_CRAWL, DB_TOO_NEW), and a
 * crawl that is running can still be read (read-only takes no lock).
 */
export function openCrawlReadonly(path: string): { db: Db; close: () => void } {
  const store = CrawlStore.open(path, { readonly: true });
  return { db: store.db, close: () => store.close() };
}

/** The latest run of a kind (optionally with this damping), or undefined. */
export function latestRun(db: Db, kind: RunKind, damping?: number): PageRankRun | undefined {
  const rows = db
    .prepare('SELECT * FROM pagerank_runs WHERE kind = ? ORDER BY id DESC')
    .all(kind) as PageRankRun[];
  return rows.find((r) => damping === undefined || Math.abs(r.damping - damping) < 1e-12);
}

/**
 * The latest run, if it still describes the crawl: same number of nodes, and created after
 * the last stored fetch (a resumed crawl adds links without always adding pages). The time
 * test assumes fetched_at and created_at share a clock; a simulated clock far in the
 * future only costs a recomputation.
 */
export function latestFreshRun(db: Db, kind: RunKind, damping?: number): PageRankRun | undefined {
  const run = latestRun(db, kind, damping);
  if (!run) return undefined;
  const nodes = db.prepare(kind === 'page' ? 'SELECT count(*) FROM pages' : 'SELECT count(*) FROM sites').pluck().get() as number;
  if (nodes !== run.nodes) return undefined;
  // The partial index on fetch_seq finds the last fetch without a scan.
  const lastFetch = db
    .prepare('SELECT fetched_at FROM pages WHERE fetch_seq = (SELECT max(fetch_seq) FROM pages)')
    .pluck()
    .get() as number | null | undefined;
  if (lastFetch != null && lastFetch > Date.parse(run.created_at)) return undefined;
  return run;
}

/**
 * Stores a run and its values in one transaction; returns the run id. Values go in
 * 300-row INSERTs: one statement per row would spend most of its time crossing into C++.
 */
export function saveRun(
  db: Db,
  run: Omit<PageRankRun, 'id' | 'created_at'>,
  ids: ArrayLike<number>,
  values: ArrayLike<number>,
): number {
  const table = run.kind === 'page' ? 'pagerank(run_id, page_id, value)' : 'site_pagerank(run_id, site_id, value)';
  const ROWS = 300;
  const insertSql = (k: number) => `INSERT INTO ${table} VALUES ${Array(k).fill('(?, ?, ?)').join(', ')}`;
  const insertRun = db.prepare(`INSERT INTO pagerank_runs(kind, damping, tolerance, iterations, nodes, edges, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertMany = db.prepare(insertSql(ROWS));
  return db.transaction(() => {
    const id = Number(
      insertRun.run(run.kind, run.damping, run.tolerance, run.iterations, run.nodes, run.edges, new Date().toISOString()).lastInsertRowid,
    );
    const params: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      params.push(id, ids[i]!, values[i]!);
      if (params.length === ROWS * 3) {
        insertMany.run(params);
        params.length = 0;
      }
    }
    if (params.length > 0) db.prepare(insertSql(params.length / 3)).run(params);
    return id;
  })();
}

/** (canonical URL, value) of every page in a page run. */
export function* readPageRun(db: Db, runId: number): Generator<[string, number]> {
  const rows = db.prepare('SELECT p.url, r.value FROM pagerank r JOIN pages p ON p.id = r.page_id WHERE r.run_id = ?').raw();
  for (const row of rows.iterate(runId)) yield row as [string, number];
}

/** Values of a page run keyed by pages.id. */
export function readPageRunById(db: Db, runId: number): Map<number, number> {
  const out = new Map<number, number>();
  const rows = db.prepare('SELECT page_id, value FROM pagerank WHERE run_id = ?').raw();
  for (const row of rows.iterate(runId)) {
    const [id, value] = row as [number, number];
    out.set(id, value);
  }
  return out;
}

/** The top k of a run with their URL (pages) or host (sites). */
export function topOfRun(db: Db, run: PageRankRun, k: number): Array<{ id: number; name: string; value: number }> {
  const sql =
    run.kind === 'page'
      ? 'SELECT r.page_id AS id, p.url AS name, r.value FROM pagerank r JOIN pages p ON p.id = r.page_id WHERE r.run_id = ? ORDER BY r.value DESC, r.page_id LIMIT ?'
      : 'SELECT r.site_id AS id, s.host AS name, r.value FROM site_pagerank r JOIN sites s ON s.id = r.site_id WHERE r.run_id = ? ORDER BY r.value DESC, r.site_id LIMIT ?';
  return db.prepare(sql).all(run.id, k) as Array<{ id: number; name: string; value: number }>;
}
