/**
 * Integer columns of a whole table, fast: the reader's way to hand page ids, page sites and
 * links to graph loading (ranking, simulator) without a JS object per row. Moved here from
 * ranking/ so that every query of the crawl schema lives in core/store.
 */
import type { Db } from './database.js';

/** One slice of a table: cols[c][i] for i < length (buffers are reused between chunks). */
export interface RangeChunk {
  cols: Float64Array[];
  length: number;
}

export interface RangeScan {
  table: 'pages' | 'links';
  /** Integer NOT NULL columns; the first is the key (indexed, scanned in ascending order). */
  columns: readonly string[];
  /** Extra condition on every range (fixed SQL from the reader, may use @s, @p). */
  where: string;
  /** Bound parameters for `where`. */
  params: Record<string, number>;
  /**
   * Keys in [lo, hi) whose rows are left out, asked after the range was read (so a key
   * that became excluded during the read is still seen); null: none.
   */
  exclude?: (lo: number, hi: number) => Set<number> | null;
  /** The key orders the scan but is not read out (cols are the other columns); no `exclude` then. */
  keyHidden?: boolean;
}

/**
 * Reads integer columns of a table in consecutive ranges of an indexed integer key, in key
 * order. Why not row by row: better-sqlite3 crosses from C++ to JS once per row, about 0.8 s
 * per million rows; instead SQLite concatenates a range of rows into one comma-separated
 * string per column (group_concat over the same scan, so columns stay aligned) that JS
 * parses in a tight loop: ten million links read in about 2.5 s instead of 9. The key
 * column is sent relative to the range start (shorter text). Ranges adapt so that each
 * string stays a few MB. Each range is one statement: its own short read transaction.
 */
export function* scanRanges(db: Db, scan: RangeScan): Generator<RangeChunk> {
  const { table, columns, where, params } = scan;
  const key = columns[0]!;
  const cond = where ? `AND ${where}` : '';
  const first = db.prepare(`SELECT min(${key}) FROM ${table} WHERE ${key} >= @lo ${cond}`).pluck();
  // The CAST matters: better-sqlite3 binds JS numbers as REAL, and id - 1.0 prints "1.0".
  const out = scan.keyHidden ? columns.slice(1) : columns;
  const text = out.map((c, i) => (i === 0 && !scan.keyHidden ? `group_concat(${key} - CAST(@lo AS INTEGER))` : `group_concat(${c})`));
  const read = db.prepare(`SELECT count(*), ${text.join(', ')} FROM ${table} WHERE ${key} >= @lo AND ${key} < @hi ${cond}`).raw();
  const chunk: RangeChunk = { cols: out.map(() => new Float64Array(1 << 16)), length: 0 };
  let width = 1 << 16;
  let lo = first.get({ ...params, lo: Number.MIN_SAFE_INTEGER }) as number | null;
  while (lo !== null) {
    const hi = lo + width;
    const row = read.get({ ...params, lo, hi }) as [number, ...Array<string | null>];
    const count = row[0];
    if (count > 0) {
      if (count > chunk.cols[0]!.length) {
        const size = Math.max(count, chunk.cols[0]!.length * 2);
        chunk.cols = out.map(() => new Float64Array(size));
      }
      for (let c = 0; c < out.length; c++) {
        const parsed = parseIntegers(row[c + 1] as string, chunk.cols[c]!, c === 0 && !scan.keyHidden ? lo : 0);
        if (parsed !== count) throw new Error(`${table} range at ${lo}: parsed ${parsed} of ${count} values of ${out[c]}`);
      }
      chunk.length = scan.keyHidden ? count : dropExcluded(chunk, count, scan.exclude?.(lo, hi) ?? null);
      if (chunk.length > 0) yield chunk;
    }
    // Aim at 0.5-4 million rows per range (a crawl may have dense id ranges).
    if (count > 4_000_000 && width > 1) width = Math.max(1, width >> 1);
    else if (count < 500_000 && width < 2 ** 40) width *= 2;
    lo = first.get({ ...params, lo: hi }) as number | null;
  }
}

/** Compacts the chunk's rows whose key is not in `excluded`; returns how many remain. */
function dropExcluded(chunk: RangeChunk, count: number, excluded: Set<number> | null): number {
  if (!excluded || excluded.size === 0) return count;
  const keys = chunk.cols[0]!;
  let m = 0;
  for (let i = 0; i < count; i++) {
    if (excluded.has(keys[i]!)) continue;
    for (const col of chunk.cols) col[m] = col[i]!;
    m++;
  }
  return m;
}

/** Parses "12,-3,4" into out (each plus `add`); returns how many numbers were read. */
function parseIntegers(text: string, out: Float64Array, add: number): number {
  let j = 0;
  let x = 0;
  let sign = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[j++] = sign * x + add;
      x = 0;
      sign = 1;
    } else if (c === 45) sign = -1;
    else x = x * 10 + (c - 48);
  }
  out[j++] = sign * x + add;
  return j;
}
