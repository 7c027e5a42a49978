import { decimal } from '../config/units.js';
import { writeFileSync } from 'node:fs';
import { badOption } from '../errors.js';
import type { MeasuredEvaluation } from '../ranking/evaluate.js';
import type { ChoPoint, MeasureInfo, MeasureRequest } from '../ranking/report.js';
import { checkWith } from '../config/request-words.js';
import { EvaluationOptionsSchema, MEASURE_SHORT, measureOptionsOf, withoutUndefined } from '../ranking/request-schema.js';
import { checkOutputTarget } from '../store/output-guard.js';

/** The flags that choose an importance measure (eval and simulate share them). */
export const MEASURE_OPTIONS = {
  measure: { type: 'string' },
  'hot-threshold': { type: 'string' },
  query: { type: 'string' },
  'hot-backlinks': { type: 'string' },
  damping: { type: 'string' },
  scale: { type: 'string' },
  location: { type: 'string' },
  'tau-sample': { type: 'string' },
  'cho-csv': { type: 'string' },
} as const;

export const MEASURE_USAGE = `  --measure M      the importance the order is measured against (Cho et al.; docs/design.md
                   section 4.11): pagerank (default) | backlinks (IB) | ir (PageRank with
                   d = 0.9 summing to N) | similarity (IS, tf-idf against --query; stored text
                   of a crawl made with --store-content, else titles) | location (IL)
  --hot-threshold G  hot pages for Crawl & Stop with Threshold: value >= G on the measure's
                   own scale (default: G = 100 for backlinks, 13 for ir as the paper; for
                   similarity the topic rule: a query word in the title or more than ten
                   times in the body; else the value at the top 10%)
  --query WORDS    the query of --measure similarity
  --hot-backlinks N  with --measure similarity: a page hot by the topic rule is hot only with
                   N or more backlinks (Cho et al.'s Graph 7: N = 5)
  --damping D      damping of ir (default 0.9) or pagerank (default 0.85)
  --scale n|1      ir's values sum to N (default, as Cho et al.) or to 1
  --location K     slashes (default: fewer is better) | com (.com hosts) | home ("home" in the URL)
  --tau-sample N   pages in the seeded sample of Kendall's tau shown beside the exact tau-b
                   (default 5000, as Castillo)
  --cho-csv FILE   write Cho's curves: fraction_pages, crawl_and_stop, hot_fetched`;

type MeasureFlags = { [K in keyof typeof MEASURE_OPTIONS]?: string };

/** A number as typed ("" and words arrive as NaN, which the schema refuses in words). */
export const typedNumber = (v: string | undefined) => (v === undefined ? undefined : decimal(v));

/** The measure flags as the measure schema's input (ranking/request-schema.ts; simulate adds them to its own). */
export function measureInput(flags: MeasureFlags): MeasureRequest {
  return {
    measure: flags.measure as MeasureRequest['measure'],
    hotThreshold: typedNumber(flags['hot-threshold']),
    query: flags.query,
    hotBacklinks: typedNumber(flags['hot-backlinks']),
    damping: typedNumber(flags.damping),
    scale: flags.scale as MeasureRequest['scale'],
    location: flags.location as MeasureRequest['location'],
    tauSample: typedNumber(flags['tau-sample']),
  };
}

/** A request field's flag: its name in kebab case (hotThreshold: --hot-threshold). */
export const flagOfField = (field: string) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * eval's flags checked by the evaluation's schema, the one the API and the Results form check
 * with: a refusal names the field's flag with the schema's words (--threshold is --hot-threshold's older name).
 */
export function evalFlags(flags: MeasureFlags & { threshold?: string; points?: string }): ReturnType<typeof measureOptionsOf> & { points?: number } {
  const input = { ...measureInput(flags), threshold: typedNumber(flags.threshold), points: typedNumber(flags.points) };
  const checked = checkWith(EvaluationOptionsSchema, withoutUndefined(input), 'eval');
  if (!checked.ok) throw badOption(flagOfField(checked.refusals[0]!.field), checked.refusals[0]!.problem);
  const { points, ...measure } = checked.value;
  return { ...measureOptionsOf(measure), ...(points !== undefined ? { points } : {}) };
}

/** The lines eval adds for the measure: what it is, the sampled tau. */
export function measureText(ev: MeasuredEvaluation): string[] {
  const s = ev.kendallTauSampled;
  return [
    `  measure                      ${measureLine(ev.measure)}`,
    `  Kendall's tau, ${String(s.size).padStart(5)}-page sample ${Number.isNaN(s.tau) ? '-' : s.tau.toFixed(3)}  (seed ${s.seed}; Castillo's Table 4.2 used 5,000 pages)`,
  ];
}

/** A measure as a report names it. */
export function measureName(name: MeasureInfo['name']): string {
  return MEASURE_SHORT[name];
}

export function measureLine(m: MeasureInfo): string {
  const hot = m.hot === 'topic' ? `; hot: a query word in the title or more than ten times in the body${m.hotBacklinks ? `, and ${m.hotBacklinks} or more backlinks` : ''}` : '';
  return `${m.name}: ${m.scale}${m.damping !== null ? `, d = ${m.damping}` : ''}${m.query !== null ? `; query "${m.query}"` : ''}${hot}`;
}

/** Rows of Cho's curves for a CSV file (a label, e.g. the policy, first when given). */
export function choCsvLines(curve: ChoPoint[], label?: string): string[] {
  return curve.map((p) => [...(label === undefined ? [] : [label]), p.fractionPages, p.crawlAndStop, p.hotFetched ?? ''].join(','));
}

/**
 * The CSV files a command was asked for (`--csv` and the like), each refused as `writeLines`
 * would refuse it, before the work whose results they take: before, a simulation or a
 * partition ran for minutes and was then refused for a CSV path it could have refused at once.
 */
export function checkCsvTargets(flags: { readonly csv?: string; readonly 'cho-csv'?: string; readonly 'series-csv'?: string }): void {
  for (const name of ['csv', 'cho-csv', 'series-csv'] as const) {
    const path = flags[name];
    if (path !== undefined) checkOutputTarget(`--${name}`, path, [], true);
  }
}

/** Writes a CSV file, refusing in one line when it cannot. */
export function writeLines(option: string, path: string, lines: string[]): void {
  // Never over a crawl database (before: `eval DB --csv DB` turned the crawl into a CSV file) or a device.
  checkOutputTarget(option, path, [], true);
  try {
    writeFileSync(path, lines.join('\n') + '\n');
  } catch (err) {
    throw badOption(option, `cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
