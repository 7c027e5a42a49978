import { choCurve, crawlAndStopTable, thresholdTable, topTenthThreshold } from './cho-models.js';
import { curveValues, measuredTruth, type MeasuredTruth } from './evaluate-measure.js';
import type { MeasureExtras, OrderExtras } from './report.js';
import { paperThreshold } from './importance.js';
import { CASTILLO_TAU_SAMPLE, DEFAULT_TAU_SEED, kendallTauSample } from './kendall-sample.js';
import { checkMeasure, type MeasureOptions } from './measure.js';
import { CrawlReader } from '../store/crawl-reader.js';
import { loadCrawlGraph, pageRankByUrl } from './crawl-graph.js';
import { kendallTauB } from './kendall.js';
import { DEFAULT_DAMPING, DEFAULT_TOLERANCE, iterationFraction, pagerank } from './pagerank.js';
import type { Evaluation } from './report.js';

export interface EvaluateOptions {
  /** Another crawl whose PageRank (matched by canonical URL) is the truth. */
  oracle?: string;
  /**
   * Hot-page threshold G for Crawl & Stop with Threshold, on the measure's own scale (PageRank:
   * normalised over the fetched pages). Default: the paper's G where it gives one (IB 100, IR
   * with d = 0.9 summing to N 13), the topic rule for similarity, else the top 10%'s value.
   */
  threshold?: number;
  /** Points kept in the curve (default 1000). */
  points?: number;
  /** Told each step and how far the whole evaluation is (0..1), for a progress bar. */
  progress?: (step: string, fraction: number) => void;
  /** Pages in the sample of Kendall's tau reported beside the exact one (default 5,000, as Castillo). */
  tauSample?: number;
  tauSeed?: number;
  /** Points of Cho's curves (default 100). */
  choPoints?: number;
}

export type { CurvePoint, Evaluation } from './report.js';

/** What `crawlbench eval` reports: the evaluation, its measure, the sampled tau and Cho's curves. */
export type MeasuredEvaluation = Evaluation & MeasureExtras & OrderExtras;

const PAGERANK_SHARES = [0.5, 0.8, 0.95];

/**
 * Quality of a finished crawl (docs/design.md section 4). The truth is the PageRank of the
 * complete crawled graph (every known page a node; a stored fresh run is reused), or of an
 * oracle crawl matched by URL (pages it lacks get 0); or another of Cho et al.'s measures
 * (section 4.11: backlinks, IR, similarity to a query, location) of either. Either way the
 * values of the pages this crawl fetched are normalised to sum 1, so every curve ends at 1;
 * hot pages are judged on the measure's own scale.
 */
export function evaluateCrawl(dbPath: string, opts: EvaluateOptions & MeasureOptions = {}): MeasuredEvaluation {
  checkMeasure(opts);
  const reader = CrawlReader.open(dbPath); // first, so a bad DB fails before any work
  let fetched: FetchedPages;
  let truth: Evaluation['truth'];
  let damping = DEFAULT_DAMPING;
  let measured: MeasuredTruth | null = null;
  let covered = 1;
  const tell = (step: string, fraction: number) => opts.progress?.(step, fraction);
  try {
    tell('reading the pages in fetch order', 0.05);
    fetched = readFetched(reader);
    if ((opts.measure ?? 'pagerank') !== 'pagerank' || opts.damping !== undefined) {
      tell(`computing ${opts.measure ?? 'pagerank'}`, 0.15);
      measured = measuredTruth(reader, fetched, opts);
      truth = opts.oracle !== undefined ? 'oracle' : 'computed';
      damping = measured.info.damping ?? NaN;
      covered = measured.covered;
      fetched.values = curveValues(measured.raw);
    } else {
      ({ truth, damping, covered } = pageRankTruth(reader, fetched, opts, tell));
    }
  } finally {
    reader.close();
  }
  tell("Kendall's tau, Crawl & Stop and the curves", 0.8);
  const total = fetched.values.reduce((a, b) => a + b, 0);
  if (total > 0) for (let i = 0; i < fetched.values.length; i++) fetched.values[i]! /= total;
  const measure = measured?.info ?? { name: 'pagerank', scale: 'PageRank normalised over the fetched pages', damping, text: null, query: null, location: null, hot: 'threshold' };
  // The threshold applies on the measure's own scale; the topic rule's hot pages are 1s.
  const hot = measured?.hot && opts.threshold === undefined ? { raw: Float64Array.from(measured.hot), threshold: 1 } : null;
  const threshold = opts.threshold ?? (measured ? paperThreshold(measure.name, damping, opts.scale ?? 'n') ?? undefined : undefined);
  const m = metrics(fetched, { ...opts, raw: hot?.raw ?? measured?.raw, threshold: hot?.threshold ?? threshold });
  return { db: dbPath, oracle: opts.oracle ?? null, truth, damping, truthCovered: covered, measure, ...m };
}

