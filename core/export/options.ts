/**
 * An export's options, checked once at the entry (the CLI's flags and the API's request both
 * become this) and frozen: a bad value is a CrawlError naming its field, so that the workbench
 * shows it at the field and the CLI names the flag.
 */
import { CrawlError, ErrorCodes, badField } from '../errors.js';

export const EXPORT_FORMATS = ['warc', 'jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_SUBJECTS = ['pages', 'sites', 'links'] as const;
export type ExportSubject = (typeof EXPORT_SUBJECTS)[number];

/** WARC files are split at this size unless asked otherwise (1 GB, the usual collection unit). */
export const DEFAULT_MAX_FILE_SIZE = 1e9;
const MIN_FILE_SIZE = 1024;

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

const NO_FILTERS: ExportFilters = { sites: [], statuses: [], contentTypes: [], seq: [] };

export function parseExportOptions(input: ExportInput): Readonly<ExportOptions> {
  const format = choice('format', input.format, EXPORT_FORMATS, undefined);
  const what = choice('what', input.what, EXPORT_SUBJECTS, 'pages');
  if (format === 'warc' && input.what !== undefined && what !== 'pages') {
    throw badField('what', `a WARC export holds the fetches (pages and robots.txt), not ${what}: use jsonl, csv or parquet for ${what}`);
  }
  if (typeof input.out !== 'string' || input.out.trim() === '') throw badField('out', 'required: where to write the export');
  const filters = parseFilters(input.filters ?? {});
  checkFiltersFit(format, what, filters);
  const maxFileSize = input.maxFileSize === undefined ? DEFAULT_MAX_FILE_SIZE : Number(input.maxFileSize);
  if (!Number.isFinite(maxFileSize) || maxFileSize < MIN_FILE_SIZE) throw badField('maxFileSize', `must be at least ${MIN_FILE_SIZE} bytes`);
  const prefix = input.prefix === undefined || input.prefix === null || input.prefix === '' ? null : String(input.prefix);
  if (prefix !== null && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(prefix)) throw badField('prefix', `"${prefix}" is not a file name prefix (letters, digits, . _ -)`);
  if (input.cdx && format !== 'warc') throw badField('cdx', 'a CDXJ index is for WARC exports');
  const throttleMs = input.throttleMs === undefined ? 0 : Number(input.throttleMs);
  if (!Number.isFinite(throttleMs) || throttleMs < 0) throw badField('throttleMs', 'must be a duration >= 0');
  return Object.freeze({ format, what, out: input.out, prefix, filters, maxFileSize, cdx: !!input.cdx, force: !!input.force, throttleMs });
}

function choice<T extends string>(field: string, v: unknown, choices: readonly T[], fallback: T | undefined): T {
  if (v === undefined && fallback !== undefined) return fallback;
  const found = choices.find((c) => c === v);
  if (found === undefined) {
    const noun = field === 'what' ? 'table' : field;
    throw badField(field, `${v === undefined ? 'required' : `"${String(v)}" is not a ${noun} crawlbench exports`}; the ${noun}s are ${choices.join(', ')}`);
  }
  return found;
}

function list(field: string, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  return items.flatMap((x) => {
    if (typeof x !== 'string') throw badField(field, 'must be text');
    return x.split(',').map((s) => s.trim()).filter(Boolean);
  });
}

export function parseFilters(raw: Partial<Record<keyof ExportFilters, unknown>>): ExportFilters {
  if (raw === NO_FILTERS) return NO_FILTERS;
  const sites = list('filters.sites', raw.sites).map((s) => s.toLowerCase());
  const statuses = list('filters.statuses', raw.statuses).map((s) => s.toLowerCase());
  for (const s of statuses) if (!/^[1-5](\d\d|xx)$/.test(s)) throw badField('filters.statuses', `"${s}" is not an HTTP status or class (200, 404, 2xx, 4xx)`);
  const contentTypes = list('filters.contentTypes', raw.contentTypes).map((s) => s.toLowerCase());
  const seq = list('filters.seq', raw.seq).map(parseRange);
  return { sites, statuses, contentTypes, seq };
}

/** `FROM..TO`, `FROM..`, `..TO` or one number. */
function parseRange(text: string): [number, number] {
  const m = /^(\d*)\s*(?:\.\.\s*(\d*))?$/.exec(text);
  const from = m?.[1] ? Number(m[1]) : m?.[2] !== undefined ? 1 : NaN;
  const to = m?.[2] !== undefined ? (m[2] ? Number(m[2]) : Number.MAX_SAFE_INTEGER) : from;
  if (!m || !Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to || (m[1] === '' && m[2] === '')) {
    throw badField('filters.seq', `"${text}" is not a fetch sequence range (FROM..TO, FROM.., ..TO or N)`);
  }
  return [from, to];
}

/** A filter that cannot apply to what is exported is refused rather than silently ignored. */
function checkFiltersFit(format: ExportFormat, what: ExportSubject, f: ExportFilters): void {
  const table = format === 'warc' ? 'pages' : what;
  if (table === 'sites' && (f.statuses.length || f.contentTypes.length || f.seq.length)) {
    throw badField(f.statuses.length ? 'filters.statuses' : f.contentTypes.length ? 'filters.contentTypes' : 'filters.seq', 'sites are filtered by site only');
  }
  if (table === 'links' && (f.statuses.length || f.contentTypes.length)) {
    throw badField(f.statuses.length ? 'filters.statuses' : 'filters.contentTypes', 'links are filtered by their source page\'s site and fetch sequence only');
  }
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
