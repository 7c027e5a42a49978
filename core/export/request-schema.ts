/**
 * An export's request as a schema (issue 24): `crawlbench export`'s flags, the API's startExport
 * and the Export dialog are checked by it, so they refuse a bad value with the same field and
 * words. The API and the dialog check the request before a place is chosen (the host names
 * `out`); the engine checks the whole options, `out` included. Browser-safe: zod only (the
 * renderer imports it).
 */
import { z } from 'zod';

export const EXPORT_FORMATS = ['warc', 'jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_SUBJECTS = ['pages', 'sites', 'links'] as const;
export type ExportSubject = (typeof EXPORT_SUBJECTS)[number];

/** WARC files are split at this size unless asked otherwise (1 GB, the usual collection unit). */
export const DEFAULT_MAX_FILE_SIZE = 1e9;
const MIN_FILE_SIZE = 1024;

/** A choice among a list, its refusal naming the value and the list ("table" for `what`). */
function choice<T extends readonly [string, ...string[]]>(choices: T, noun: string) {
  return z.enum(choices, {
    error: (iss) => `${iss.input === undefined ? 'required' : `"${String(iss.input)}" is not a ${noun} crawlbench exports`}; the ${noun}s are ${choices.join(', ')}`,
  });
}

/** A filter: text, or a list of texts, each split at commas; absent = none. */
const list = z
  .union([z.string(), z.array(z.string())], { error: 'must be text' })
  .nullish()
  .transform((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]).flatMap((x) => x.split(',').map((s) => s.trim()).filter(Boolean)));

const lower = list.transform((items) => items.map((s) => s.toLowerCase()));

const statuses = lower.superRefine((items, ctx) => {
  const bad = items.find((s) => !/^[1-5](\d\d|xx)$/.test(s));
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `"${bad}" is not an HTTP status or class (200, 404, 2xx, 4xx)` });
});

/** `FROM..TO`, `FROM..`, `..TO` or one number; null when the text is none of them. */
function rangeOf(text: string): [number, number] | null {
  const m = /^(\d*)\s*(?:\.\.\s*(\d*))?$/.exec(text);
  const from = m?.[1] ? Number(m[1]) : m?.[2] !== undefined ? 1 : NaN;
  const to = m?.[2] !== undefined ? (m[2] ? Number(m[2]) : Number.MAX_SAFE_INTEGER) : from;
  const ok = m && Number.isSafeInteger(from) && Number.isSafeInteger(to) && from <= to && !(m[1] === '' && m[2] === '');
  return ok ? [from, to] : null;
}

const seq = list.transform((items, ctx) => {
  const ranges = items.map(rangeOf);
  const bad = items.find((_, i) => ranges[i] === null);
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `"${bad}" is not a fetch sequence range (FROM..TO, FROM.., ..TO or N)` });
  return ranges.filter((r): r is [number, number] => r !== null);
});

export const ExportFiltersSchema = z.object({ sites: lower, statuses, contentTypes: lower, seq }).default({ sites: [], statuses: [], contentTypes: [], seq: [] });

const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const fields = {
  format: choice(EXPORT_FORMATS, 'format'),
  /** WARC always holds fetches (pages and robots.txt); the other formats one table. */
  what: choice(EXPORT_SUBJECTS, 'table').default('pages'),
  /** WARC file names start with this (default: the crawl's name). */
  prefix: z
    .string({ error: 'must be text' })
    .nullish()
    .transform((p) => (p ? p : null))
    .refine((p) => p === null || PREFIX.test(p), { error: (iss) => `"${String(iss.input)}" is not a file name prefix (letters, digits, . _ -)` }),
  filters: ExportFiltersSchema,
  maxFileSize: z.number({ error: `must be at least ${MIN_FILE_SIZE} bytes` }).min(MIN_FILE_SIZE, `must be at least ${MIN_FILE_SIZE} bytes`).default(DEFAULT_MAX_FILE_SIZE),
  /** Write a CDXJ index beside the WARC files. */
  cdx: z.boolean({ error: 'must be true or false' }).nullish().transform(Boolean),
  /** Replace an existing output. */
  force: z.boolean({ error: 'must be true or false' }).nullish().transform(Boolean),
  /** Pause this long after each chunk of rows (tests and demonstrations hold an export mid-way with it). */
  throttleMs: z.number({ error: 'must be a duration >= 0' }).min(0, 'must be a duration >= 0').default(0),
};

type Fitting = { format: ExportFormat; what: ExportSubject; cdx: boolean; filters: z.output<typeof ExportFiltersSchema> };

/** What cannot go together: a WARC of another table, a CDXJ index of no WARC, a filter that cannot apply (refused rather than ignored). */
function fits(o: Fitting, ctx: z.RefinementCtx): void {
  const say = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (o.format === 'warc' && o.what !== 'pages') {
    return say(['what'], `a WARC export holds the fetches (pages and robots.txt), not ${o.what}: use jsonl, csv or parquet for ${o.what}`);
  }
  const f = o.filters;
  const table = o.format === 'warc' ? 'pages' : o.what;
  if (table === 'sites' && (f.statuses.length || f.contentTypes.length || f.seq.length)) {
    return say(['filters', f.statuses.length ? 'statuses' : f.contentTypes.length ? 'contentTypes' : 'seq'], 'sites are filtered by site only');
  }
  if (table === 'links' && (f.statuses.length || f.contentTypes.length)) {
    return say(['filters', f.statuses.length ? 'statuses' : 'contentTypes'], "links are filtered by their source page's site and fetch sequence only");
  }
  if (o.cdx && o.format !== 'warc') say(['cdx'], 'a CDXJ index is for WARC exports');
}

/** The request before a place is chosen (the API's startExport, the Export dialog). */
export const ExportRequestSchema = z.object(fields).superRefine(fits);

/** The engine's whole options: the request and where to write it (a file, or a directory for WARC). */
export const ExportOptionsSchema = z
  .object({ ...fields, out: z.string({ error: 'required: where to write the export' }).refine((s) => s.trim() !== '', 'required: where to write the export') })
  .superRefine(fits);

/** The API's request (flat filters, as the contract's ExportRequest) as the schemas' input. */
export function exportInputOf(req: { sites?: unknown; statuses?: unknown; contentTypes?: unknown; seq?: unknown; [k: string]: unknown }): Record<string, unknown> {
  const { sites, statuses, contentTypes, seq, ...rest } = req;
  return { ...rest, filters: { sites, statuses, contentTypes, seq } };
}
