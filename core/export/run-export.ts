/**
 * One export, start to end: the crawl opened through one reader (one snapshot, so a running
 * crawl exports as it was at that moment), the format's writer, progress and cancel through
 * `tick`, and the files renamed into place only when everything was written; on any failure or
 * cancel the temporary files are removed.
 */
import { basename } from 'node:path';
import { CrawlReader } from '../store/crawl-reader.js';
import type { ExportContext } from './context.js';
import { cancelledError, unfiltered, type ExportOptions } from './options.js';
import { OutputFiles } from './output-files.js';
import { tableWriter } from './table-writers.js';
import { COLUMNS, tableRows } from './tables.js';
import { exportWarc } from './warc-export.js';

export interface ExportProgressInfo {
  /** Rows read (pages, or for WARC the fetch sequence reached), of `total`. */
  done: number;
  total: number;
  unit: 'pages' | 'sites' | 'links';
  bytesWritten: number;
}

export interface ExportSummary {
  format: ExportOptions['format'];
  what: ExportOptions['what'];
  files: Array<{ path: string; bytes: number }>;
  /** Rows written (JSON Lines, CSV, Parquet). */
  rows: number | null;
  /** WARC: response and revisit records written. */
  responses: number | null;
  revisits: number | null;
  warnings: string[];
  /** The highest fetch sequence number exported from (the snapshot). */
  snapshotFetchSeq: number;
  seconds: number;
}

export interface ExportHooks {
  onProgress?(p: ExportProgressInfo): void;
  /** Polled between chunks of rows: true stops the export (CRAWL_CANCELLED), removing its files. */
  cancelled?(): boolean;
  /** Least time between two onProgress calls (default 200 ms). */
  progressEveryMs?: number;
}

export async function runExport(dbPath: string, options: Readonly<ExportOptions>, hooks: ExportHooks = {}): Promise<ExportSummary> {
  const started = performance.now();
  const reader = CrawlReader.openMigrated(dbPath);
  const out = new OutputFiles();
  const warnings: string[] = [];
  const unit = options.format === 'warc' ? 'pages' : options.what;
  let lastProgress = 0;
  const every = hooks.progressEveryMs ?? 200;
  const ctx: ExportContext = {
    reader,
    options,
    crawlName: basename(dbPath).replace(/\.db$/, ''),
    out,
    warnings,
    async tick(done, total) {
      if (hooks.cancelled?.()) throw cancelledError();
      const now = performance.now();
      if (hooks.onProgress && (now - lastProgress >= every || done >= total)) {
        lastProgress = now;
        hooks.onProgress({ done, total, unit, bytesWritten: out.bytesWritten });
      }
      // Yield to the event loop (a cancel message, a socket) between chunks; sleep when throttled.
      await new Promise((resolve) => (options.throttleMs > 0 ? setTimeout(resolve, options.throttleMs) : setImmediate(resolve)));
      if (hooks.cancelled?.()) throw cancelledError();
    },
  };
  try {
    if (reader.state() === 'running') {
      warnings.push(`the crawl is running: exported as of one moment (its fetch ${reader.snapshot.fetchSeq}); fetches stored since are not in the export`);
    }
    let rows: number | null = null;
    let responses: number | null = null;
    let revisits: number | null = null;
    if (options.format === 'warc') {
      const r = await exportWarc(ctx);
      responses = r.responses;
      revisits = r.revisits;
    } else {
      out.checkFile(options.out, options.force);
      const file = out.open(options.out);
      const writer = tableWriter(options.format, COLUMNS[options.what], out, file);
      rows = 0;
      for await (const chunk of tableRows(ctx)) {
        rows += chunk.length;
        await writer.write(chunk);
      }
      await writer.finish();
      if (rows === 0) warnings.push(unfiltered(options.filters) ? `the crawl has no ${options.what}: the file is valid and empty` : `no ${options.what} matched the filters: the file is valid and empty`);
    }
    if (hooks.cancelled?.()) throw cancelledError();
    const files = out.commit();
    return { format: options.format, what: options.what, files, rows, responses, revisits, warnings, snapshotFetchSeq: reader.snapshot.fetchSeq, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    out.abort();
    throw err;
  } finally {
    reader.close();
  }
}