/** PageRank as the truth: the oracle's by URL, else this crawl's stored run, else computed now. */
function pageRankTruth(
  reader: CrawlReader,
  fetched: FetchedPages,
  opts: EvaluateOptions,
  tell: (step: string, fraction: number) => void,
): { truth: Evaluation['truth']; damping: number; covered: number } {
  if (opts.oracle !== undefined) {
    tell("reading the oracle crawl's PageRank", 0.1);
    const oracle = pageRankByUrl(opts.oracle);
    fetched.urls.forEach((url, i) => (fetched.values[i] = oracle.get(url) ?? 0));
    const total = fetched.values.reduce((a, b) => a + b, 0);
    return { truth: 'oracle', damping: DEFAULT_DAMPING, covered: Math.min(1, total / sumOf(oracle.values())) };
  }
  const run = reader.latestFreshRun('page');
  tell(run ? 'reading the stored PageRank' : 'reading the link graph (no PageRank stored)', 0.15);
  const byId = run ? new Map(reader.pageRunValues(run.id)) : computeById(reader, tell);
  fetched.ids.forEach((id, i) => (fetched.values[i] = byId.get(id) ?? 0));
  return { truth: run ? 'stored' : 'computed', damping: run ? run.damping : DEFAULT_DAMPING, covered: 1 };
}

interface FetchedPages {
  ids: number[];
  urls: string[];
  times: Float64Array;
  values: Float64Array;
}

/** The pages this crawl fetched, in fetch order (the order the curves follow). */
function readFetched(reader: CrawlReader): FetchedPages {
  const ids: number[] = [];
  const urls: string[] = [];
  const at: number[] = [];
  for (const p of reader.pagesByFetch(['id', 'url', 'fetchedAt'])) {
    ids.push(p.id);
    urls.push(p.url);
    at.push(p.fetchedAt ?? NaN);
  }
  return { ids, urls, times: Float64Array.from(at), values: new Float64Array(ids.length) };
}

function computeById(reader: CrawlReader, tell: (step: string, fraction: number) => void): Map<number, number> {
  const cg = loadCrawlGraph(reader);
  tell(`computing the PageRank of ${cg.graph.n} pages`, 0.3);
  const onIteration = (i: number, delta: number) => tell(`computing PageRank: iteration ${i}`, 0.3 + 0.45 * iterationFraction(delta, DEFAULT_TOLERANCE));
  const { ranks } = pagerank(cg.graph, { damping: DEFAULT_DAMPING, onIteration });
  const out = new Map<number, number>();
  for (let v = 0; v < cg.pageIds.length; v++) out.set(cg.pageIds[v]!, ranks[v]!);
  return out;
}

function sumOf(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

/** Everything that depends only on the fetch order and the (normalised) values. */
export function metrics(
  f: { values: Float64Array; times: Float64Array },
  opts: EvaluateOptions & { raw?: Float64Array } = {},
): Omit<Evaluation, 'db' | 'oracle' | 'truth' | 'damping' | 'truthCovered'> & OrderExtras {
  const v = f.values;
  const n = v.length;
  const sorted = Float64Array.from(v).sort().reverse(); // descending
  const cum = prefixSums(v);
  const best = prefixSums(sorted);
  const area = (c: Float64Array) => {
    let a = 0;
    for (let i = 1; i <= n; i++) a += (c[i - 1]! + c[i]!) / 2;
    return n > 0 ? a / n : NaN;
  };

  const position = new Float64Array(n);
  for (let i = 0; i < n; i++) position[i] = -i; // earlier fetch = larger x
  const kendallTau = kendallTauB(position, v);

  const crawlAndStop = crawlAndStopTable(v, sorted);
  // The threshold applies on the measure's own scale (opts.raw), else on the values themselves.
  const raw = opts.raw ?? v;
  const g = opts.threshold ?? topTenthThreshold(raw);
  const tauSize = opts.tauSample ?? CASTILLO_TAU_SAMPLE;
  const tauSeed = opts.tauSeed ?? DEFAULT_TAU_SEED;

  const pagesForPageRank = PAGERANK_SHARES.map((share) => {
    let i = 1;
    while (i <= n && cum[i]! < share - 1e-12) i++;
    return { pageRank: share, fractionPages: i <= n ? i / n : null };
  });

  const t0 = n > 0 ? f.times[0]! : 0;
  return {
    pagesFetched: n,
    crawlSeconds: n > 0 ? (f.times[n - 1]! - t0) / 1000 : 0,
    averageCumulativePageRank: area(cum),
    upperBoundAverage: area(best),
    kendallTau,
    kendallTauSampled: { size: Math.min(tauSize, n), seed: tauSeed, tau: kendallTauSample(position, v, tauSize, tauSeed) },
    crawlAndStop,
    threshold: thresholdTable(raw, g),
    choCurve: choCurve(v, raw, g, opts.choPoints ?? 100),
    pagesForPageRank,
    curve: sampleIndices(n, opts.points ?? 1000).map((i) => ({
      fractionPages: n > 0 ? i / n : 0,
      cumulativePageRank: cum[i]!,
      seconds: i > 0 ? (f.times[i - 1]! - t0) / 1000 : 0,
      random: n > 0 ? i / n : 0,
      upperBound: best[i]!,
    })),
  };
}

/** c[i] = sum of the first i values (c[0] = 0). */
function prefixSums(v: Float64Array): Float64Array {
  const c = new Float64Array(v.length + 1);
  for (let i = 0; i < v.length; i++) c[i + 1] = c[i]! + v[i]!;
  return c;
}

/** About `points` indices in 0..n, evenly spread, always with both ends. */
function sampleIndices(n: number, points: number): number[] {
  if (n + 1 <= points) return Array.from({ length: n + 1 }, (_, i) => i);
  const out: number[] = [];
  for (let k = 0; k < points; k++) {
    const i = Math.round((k * n) / (points - 1));
    if (out[out.length - 1] !== i) out.push(i);
  }
  return out;
}
