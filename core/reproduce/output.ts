/**
 * What `crawlbench reproduce` writes for each table and figure of a paper: a CSV file of the
 * values, a chart as SVG (ECharts' server-side renderer, no browser), and the Markdown the
 * report and docs/results.md show; the paper's own numbers ride beside crawlbench's in the same
 * rows. Every item is also kept in a summary (summary.json) that `npm run results` and the
 * tests read, so no number is copied by hand.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { figureSvg, svgToPng } from './charts.js';
import type { Cell, Item, Table } from './types.js';

export type { Cell, Figure, Item, ReproduceSummary, Series, StepResult, Table } from './types.js';

const cells = (row: Cell[]) => row.map((c) => (c === null ? '' : c));

/** Writes a table's CSV; a figure's CSV, SVG and PNG. Returns the file names written (and why a PNG was not). */
export function writeItem(dir: string, item: Item): Array<string | Error> {
  if (item.kind === 'table') {
    writeFileSync(join(dir, `${item.id}.csv`), stringify([item.columns, ...item.rows.map(cells)]));
    return [`${item.id}.csv`];
  }
  const rows = item.series.flatMap((s) => s.points.map(([x, y]) => [s.name, x, y]));
  writeFileSync(join(dir, `${item.id}.csv`), stringify([['series', 'x', 'y'], ...rows]));
  const svg = figureSvg(item);
  writeFileSync(join(dir, `${item.id}.svg`), svg);
  const png = svgToPng(svg);
  if (png instanceof Error) return [`${item.id}.csv`, `${item.id}.svg`, png];
  writeFileSync(join(dir, `${item.id}.png`), png);
  return [`${item.id}.csv`, `${item.id}.svg`, `${item.id}.png`];
}


const mdCell = (c: Cell) => (c === null ? '' : String(c));

/** A table as Markdown, with its notes under it. */
export function tableMarkdown(t: Table): string {
  return [
    `| ${t.columns.join(' | ')} |`,
    `|${t.columns.map(() => '---').join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ].join('\n');
}

/** A number shown to three places; null for what could not be computed. */
export const f3 = (x: number | null | undefined): string | null => (x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(3));
/** A share as a percentage with one place. */
export const pct = (x: number | null | undefined): string | null => (x === null || x === undefined || !Number.isFinite(x) ? null : `${(x * 100).toFixed(1)}%`);
