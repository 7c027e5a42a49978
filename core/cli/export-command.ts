import { formatBytes } from '../config/units.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { DEFAULT_MAX_FILE_SIZE, EXPORT_FORMATS, EXPORT_SUBJECTS, parseExportOptions } from '../export/options.js';
import type { ExportSummary } from '../export/run-export.js';
import { listFlag, sizeFlag, waitFlag } from './args.js';
import { defineCommand } from './command.js';
import { onePositional } from './rank-command.js';
import { checkOutputTarget } from '../store/output-guard.js';

const USAGE = `crawlbench export DB --format ${EXPORT_FORMATS.join('|')} [--what ${EXPORT_SUBJECTS.join('|')}] --out PATH [filters] [options]

Exports a crawl as of one moment (a running crawl is read as of the start of the export):
  warc      WARC 1.1 files (gzip per record) of every fetch: responses as received, their
            requests, revisits for payloads already written, robots.txt answers. Needs a crawl
            made with --store-content. --out is a directory; files are
            PREFIX-YYYYMMDDhhmmss-NNNNN.warc.gz (the crawl's start time, a serial number)
  jsonl     JSON Lines of one table: pages, sites or links (--what, default pages)
  csv       CSV (RFC 4180, a header row) of one table
  parquet   Parquet (typed columns) of one table
Files are written under a temporary name and renamed when complete.
  --format F             ${EXPORT_FORMATS.join(', ')}
  --what T               ${EXPORT_SUBJECTS.join(', ')} (jsonl, csv, parquet; default pages)
  --out PATH             the file (jsonl, csv, parquet) or directory (warc) to write
  --site HOST            only this site (repeatable, or comma-separated)
  --status S             only these HTTP statuses: 200, 404, 2xx, 4xx... (repeatable)
  --content-type PREFIX  only content types starting so: text/html, image/ (repeatable)
  --seq FROM..TO         only fetches numbered FROM to TO (FROM.., ..TO; repeatable)
  --prefix NAME          WARC file name prefix (default: the crawl's name)
  --max-file-size SIZE   start a new WARC file past this size (default ${formatBytes(DEFAULT_MAX_FILE_SIZE)})
  --cdx                  also write a CDXJ index of the WARC files (PREFIX-YYYYMMDDhhmmss.cdxj)
  --force                replace existing output
  --throttle DURATION    pause this long after each 1,000 rows (to watch or test progress and cancel)
  --json                 print the summary as one JSON object
  --quiet                no progress line`;

const OPTIONS = {
  format: { type: 'string' },
  what: { type: 'string' },
  out: { type: 'string' },
  site: { type: 'string', multiple: true },
  status: { type: 'string', multiple: true },
  'content-type': { type: 'string', multiple: true },
  seq: { type: 'string', multiple: true },
  prefix: { type: 'string' },
  'max-file-size': { type: 'string' },
  cdx: { type: 'boolean' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  throttle: { type: 'string' },
} as const;

/** Option fields as the CLI names them (the engine's errors name fields, the CLI its flags). */
const FLAGS: Record<string, string> = {
  'filters.sites': '--site', 'filters.statuses': '--status', 'filters.contentTypes': '--content-type', 'filters.seq': '--seq',
  maxFileSize: '--max-file-size', throttleMs: '--throttle',
};

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'export a crawl: WARC 1.1 (with a CDXJ index), JSON Lines, CSV or Parquet',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    const db = onePositional(positionals);
    let options;
    try {
      options = parseExportOptions({
        format: flags.format, what: flags.what, out: flags.out, prefix: flags.prefix, cdx: flags.cdx, force: flags.force,
        maxFileSize: sizeFlag(flags, 'max-file-size'), throttleMs: waitFlag(flags, 'throttle'),
        filters: { sites: listFlag(flags, 'site'), statuses: listFlag(flags, 'status'), contentTypes: listFlag(flags, 'content-type'), seq: listFlag(flags, 'seq') },
      });
    } catch (err) {
      throw withFlag(err);
    }
    // Not the crawl it reads, a crawl database, or a device, even with --force.
    checkOutputTarget('--out', options.out, [db], options.format !== 'warc', true);
    const live = !flags.quiet && !flags.json;
    const tty = process.stderr.isTTY === true;
    let cancelled = false;
    const onSignal = () => (cancelled = true);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let summary: ExportSummary;
    try {
      // Loaded when run, not at start-up: the writers pull in warcio, Parquet and CSV libraries.
      const { runExport } = await import('../export/run-export.js');
      summary = await runExport(db, options, {
        cancelled: () => cancelled,
        progressEveryMs: tty ? 200 : 5000,
        onProgress: (p) => {
          if (!live) return;
          const line = `export ${p.done}/${p.total} ${p.unit}  ${formatBytes(p.bytesWritten)} written`;
          process.stderr.write(tty ? `\r\x1b[K${line}` : line + '\n');
        },
      });
    } catch (err) {
      throw withFlag(err);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (live && tty) process.stderr.write('\n');
    }
    if (flags.json) process.stdout.write(JSON.stringify({ db, ...summary, peakRssBytes: process.resourceUsage().maxRSS * 1024 }) + '\n');
    else process.stdout.write(summaryText(summary) + '\n');
    return 0;
  },
});

function withFlag(err: unknown): unknown {
  if (!(err instanceof CrawlError) || err.field === undefined) return err;
  const flag = FLAGS[err.field] ?? `--${err.field}`;
  const msg = err.message.startsWith(`${err.field}:`) ? `${flag}${err.message.slice(err.field.length)}` : err.message;
  return new CrawlError(err.code ?? ErrorCodes.BAD_OPTION, msg, { cause: err });
}

function summaryText(s: ExportSummary): string {
  const lines = [
    `exported ${s.format === 'warc' ? `${s.responses} responses and ${s.revisits} revisits (each with its request)` : `${s.rows} ${s.what}`} in ${s.seconds.toFixed(1)} s`,
    ...s.files.map((f) => `  ${f.path}  ${formatBytes(f.bytes)}`),
    ...s.warnings.map((w) => `  note: ${w}`),
  ];
  return lines.join('\n');
}
