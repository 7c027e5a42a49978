import { writeFileSync } from 'node:fs';
import { badOption } from '../errors.js';
import type { MeasuredEvaluation } from '../ranking/evaluate.js';
import type { ChoPoint, MeasureInfo } from '../ranking/report.js';
import type { MeasureOptions } from '../ranking/measure.js';
import { choiceFlag, intFlag, rangeFlag } from './args.js';

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

/** The measure options from the flags; --threshold is --hot-threshold's older name. */
export function measureFlags(flags: MeasureFlags & { threshold?: string }): MeasureOptions & { threshold?: number; tauSample?: number } {
  if (flags.threshold !== undefined && flags['hot-threshold'] !== undefined) throw badOption('--threshold', 'give --hot-threshold or its older name --threshold, not both');
  const measure = choiceFlag(flags, 'measure', ['pagerank', 'backlinks', 'ir', 'similarity', 'location']);
  const name = flags.threshold !== undefined ? 'threshold' : 'hot-threshold';
  // Only the location metric has values below 0 (minus the slashes).
  const threshold = measure === 'location'
    ? rangeFlag({ [name]: flags[name] }, name, Number.isFinite, 'a number')
    : rangeFlag({ [name]: flags[name] }, name, (x) => x >= 0, 'a number >= 0');
  const hotBacklinks = intFlag(flags, 'hot-backlinks', 0);
  // Checked here too, so that simulate refuses before it loads the graph.
  if (hotBacklinks !== undefined && measure !== 'similarity') throw badOption('--hot-backlinks', 'only with --measure similarity (the topic rule\'s hot pages)');
  return {
    measure,
    threshold,
    query: flags.query,
    hotBacklinks,
    damping: rangeFlag(flags, 'damping', (x) => x >= 0 && x <= 1, 'a number in [0, 1]'),
    scale: choiceFlag(flags, 'scale', ['n', '1']),
    location: choiceFlag(flags, 'location', ['slashes', 'com', 'home']),
    tauSample: intFlag(flags, 'tau-sample', 2),
  };
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
  return { pagerank: 'PageRank', backlinks: 'IB (backlinks)', ir: 'IR', similarity: 'IS (similarity)', location: 'IL (location)' }[name];
}

export function measureLine(m: MeasureInfo): string {
  const hot = m.hot === 'topic' ? `; hot: a query word in the title or more than ten times in the body${m.hotBacklinks ? `, and ${m.hotBacklinks} or more backlinks` : ''}` : '';
  return `${m.name}: ${m.scale}${m.damping !== null ? `, d = ${m.damping}` : ''}${m.query !== null ? `; query "${m.query}"` : ''}${hot}`;
}

/** Rows of Cho's curves for a CSV file (a label, e.g. the policy, first when given). */
export function choCsvLines(curve: ChoPoint[], label?: string): string[] {
  return curve.map((p) => [...(label === undefined ? [] : [label]), p.fractionPages, p.crawlAndStop, p.hotFetched ?? ''].join(','));
}

/** Writes a CSV file, refusing in one line when it cannot. */
export function writeLines(option: string, path: string, lines: string[]): void {
  try {
    writeFileSync(path, lines.join('\n') + '\n');
  } catch (err) {
    throw badOption(option, `cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
