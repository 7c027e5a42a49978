/**
 * An export's options, checked once at the entry with the export's schema (request-schema.ts:
 * the CLI's flags and the API's request both become this) and frozen: a bad value is a
 * CrawlError naming its field, so that the workbench shows it at the field and the CLI names
 * the flag.
 */
import { checkWith } from '../config/request-words.js';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import { ExportOptionsSchema, type ExportFormat, type ExportSubject } from './request-schema.js';

export { DEFAULT_MAX_FILE_SIZE, EXPORT_FORMATS, EXPORT_SUBJECTS, type ExportFormat, type ExportSubject } from './request-schema.js';

export interface ExportFilters {
  /** Site keys (sites.host); a page, link (by its source) or site matches one of them. */
  sites: readonly string[];
  /** `200`, `404`, or a class `2xx`; a page matches one of them. */
  statuses: readonly string[];
  /** Content-type prefixes, lower case (`text/html`, `image/`). */
  contentTypes: readonly string[];
  /** Inclusive fetch sequence ranges; a page (or a link's source) fetched in one of them. */
  seq: ReadonlyArray<readonly [number, number]>;
}

export interface ExportOptions {
  format: ExportFormat;
  /** WARC always holds fetches (pages and robots.txt); the other formats one table. */
  what: ExportSubject;
  /** A file (jsonl, csv, parquet) or a directory (WARC). */
  out: string;
  /** WARC file names start with this (default: the crawl's name). */
  prefix: string | null;
  filters: ExportFilters;
  maxFileSize: number;
  /** Write a CDXJ index beside the WARC files. */
  cdx: boolean;
  /** Replace an existing output. */
  force: boolean;
  /** Pause this long after each chunk of rows (tests and demonstrations hold an export mid-way with it). */
  throttleMs: number;
}

export type ExportInput = {
  [K in keyof ExportOptions]?: K extends 'filters' ? Partial<Record<keyof ExportFilters, unknown>> : unknown;
};

/** The options checked with the export's schema (request-schema.ts): the first refusal thrown as a CrawlError naming its field. */
export function parseExportOptions(input: ExportInput): Readonly<ExportOptions> {
  const checked = checkWith(ExportOptionsSchema, input, 'an export');
  if (!checked.ok) throw badField(checked.refusals[0]!.field, checked.refusals[0]!.problem);
  const o = checked.value;
  return Object.freeze({ ...o, filters: o.filters as ExportFilters });
}

/** True when no filter is set. */
export function unfiltered(f: ExportFilters): boolean {
  return !f.sites.length && !f.statuses.length && !f.contentTypes.length && !f.seq.length;
}

export function statusMatches(f: ExportFilters, status: number | null): boolean {
  if (!f.statuses.length) return true;
  if (status === null) return false;
  const s = String(status);
  return f.statuses.some((p) => (p.endsWith('xx') ? s[0] === p[0] && s.length === 3 : s === p));
}

export function contentTypeMatches(f: ExportFilters, contentType: string | null): boolean {
  if (!f.contentTypes.length) return true;
  const ct = (contentType ?? '').trim().toLowerCase();
  return f.contentTypes.some((p) => ct.startsWith(p));
}

export function seqMatches(f: ExportFilters, seq: number | null): boolean {
  if (!f.seq.length) return true;
  return seq !== null && f.seq.some(([a, b]) => seq >= a && seq <= b);
}

export function cancelledError(): CrawlError {
  return new CrawlError(ErrorCodes.CANCELLED, 'the export was cancelled; its partial files were removed');
}
