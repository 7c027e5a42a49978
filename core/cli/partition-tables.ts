/**
 * The partition report as the thesis's Tables 6.2-6.5 lay it out: imbalances of GP, HP and
 * hashing at each level; volume, GP against hash; messages, HP against hash; then the locality
 * figures. Means over the runs, the best run in brackets. Columns of a method that was not asked
 * for are left out; a method asked for whose tool is missing or failed shows "-".
 */
import type { PartitionMetrics } from '../graph/evaluate.js';
import type { Level, Method, PartitionReport, PartitionRow } from '../graph/partition.js';

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

export function partitionTables(r: PartitionReport): string {
  const levels = (['page', 'site'] as const).filter((l) => r.rows.some((x) => x.level === l));
  const asked = (level: Level, method: Method) => method === 'hash' || r.models.includes(method === 'GP' ? level : `${level}-hypergraph`);
  const find = (level: Level, method: Method, k: number) => r.rows.find((x) => x.level === level && x.method === method && x.parts === k);
  const col = (level: Level, method: Method, title: string, cell: Cell): Column[] =>
    asked(level, method) ? [{ title, cell: (k) => { const row = find(level, method, k); return row?.mean ? cell(row) : '-'; } }] : [];
  const metric = (get: (m: PartitionMetrics) => number, fmt: (x: number) => string, withBest: boolean): Cell => (row) =>
    withBest && row.runs > 1 ? `${fmt(get(row.mean!))} (${fmt(get(row.best!))})` : fmt(get(row.mean!));

  const out: string[] = [];
  for (const level of levels) {
    out.push(
      table(`Imbalance at the ${level} level (%: (Wmax - Wavg) / Wavg; storage = bytes, requests = pages per part)`, r.parts, [
        ...col(level, 'GP', 'storage GP', metric((m) => m.storageImbalance, pct, false)),
        ...col(level, 'HP', 'storage HP', metric((m) => m.storageImbalance, pct, false)),
        ...col(level, 'hash', 'storage hash', metric((m) => m.storageImbalance, pct, false)),
        ...col(level, 'GP', 'requests GP', metric((m) => m.requestImbalance, pct, false)),
        ...col(level, 'HP', 'requests HP', metric((m) => m.requestImbalance, pct, false)),
        ...col(level, 'hash', 'requests hash', metric((m) => m.requestImbalance, pct, false)),
      ]),
    );
  }
  const bothLevels = (method: Method, get: (m: PartitionMetrics) => number): Column[] =>
    levels.flatMap((level) => [
      ...col(level, method, `${level} ${method}${r.runs > 1 ? ' (best)' : ''}`, metric(get, int, true)),
      ...col(level, 'hash', `${level} hash`, metric(get, int, false)),
    ]);
  out.push(table('Communication volume (bytes of the URLs of links that cross parts): GP against hash', r.parts, bothLevels('GP', (m) => m.volume)));
  out.push(table('Messages (distinct (page, remote part) pairs): HP against hash', r.parts, bothLevels('HP', (m) => m.messages)));
  const share = (m: PartitionMetrics) => m.linksInside * 100;
  out.push(
    table('Links inside one part (%) and sites split across parts', r.parts, [
      ...levels.flatMap((level) => (['GP', 'HP', 'hash'] as const).flatMap((method) => col(level, method, `${level} ${method} inside`, metric(share, (x) => x.toFixed(2), false)))),
      // Sites split: only a page-level assignment can split a site.
      ...(levels.includes('page') ? (['GP', 'HP', 'hash'] as const).flatMap((method) => col('page', method, `page ${method} sites split`, metric((m) => m.sitesSplit, int, false))) : []),
    ]),
  );
  const failed = r.rows.filter((x) => x.error);
  if (failed.length > 0) out.push(['Runs that failed:', ...failed.map((x) => `  ${x.model} ${x.method} K=${x.parts} (${x.runs} of ${r.runs} runs completed): ${x.error}`)].join('\n'));
  return out.join('\n\n');
}

/** One CSV row per level, model, method and K: the mean and the best run's metrics. */
export function partitionCsv(r: PartitionReport): string[] {
  const keys = ['storageImbalance', 'requestImbalance', 'volume', 'messages', 'linksInside', 'sitesSplit'] as const;
  const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const head = ['level', 'model', 'method', 'k', 'runs', ...keys.map((k) => `mean_${snake(k)}`), ...keys.map((k) => `best_${snake(k)}`), 'seconds'];
  return [
    head.join(','),
    ...r.rows.map((x) =>
      [x.level, x.model, x.method, x.parts, x.runs, ...keys.map((k) => x.mean?.[k] ?? ''), ...keys.map((k) => x.best?.[k] ?? ''), x.seconds.toFixed(3)].join(','),
    ),
  ];
}
