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

// ---- Cho et al.'s importance measures and Castillo's sampled tau (docs/design.md section 4.11) ----

export type MeasureName = 'pagerank' | 'backlinks' | 'ir' | 'similarity' | 'location';
export type IrScale = 'n' | '1';
export type LocationKind = 'slashes' | 'com' | 'home';
/** Where the similarity's texts come from: the stored bodies (--store-content) or the titles. */
export type TextSource = 'content' | 'titles';

/**
 * The measure a request asks for (runEvaluation, startSimulation; `eval` and `simulate`'s
 * flags), as ranking/request-schema.ts checks it: blank fields take the paper's defaults.
 */
export interface MeasureRequest {
  /** Default 'pagerank'. */
  measure?: MeasureName;
  /** Hot pages for Crawl & Stop with Threshold: value >= G on the measure's own scale (default: IB 100, IR 13, IS the topic rule, else the top 10%'s value). */
  hotThreshold?: number;
  /** IS's query words (required by 'similarity', refused by the others). */
  query?: string;
  /** Similarity: a page hot by the topic rule is hot only with this many backlinks or more (Cho et al.'s Graph 7: 5). */
  hotBacklinks?: number;
  /** IR's damping (default 0.9) or PageRank's (0.85). */
  damping?: number;
  /** IR's values sum to N (default, as Cho et al.) or to 1. */
  scale?: IrScale;
  /** IL's kind (default 'slashes'). */
  location?: LocationKind;
  /** Pages in the seeded sample of Kendall's tau (default 5,000, as Castillo). */
  tauSample?: number;
}

/** What the values of a measure are, as a report states it. */
export interface MeasureInfo {
  name: MeasureName;
  /** In words: what a value means and what the values sum to. */
  scale: string;
  damping: number | null;
  /** Similarity: the texts read (stored bodies, or titles when the crawl stored no content). */
  text: TextSource | null;
  query: string | null;
  location: LocationKind | null;
  /**
   * How hot pages are judged: 'threshold' (value >= G on the measure's own scale), or 'topic'
   * (similarity: a query word in the title or more than ten times in the body, Cho et al. §7).
   */
  hot: 'threshold' | 'topic';
  /** With the topic rule: a hot page also needs at least this many backlinks (Cho et al. §7, Graph 7); absent or null: none. */
  hotBacklinks?: number | null;
}

/** One point of Cho et al.'s curves (their Graphs 1 to 7): both models against pages fetched. */
export interface ChoPoint {
  /** Pages fetched so far, as a fraction of all fetched pages. */
  fractionPages: number;
  /** Crawl & Stop: share of the top-K pages among the first K fetched (K = pages so far). */
  crawlAndStop: number;
  /** Crawl & Stop with Threshold: share of the hot pages fetched so far (null: no hot page). */
  hotFetched: number | null;
}

/** What depends on the fetch order beside the cumulative curve: Castillo's sampled tau, Cho's curves. */
export interface OrderExtras {
  /** Kendall's tau-b on a seeded sample of `size` pages (Castillo: 5,000), beside the exact one over all. */
  kendallTauSampled: { size: number; seed: number; tau: number };
  /** Crawl & Stop and Crawl & Stop with Threshold against the share of pages fetched. */
  choCurve: ChoPoint[];
}

/** An evaluation's measure, beside the fields every evaluation has. */
export interface MeasureExtras {
  measure: MeasureInfo;
}
