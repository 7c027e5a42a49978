import { formatBytes } from '../config/units.js';
import type { CrawlSummary } from '../engine/crawler.js';
import type { StatsSnapshot } from '../engine/stats.js';

/** The live line: pages, pages/s, bytes/s, open connections, sites with pending pages, queue, errors. */
export function progressLine(s: StatsSnapshot): string {
  return (
    `pages ${s.pages}  ${s.pagesPerSecond.toFixed(1)}/s  ${formatBytes(Math.round(s.bytesPerSecond))}/s  ` +
    `conn ${s.openConnections}/${s.r}  sites-pending ${s.sitesWithPending}  queued ${s.queued}  errors ${s.errorTotal}`
  );
}

export function summaryText(s: CrawlSummary): string {
  const errors = Object.entries(s.errors)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `    ${k.padEnd(34)} ${v}`)
    .join('\n');
  const how =
    s.stopReason === 'finished' ? 'finished: the frontier is empty'
    : s.stopReason === 'max-pages' ? 'stopped at --max-pages; run the same command with a larger --max-pages to go on'
    : s.stopReason === 'disk-full' ? 'PAUSED: the disk (or --max-db-size) is full; free space and run the same command to resume'
    : 'paused; run the same command to resume';
  return [
    `crawl ${how}`,
    `  database        ${s.db}`,
    `  pages fetched   ${s.pagesFetched} (known ${s.pagesKnown}, still queued ${s.queued})`,
    `  sites           ${s.sites}`,
    `  links           ${s.links}`,
    `  bytes           ${formatBytes(s.bytes)}`,
    `  time            ${s.seconds.toFixed(1)} s  (${s.pagesPerSecond} pages/s this run)`,
    `  peak RSS        ${formatBytes(s.peakRssBytes)}`,
    `  errors          ${Object.values(s.errors).reduce((a, b) => a + b, 0)}${errors ? '\n' + errors : ''}`,
  ].join('\n');
}

/** Writes the live line to stderr: in place on a terminal, every few seconds otherwise. */
export class ProgressPrinter {
  private lastPlain = 0;
  private readonly tty = process.stderr.isTTY === true;
  constructor(private readonly quiet: boolean) {}
  update(s: StatsSnapshot): void {
    if (this.quiet) return;
    const line = progressLine(s);
    if (this.tty) process.stderr.write(`\r\x1b[K${line}`);
    else if (s.at - this.lastPlain >= 5000) {
      this.lastPlain = s.at;
      process.stderr.write(line + '\n');
    }
  }
  /** A line of its own about work between the live lines (e.g. indexing at the end). */
  note(text: string): void {
    if (this.quiet) return;
    process.stderr.write(this.tty ? `\r\x1b[K${text}\n` : text + '\n');
  }
  end(): void {
    if (!this.quiet && this.tty) process.stderr.write('\n');
  }
}
