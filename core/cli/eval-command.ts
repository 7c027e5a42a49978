import { evaluateCrawl, type MeasuredEvaluation } from '../ranking/evaluate.js';
import { DEFAULT_DAMPING } from '../ranking/pagerank.js';
import { defineCommand } from './command.js';
import { checkCsvTargets, choCsvLines, evalFlags, MEASURE_OPTIONS, MEASURE_USAGE, measureName, measureText, writeLines } from './eval-measure-flags.js';
import { onePositional } from './rank-command.js';

const USAGE = `crawlbench eval DB [--oracle DB] [--measure M] [--hot-threshold G] [--json] [--csv FILE] [--points N]

Measures how well a finished crawl ordered its fetches: the cumulative PageRank of pages in
fetch order (against pages and time), its average (area under the curve; random = 0.5),
Kendall's tau-b between fetch order and PageRank (+1: decreasing PageRank), Cho's Crawl &
Stop and Crawl & Stop with Threshold. Truth: the PageRank of the crawl's own complete graph
(the latest stored \`crawlbench rank\` run, else computed now), or of --oracle matched by URL.
Values are normalised over the fetched pages.
  --oracle DB      a crawl whose PageRank is the truth (pages it lacks count 0)
${MEASURE_USAGE}
  --threshold G    the older name of --hot-threshold
  --csv FILE       write the curves: fraction_pages, cumulative_pagerank, seconds, random, upper_bound
  --points N       points kept in the curves (default 1000)
  --json           print one JSON object on stdout (curve included)`;

const OPTIONS = {
  oracle: { type: 'string' },
  json: { type: 'boolean' },
  csv: { type: 'string' },
  threshold: { type: 'string' },
  points: { type: 'string' },
  ...MEASURE_OPTIONS,
} as const;

export const evalCommand = defineCommand({
  name: 'eval',
  summary: "measure a finished crawl's ordering against PageRank",
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    const db = onePositional(positionals);
    const csv = flags.csv;
    checkCsvTargets(flags);
    // The flags become the evaluation schema's input (eval-measure-flags.ts): its refusals, at the flag.
    const ev = evaluateCrawl(db, { oracle: flags.oracle, ...evalFlags(flags) });
    if (csv !== undefined) writeCsv(csv, ev);
    if (flags['cho-csv'] !== undefined) writeLines('--cho-csv', flags['cho-csv'], ['fraction_pages,crawl_and_stop,hot_fetched', ...choCsvLines(ev.choCurve)]);
    if (flags.json) process.stdout.write(JSON.stringify(ev) + '\n');
    else process.stdout.write(evaluationText(ev) + '\n');
    return 0;
  },
});

function writeCsv(path: string, ev: MeasuredEvaluation): void {
  const lines = ['fraction_pages,cumulative_pagerank,seconds,random,upper_bound'];
  for (const p of ev.curve) lines.push([p.fractionPages, p.cumulativePageRank, p.seconds, p.random, p.upperBound].join(','));
  writeLines('--csv', path, lines);
}

const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);
const num = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(3));

export function evaluationText(ev: MeasuredEvaluation): string {
  const what = measureName(ev.measure.name);
  const truth =
    ev.truth === 'oracle' ? `oracle ${ev.oracle} (it holds ${pct(ev.truthCovered)} of its ${what} on pages fetched here)`
    : ev.truth === 'stored' ? `stored PageRank run of this crawl (damping ${ev.damping})`
    : what !== 'PageRank' || ev.damping !== DEFAULT_DAMPING ? `${what} of this crawl's pages, computed now`
    : `PageRank of this crawl's graph, computed now (damping ${ev.damping}; \`crawlbench rank\` stores it)`;
  return [
    `evaluation of ${ev.db}`,
    `  truth                        ${truth}`,
    `  pages fetched                ${ev.pagesFetched} in ${ev.crawlSeconds.toFixed(1)} s`,
    `  average cumulative ${what}`.padEnd(31) + `${num(ev.averageCumulativePageRank)}  (random 0.500, best order ${num(ev.upperBoundAverage)})`,
    `  Kendall's tau-b              ${num(ev.kendallTau)}  (fetch order vs ${what}; +1 = highest first)`,
    ...measureText(ev),
    `  Crawl & Stop (top-K among first K fetched)`,
    ...ev.crawlAndStop.map((c) => `    K = ${String(c.percent).padStart(2)}% (${c.k})`.padEnd(31) + pct(c.share)),
    `  Crawl & Stop with Threshold: ${ev.threshold.hotPages} hot pages (${ev.measure.hot === 'topic' ? 'by the topic rule' : `value >= ${ev.threshold.g.toPrecision(4)}`})`,
    ...ev.threshold.fetched.map((t) => `    after ${String(t.percent).padStart(2)}% of the crawl`.padEnd(31) + pct(t.share)),
    `  pages needed for a share of the ${what}`,
    ...ev.pagesForPageRank.map((p) => `    ${pct(p.pageRank)} of ${what}`.padEnd(31) + `${pct(p.fractionPages)} of pages`),
  ].join('\n');
}
