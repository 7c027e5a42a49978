import type { SqlValue } from './write-log.js';

/**
 * Single-row INSERTs run as multi-row ones on the writer thread (writer-thread.ts). A crawl's
 * discovery writes each new page's row and its frontier entry one after the other, a few per
 * fetched page, and SQLite's per-statement work (a VM run, a bind per value, a B-tree seek from
 * the root) is a good part of what those inserts cost: bench/frontier/sqlite-floor stores
 * bench/frontier's rows at 5M URLs in about a fifth less time with each page's new rows in one
 * statement per table than one per statement, when its writes append; and bench/frontier's
 * writer thread spends about 5% less CPU (docs/performance.md).
 *
 * A statement declared a rows statement may run later than it was written: after rows of other
 * rows statements written after it, but before any other statement written after it, and before
 * the batch commits; rows of one statement keep their order. So only an insert that no other
 * rows statement's rows depend on may be declared one (no foreign key to another rows
 * statement's table, no conflict with its rows): everything else (an UPDATE of the page
 * inserted, a site row its pages refer to) is an other statement, and finds every row written
 * before it in place. So rows group only while no other write comes between them: with a
 * policy that gives each new page a priority of its own, the priority's UPDATE follows each
 * insert and the groups stay one row long.
 */
export class RowGroups {
  private readonly shapes: Array<RowsShape | undefined> = [];
  /** Each rows statement's values waiting, row after row. */
  private readonly waiting: SqlValue[][] = [];
  /** Rows statements with values waiting, in the order their first row came (each once: `listed`). */
  private order: number[] = [];
  private readonly listed: boolean[] = [];
  /** Prepared multi-row forms, by statement and power of two. */
  private readonly runs: Array<Array<((args: SqlValue[]) => void) | undefined>> = [];

  /** `prepare(sql)` gives a function that runs a statement with these values. */
  constructor(private readonly prepare: (sql: string) => (args: SqlValue[]) => void) {}

  /** Statement `id` (a rows statement: see rowsShape) takes its rows in groups from now on. */
  define(id: number, sql: string): void {
    this.shapes[id] = rowsShape(sql);
  }

  /** Keeps the row of a rows statement for later (true), or says it is an other statement (false). */
  take(id: number, args: readonly SqlValue[]): boolean {
    const shape = this.shapes[id];
    if (shape === undefined) return false;
    if (args.length !== shape.params) throw new Error(`rows statement ${id} takes ${shape.params} values, not ${args.length}`);
    let rows = this.waiting[id];
    if (rows === undefined) rows = this.waiting[id] = [];
    if (this.listed[id] !== true) {
      this.listed[id] = true;
      this.order.push(id);
    }
    for (let i = 0; i < args.length; i++) rows.push(args[i]!);
    if (rows.length >= shape.params * MAX_ROWS) this.runRows(id, shape, rows);
    return true;
  }

  /**
   * Runs every row waiting (before an other statement, and before the batch commits). If a
   * statement fails, the rows not run stay until clear(), which the failed batch's rollback calls.
   */
  flush(): void {
    for (const id of this.order) this.runRows(id, this.shapes[id]!, this.waiting[id]!);
    for (const id of this.order) this.listed[id] = false;
    this.order.length = 0;
  }

  /** Forgets every row waiting (their batch was rolled back, or a flush failed part way). */
  clear(): void {
    for (const rows of this.waiting) if (rows !== undefined) rows.length = 0;
    for (const id of this.order) this.listed[id] = false;
    this.order.length = 0;
  }

  /** The rows in statements of 64, 32, ... 1 rows: at most seven prepared forms per statement. */
  private runRows(id: number, shape: RowsShape, rows: SqlValue[]): void {
    const count = rows.length / shape.params;
    const forms = (this.runs[id] ??= []);
    let done = 0;
    for (let size = MAX_ROWS, k = MAX_ROWS_LOG; size >= 1; size >>= 1, k--) {
      for (; count - done >= size; done += size) {
        const run = (forms[k] ??= this.prepare(multiRowSql(shape, size)));
        run(size === count ? rows : rows.slice(done * shape.params, (done + size) * shape.params));
      }
    }
    rows.length = 0;
  }
}

/** Rows per statement at most: 64 rows of a page's 8 values bind 512, far below SQLite's limit. */
const MAX_ROWS = 64;
const MAX_ROWS_LOG = 6;

/** A single-row INSERT taken apart: the text up to VALUES, its one row of values, their count. */
export interface RowsShape {
  head: string;
  row: string;
  params: number;
}

/**
 * The shape of a single-row INSERT (`INSERT [OR ...] INTO t(...) VALUES (?, ..., ?)`, ending
 * with its one row); an error for any other statement, which cannot be a rows statement.
 */
export function rowsShape(sql: string): RowsShape {
  const m = /^\s*(INSERT\b[\s\S]*\bVALUES)\s*(\([^()]*\))\s*$/i.exec(sql);
  if (m === null || /\bRETURNING\b|\bSELECT\b/i.test(m[1]!)) throw new Error(`not a single-row INSERT, so not a rows statement: ${sql}`);
  const row = m[2]!;
  const params = (row.match(/\?/g) ?? []).length;
  // Only plain ? parameters repeat row after row: a numbered or named one would bind every row
  // to the first row's value, and a quoted literal could hold a ? that is not one.
  if (params === 0 || /\?\d|[:@$]\w|['"`]/.test(row)) throw new Error(`a rows statement's row takes plain ? parameters only: ${sql}`);
  return { head: m[1]!, row, params };
}

/** The statement that inserts `n` rows of this shape. */
export function multiRowSql(shape: RowsShape, n: number): string {
  return `${shape.head} ${Array.from({ length: n }, () => shape.row).join(', ')}`;
}
