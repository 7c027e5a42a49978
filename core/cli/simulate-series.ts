import { writeLines } from './eval-measure-flags.js';
import type { SimulateReport } from '../simulator/report.js';
import { formatDuration } from '../simulator/simulate.js';

export const SERIES_USAGE = `  --series-csv FILE      Castillo's batches and active robots (§4.4, Figures 4.9-4.11), one row a
                         point: series,policy,batch,x,y. active_robots: seconds, robots active
                         (connections open, at most r) over the whole crawl; with --batch also,
                         per batch, batch_pages (seconds formed, pages admitted), batch_retrieval
                         (seconds formed, seconds until its last page), batch_pages_per_site
                         (pages a site has in the batch, sites with that many: Figure 4.9),
                         batch_active_robots (seconds since formed, robots active: Figures 4.10
                         and 4.11), and middle_batch (the batch of the page fetched halfway)`;

/** The rows of --series-csv for a report (header first). */
export function seriesCsvLines(report: SimulateReport): string[] {
  const lines = ['series,policy,batch,x,y'];
  for (const p of report.policies) {
    p.openSeries.t.forEach((t, i) => lines.push(`active_robots,${p.policy},,${t / 1000},${p.openSeries.open[i]}`));
    if (p.middleBatch !== null) lines.push(`middle_batch,${p.policy},${p.middleBatch},,`);
    for (const b of p.batches ?? []) {
      lines.push(`batch_pages,${p.policy},${b.index},${b.formedSeconds},${b.pages}`);
      lines.push(`batch_retrieval,${p.policy},${b.index},${b.formedSeconds},${b.endSeconds === null ? '' : b.endSeconds - b.formedSeconds}`);
      for (const h of b.pagesPerSite) lines.push(`batch_pages_per_site,${p.policy},${b.index},${h.pages},${h.sites}`);
      b.activeRobots.t.forEach((t, i) => lines.push(`batch_active_robots,${p.policy},${b.index},${t},${b.activeRobots.active[i]}`));
    }
  }
  return lines;
}

export function writeSeriesCsv(path: string, report: SimulateReport): void {
  writeLines('--series-csv', path, seriesCsvLines(report));
}

/** A line per policy on its batches, for the text report (nothing without batches). */
export function batchText(r: SimulateReport): string[] {
  const out: string[] = [];
  for (const p of r.policies) {
    if (!p.batches || p.batches.length === 0) continue;
    const m = p.batches.find((b) => b.index === p.middleBatch);
    const middle = m
      ? `; the middle one (#${m.index}): ${m.pages} pages on ${m.sites} sites, ${m.endSeconds === null ? 'not all fetched' : `retrieved in ${formatDuration(m.endSeconds - m.formedSeconds)}`}, ${m.meanActiveRobots.toFixed(1)} of ${r.settings.r} robots active on average`
      : '';
    out.push(`  ${p.policy}: ${p.batches.length} batches${middle}`);
  }
  return out.length > 0 ? ['', `  Batches of ${r.settings.batch} pages (Castillo §4.4; --series-csv for the series):`, ...out] : [];
}
