import { CrawlReader } from '../store/crawl-reader.js';
import { loadCrawlGraph, pageRankByUrl } from './crawl-graph.js';
import { kendallTauB } from './kendall.js';
import { DEFAULT_DAMPING, DEFAULT_TOLERANCE, iterationFraction, pagerank } from './pagerank.js';
import type { Evaluation } from './report.js';

export interface EvaluateOptions {
  /** Another crawl whose PageRank (matched by canonical URL) is the truth. */
  oracle?: string;
  /** Hot-page threshold G for Crawl & Stop with Threshold, on the normalised scale. */
  threshold?: number;
  /** Points kept in the curve (default 1000). */
  points?: number;
  /** Told each step and how far the whole evaluation is (0..1), for a progress bar. */
  progress?: (step: string, fraction: number) => void;
}

export type { CurvePoint, Evaluation } from './report.js';

const STOP_PERCENTS = [1, 5, 10, 25, 50];
const THRESHOLD_PERCENTS = [10, 25, 50, 75];
const PAGERANK_SHARES = [0.5, 0.8, 0.95];

/**
 * Quality of a finished crawl (docs/design.md section 4). The truth is the PageRank of the
 * complete crawled graph (every known page a node; a stored fresh run is reused), or of an
 * oracle crawl matched by URL (pages it lacks get 0). Either way the values of the pages
 * this crawl fetched are normalised to sum 1, so every curve ends at 1.
 */
export function evaluateCrawl(dbPath: string, opts: EvaluateOptions = {}): Evaluation {
  const reader = CrawlReader.open(dbPath); // first, so a bad DB fails before any work
  let truthByUrl: Map<string, number> | undefined;
  let fetched: FetchedPages;
  let truth: Evaluation['truth'];
  let damping = DEFAULT_DAMPING;
  const tell = (step: string, fraction: number) => opts.progress?.(step, fraction);
  try {
    if (opts.oracle !== undefined) {
      tell("reading the oracle crawl's PageRank", 0);
      truthByUrl = pageRankByUrl(opts.oracle);
    }
    tell('reading the pages in fetch order', 0.05);
    fetched = readFetched(reader);
    if (truthByUrl) {
      truth = 'oracle';
      const oracle = truthByUrl;
      fetched.urls.forEach((url, i) => (fetched.values[i] = oracle.get(url) ?? 0));
    } else {
      const run = reader.latestFreshRun('page');
      truth = run ? 'stored' : 'computed';
      if (run) damping = run.damping;
      tell(run ? 'reading the stored PageRank' : 'reading the link graph (no PageRank stored)', 0.15);
      const byId = run ? new Map(reader.pageRunValues(run.id)) : computeById(reader, tell);
      fetched.ids.forEach((id, i) => (fetched.values[i] = byId.get(id) ?? 0));
    }
  } finally {
    reader.close();
  }
  tell("Kendall's tau, Crawl & Stop and the curves", 0.8);
  const total = fetched.values.reduce((a, b) => a + b, 0);
  if (total > 0) for (let i = 0; i < fetched.values.length; i++) fetched.values[i]! /= total;
  const covered = truthByUrl ? Math.min(1, total / sumOf(truthByUrl.values())) : 1;
  return {
    db: dbPath,
    oracle: opts.oracle ?? null,
    truth,
    damping,
    truthCovered: covered,
    ...metrics(fetched, opts),
  };
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
  opts: EvaluateOptions = {},
): Omit<Evaluation, 'db' | 'oracle' | 'truth' | 'damping' | 'truthCovered'> {
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

  const crawlAndStop = STOP_PERCENTS.map((percent) => {
    const k = Math.max(1, Math.ceil((n * percent) / 100));
    if (n === 0) return { percent, k: 0, share: NaN };
    // Ties at the K-th value: the tied pages share the top-K slots left after the larger ones.
    const t = sorted[Math.min(k, n) - 1]!;
    let above = 0;
    while (above < n && sorted[above]! > t) above++;
    let greater = 0;
    let equal = 0;
    for (let i = 0; i < Math.min(k, n); i++) {
      if (v[i]! > t) greater++;
      else if (v[i] === t) equal++;
    }
    return { percent, k, share: (greater + Math.min(equal, k - above)) / k };
  });

  const g = opts.threshold ?? (n > 0 ? sorted[Math.max(1, Math.ceil(n / 10)) - 1]! : 0);
  let hotPages = 0;
  for (let i = 0; i < n; i++) if (v[i]! >= g) hotPages++;
  const fetchedHot = THRESHOLD_PERCENTS.map((percent) => {
    const k = Math.ceil((n * percent) / 100);
    let hot = 0;
    for (let i = 0; i < k; i++) if (v[i]! >= g) hot++;
    return { percent, share: hotPages > 0 ? hot / hotPages : null };
  });

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
    crawlAndStop,
    threshold: { g, hotPages, fetched: fetchedHot },
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
