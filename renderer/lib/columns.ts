/** A column of a DataTable: what a row's cell holds (raw, for sorting and CSV) and how it is shown. */
import type { Cell } from './download.js';

export interface Column<Row> {
  key: string;
  label: string;
  value: (row: Row) => Cell;
  /** How a value is shown (default: numbers as 1,234.567, text as it is, none as –). */
  format?: (v: Cell, row: Row) => string;
  /** Right-aligned; sorted as numbers, largest first on the first click. */
  numeric?: boolean;
}

const missing = (v: Cell) => v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v));

/** Rows ordered by a column: missing values last either way, ties in their given order (a stable sort). */
export function sortRows<Row>(rows: readonly Row[], col: Column<Row>, descending: boolean): Row[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [col.value(a), col.value(b)];
    if (missing(x) || missing(y)) return missing(x) === missing(y) ? 0 : missing(x) ? 1 : -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return descending ? -c : c;
  });
}
