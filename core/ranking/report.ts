/**
 * What PageRank runs and evaluations report, as types only: the engine builds them
 * (rank-crawl.ts, evaluate.ts), the CLI prints them (rank, eval), the API carries them as JSON
 * (the results contract) and the renderer draws them. Imports nothing, so the renderer may
 * import it (browser-safe, see test/renderer/layers.test.ts).
 */

/** One PageRank run computed and stored, as `crawlbench rank` reports it. */
export interface RankRunSummary {
  kind: 'page' | 'site';
  runId: number;
  damping: number;
  tolerance: number;
  iterations: number;
  delta: number;
  nodes: number;
  edges: number;
  loadSeconds: number;
  computeSeconds: number;
  storeSeconds: number;
  /** URL (pages) or host (sites) with its value, highest first. */
  top: Array<{ name: string; value: number }>;
}

/** What rankCrawl (and runPageRank) gives: the page graph's run and, when asked, the site graph's. */
export interface RankResult {
  page: RankRunSummary;
  site?: RankRunSummary;
}

export interface CurvePoint {
  /** Pages fetched so far, as a fraction of all fetched pages. */
  fractionPages: number;
  /** Share of the (normalised) PageRank held by the pages fetched so far. */
  cumulativePageRank: number;
  /** Seconds since the first fetch. */
  seconds: number;
  /** Expected value for a random order: the diagonal. */
  random: number;
  /** The best possible order: pages sorted by PageRank. */
  upperBound: number;
}

export interface Evaluation {
  db: string;
  oracle: string | null;
  /** Where the truth came from: a stored run of this crawl, computed now, or the oracle crawl. */
  truth: 'stored' | 'computed' | 'oracle';
  damping: number;
  pagesFetched: number;
  /** Share of the oracle's PageRank on pages this crawl fetched (1 without an oracle). */
  truthCovered: number;
  crawlSeconds: number;
  /** Area under the cumulative curve over [0, 1] (trapezoids from (0, 0)); random = 0.5. */
  averageCumulativePageRank: number;
  upperBoundAverage: number;
  /** tau-b of (-fetch_seq, PageRank): +1 when pages come in decreasing PageRank, -1 reversed. */
  kendallTau: number;
  /** Cho's Crawl & Stop: share of the top-K pages among the first K fetched. */
  crawlAndStop: Array<{ percent: number; k: number; share: number }>;
  /** Crawl & Stop with Threshold: share of the hot pages (value >= g) fetched by each point. */
  threshold: { g: number; hotPages: number; fetched: Array<{ percent: number; share: number | null }> };
  /** Smallest fraction of pages holding each share of the PageRank. */
  pagesForPageRank: Array<{ pageRank: number; fractionPages: number | null }>;
  curve: CurvePoint[];
}
