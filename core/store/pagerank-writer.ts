/**
 * Stores PageRank runs in the crawl file (schema 2), so that ranking computes and the store
 * writes: core/ranking holds no SQL. Runs are read back through CrawlReader.
 */
import type { Statement } from 'better-sqlite3';
import type { PageRankRun } from './crawl-reader.js';
import type { Db } from './database.js';

/** Values per INSERT: one statement per row would spend most of its time crossing into C++. */
const ROWS = 300;

export type NewPageRankRun = Omit<PageRankRun, 'id' | 'created_at'>;

export class PageRankWriter {
  private readonly insertRun: Statement;
  /** Full-size INSERTs by kind; the last, shorter one of a run is prepared when needed. */
  private readonly insertMany = new Map<string, Statement>();

  /** `db` is opened for writing (CrawlStore.open or openDatabase), which also migrates it. */
  constructor(private readonly db: Db) {
    this.insertRun = db.prepare(`INSERT INTO pagerank_runs(kind, damping, tolerance, iterations, nodes, edges, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Stores a run and its values (ids[i] has values[i]) in one transaction; returns the run id. */
  save(run: NewPageRankRun, ids: ArrayLike<number>, values: ArrayLike<number>): number {
    const insert = (k: number) => this.insertValues(run.kind, k);
    return this.db.transaction(() => {
      const created = new Date().toISOString();
      const id = Number(this.insertRun.run(run.kind, run.damping, run.tolerance, run.iterations, run.nodes, run.edges, created).lastInsertRowid);
      const params: number[] = [];
      for (let i = 0; i < ids.length; i++) {
        params.push(id, ids[i]!, values[i]!);
        if (params.length === ROWS * 3) {
          insert(ROWS).run(params);
          params.length = 0;
        }
      }
      if (params.length > 0) insert(params.length / 3).run(params);
      return id;
    })();
  }

  private insertValues(kind: PageRankRun['kind'], rows: number): Statement {
    const key = `${kind}:${rows}`;
    let st = this.insertMany.get(key);
    if (!st) {
      const table = kind === 'page' ? 'pagerank(run_id, page_id, value)' : 'site_pagerank(run_id, site_id, value)';
      st = this.db.prepare(`INSERT INTO ${table} VALUES ${Array(rows).fill('(?, ?, ?)').join(', ')}`);
      if (rows === ROWS) this.insertMany.set(key, st);
    }
    return st;
  }
}
