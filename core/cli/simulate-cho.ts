import type { SimulateReport } from '../simulator/report.js';
import { choCsvLines, measureLine, writeLines } from './eval-measure-flags.js';

const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

/**
 * The lines simulate prints for Cho et al.'s models (docs/design.md section 4.6) and Castillo's
 * sampled tau: per policy, Crawl & Stop at K = 1..50% and the share of the hot pages fetched
 * after 10..75% of the crawl, on the report's measure.
 */
export function choText(r: SimulateReport): string[] {
  const m = r.measure;
  const first = r.policies.find((p) => p.cho !== null)?.cho;
  if (!first) return [];
  const hot = m.hot === 'topic' ? 'by the topic rule' : `value >= ${m.g.toPrecision(4)}`;
  const cols = [
    'policy', "tau (sample)",
    ...first.crawlAndStop.map((c) => `C&S ${c.percent}%`),
    ...first.threshold.fetched.map((t) => `hot@${t.percent}%`),
  ];
  const rows = r.policies.map((p) => [
    p.policy,
    `${f3(p.kendallTauSampled.tau)}`,
    ...(p.cho?.crawlAndStop.map((c) => pct(c.share)) ?? []),
    ...(p.cho?.threshold.fetched.map((t) => pct(t.share)) ?? []),
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const sample = r.policies[0]?.kendallTauSampled;
  return [
    '',
    `  Cho et al.'s models on ${measureLine(m)}`,
    `  (${m.hotPages} hot pages of the reachable graph, ${hot}; tau on a ${sample?.size ?? 0}-page sample, seed ${sample?.seed ?? '-'}, as Castillo's Table 4.2)`,
    line(cols),
    ...rows.map(line),
  ];
}

/** The rows --csv gets for Cho's curves (series crawl_and_stop and hot_fetched). */
export function choCsvSeries(r: SimulateReport): string[] {
  const out: string[] = [];
  for (const p of r.policies) {
    for (const c of p.cho?.curve ?? []) out.push(`crawl_and_stop,${p.policy},${c.fractionPages},${c.crawlAndStop}`);
    for (const c of p.cho?.curve ?? []) if (c.hotFetched !== null) out.push(`hot_fetched,${p.policy},${c.fractionPages},${c.hotFetched}`);
  }
  return out;
}

/** --cho-csv: policy, fraction_pages, crawl_and_stop, hot_fetched. */
export function writeChoCsv(path: string, r: SimulateReport): void {
  writeLines('--cho-csv', path, ['policy,fraction_pages,crawl_and_stop,hot_fetched', ...r.policies.flatMap((p) => choCsvLines(p.cho?.curve ?? [], p.policy))]);
}
