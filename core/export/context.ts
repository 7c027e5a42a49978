/**
 * What every format's writer gets: the crawl's reader (one snapshot), the checked options,
 * the output files, and `tick`, through which it reports progress and learns of a cancel.
 */
import type { CrawlReader } from '../store/crawl-reader.js';
import type { ExportOptions } from './options.js';
import type { OutputFiles } from './output-files.js';

export interface ExportContext {
  readonly reader: CrawlReader;
  readonly options: Readonly<ExportOptions>;
  /** The crawl's name (its file name without .db): the default WARC prefix. */
  readonly crawlName: string;
  readonly out: OutputFiles;
  /** Things the user should know about the result (what an older crawl lacks, an empty filter...). */
  readonly warnings: string[];
  /**
   * Progress: `done` of `total` rows (pages, sites or links) read. Throws CRAWL_CANCELLED once
   * the export was cancelled; waits `throttleMs` when asked to. Call it every chunk of rows.
   */
  tick(done: number, total: number): Promise<void>;
}

/** Rows between two ticks. */
export const TICK_ROWS = 1000;
