/**
 * The partition report as the thesis's Tables 6.2-6.5 lay it out: imbalances of GP, HP and
 * hashing at each level; volume, GP against hash; messages, HP against hash; then the locality
 * figures. Every column is named by the partitioner that made it: GP (gpmetis), HP (Zoltan
 * PHG), HP (KaHyPar) and hash. Means over the runs, the best run in brackets. Columns of a
 * model that was not asked for are left out, and KaHyPar's where it is not installed (it is
 * optional); a partitioner asked for whose tool is missing or failed shows "-".
 */
import type { PartitionMetrics } from '../graph/evaluate.js';
import type { Level, PartitionReport, PartitionRow } from '../graph/partition.js';
import { COLUMNS, PARTITIONERS, type Partitioner } from '../graph/report.js';

type Cell = (row: PartitionRow) => string;
interface Column {
  title: string;
  cell: (k: number) => string;
}

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number) => x.toFixed(3);

function table(title: string, parts: number[], columns: Column[]): string {
  const head = ['K', ...columns.map((c) => c.title)];
  const rows = parts.map((k) => [String(k), ...columns.map((c) => c.cell(k))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [title, line(head), ...rows.map(line)].join('\n');
}

/** Whether the report has columns of a partitioner at a level: its model was asked for (KaHyPar: and it ran). */
export function hasColumns(r: PartitionReport, level: Level, p: Partitioner): boolean {
  const { method } = COLUMNS[p];
  if (method === 'hash') return r.rows.some((x) => x.level === level);
  if (!r.models.includes(method === 'GP' ? level : `${level}-hypergraph`)) return false;
  return p !== 'KaHyPar' || r.rows.some((x) => x.partitioner === 'KaHyPar');
}

export function partitionTables(r: PartitionReport): string {
  const levels = (['page', 'site'] as const).filter((l) => r.rows.some((x) => x.level === l));
  const find = (level: Level, p: Partitioner, k: number) => r.rows.find((x) => x.level === level && x.partitioner === p && x.parts === k);
  const col = (level: Level, p: Partitioner, title: string, cell: Cell): Column[] =>
    hasColumns(r, level, p) ? [{ title, cell: (k) => { const row = find(level, p, k); return row?.mean ? cell(row) : '-'; } }] : [];
  const metric = (get: (m: PartitionMetrics) => number, fmt: (x: number) => string, withBest: boolean): Cell => (row) =>
    withBest && row.runs > 1 ? `${fmt(get(row.mean!))} (${fmt(get(row.best!))})` : fmt(get(row.mean!));
  const name = (p: Partitioner) => COLUMNS[p].name;
  const of = (method: 'GP' | 'HP') => PARTITIONERS.filter((p) => COLUMNS[p].method === method);

  const out: string[] = [];
  for (const level of levels) {
    out.push(
      table(`Imbalance at the ${level} level (%: (Wmax - Wavg) / Wavg; storage = bytes, requests = pages per part)`, r.parts, [
        ...PARTITIONERS.flatMap((p) => col(level, p, `storage ${name(p)}`, metric((m) => m.storageImbalance, pct, false))),
        ...PARTITIONERS.flatMap((p) => col(level, p, `requests ${name(p)}`, metric((m) => m.requestImbalance, pct, false))),
      ]),
    );
  }
  const against = (method: 'GP' | 'HP', get: (m: PartitionMetrics) => number): Column[] =>
    levels.flatMap((level) => [
      ...of(method).flatMap((p) => col(level, p, `${level} ${name(p)}${r.runs > 1 ? ' (best)' : ''}`, metric(get, int, true))),
      ...col(level, 'hash', `${level} hash`, metric(get, int, false)),
    ]);
  out.push(table('Communication volume (bytes of the URLs of links that cross parts): GP against hash', r.parts, against('GP', (m) => m.volume)));
  out.push(table('Messages (distinct (page, remote part) pairs): HP against hash', r.parts, against('HP', (m) => m.messages)));
  const share = (m: PartitionMetrics) => m.linksInside * 100;
  out.push(
    table(
      'Links inside one part (%)',
      r.parts,
      levels.flatMap((level) => PARTITIONERS.flatMap((p) => col(level, p, `${level} ${name(p)}`, metric(share, (x) => x.toFixed(2), false)))),
    ),
  );
  // Sites split: only a page-level assignment can split a site.
  if (levels.includes('page')) {
    out.push(table('Sites split across parts (page level)', r.parts, PARTITIONERS.flatMap((p) => col('page', p, name(p), metric((m) => m.sitesSplit, int, false)))));
  }
  const failed = r.rows.filter((x) => x.error);
  if (failed.length > 0) out.push(['Runs that failed:', ...failed.map((x) => `  ${x.model} ${name(x.partitioner)} K=${x.parts} (${x.runs} of ${r.runs} runs completed): ${x.error}`)].join('\n'));
  return out.join('\n\n');
}

/** One CSV row per level, model, partitioner and K: the mean and the best run's metrics. */
export function partitionCsv(r: PartitionReport): string[] {
  const keys = ['storageImbalance', 'requestImbalance', 'volume', 'messages', 'linksInside', 'sitesSplit'] as const;
  const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const head = ['level', 'model', 'method', 'partitioner', 'k', 'runs', ...keys.map((k) => `mean_${snake(k)}`), ...keys.map((k) => `best_${snake(k)}`), 'seconds'];
  return [
    head.join(','),
    ...r.rows.map((x) =>
      [x.level, x.model, x.method, x.partitioner, x.parts, x.runs, ...keys.map((k) => x.mean?.[k] ?? ''), ...keys.map((k) => x.best?.[k] ?? ''), x.seconds.toFixed(3)].join(','),
    ),
  ];
}
