/**
 * What `crawlbench simulate` reports, as types only: the simulator builds it (simulate.ts), the
 * CLI prints it, the API carries it as JSON (the simulate contract) and the renderer draws it.
 * Imports only ranking's result types, so the renderer may import it (browser-safe, see
 * test/renderer/layers.test.ts).
 */
import type { ChoPoint, MeasureInfo } from '../ranking/report.js';

export interface PolicyOutcome {
  policy: string;
  pagesFetched: number;
  averageCumulativePageRank: number;
  upperBoundAverage: number;
  kendallTau: number;
  /** Kendall's tau-b on a seeded sample of `size` pages (Castillo's 5,000), beside kendallTau over all. */
  kendallTauSampled: { size: number; seed: number; tau: number };
  /**
   * Cho et al.'s Crawl & Stop and Crawl & Stop with Threshold on the report's measure (the top K
   * and the hot pages of the reachable graph), as points and as curves; null where not computed
   * (the speed-up table).
   */
  cho: {
    crawlAndStop: Array<{ percent: number; k: number; share: number }>;
    threshold: { g: number; hotPages: number; fetched: Array<{ percent: number; share: number | null }> };
    curve: ChoPoint[];
  } | null;
  /** Pages fetched when 50%, 80%, 95% of the PageRank was reached (null: never). */
  pagesAt: { share: number; pages: number | null; fraction: number | null }[];
  /** Share of the graph's PageRank (reachable part) on the fetched pages. */
  pageRankCovered: number;
  simulatedSeconds: number;
  meanOpenConnections: number;
  connections: number;
  wallSeconds: number;
  curve: { fractionPages: number; cumulativePageRank: number; seconds: number }[];
  /** Active robots (open connections, at most r) over the crawl: (ms, count) at each change, thinned to about 2,000 points. */
  openSeries: { t: number[]; open: number[] };
  /** A crawl in batches (--batch): its batches in the order formed (Castillo §4.4, Figures 4.9-4.11); null otherwise. */
  batches: BatchOutcome[] | null;
  /**
   * The batch that admitted the page fetched halfway through the crawl (page floor(n/2) + 1 of
   * n): the thesis's "typical batch ... at the middle of the crawl" (Figure 4.9); null without batches.
   */
  middleBatch: number | null;
}

/**
 * One batch of a crawl in batches of K pages (Castillo §4.4): the pages the scheduler admitted
 * together, which sites they are on (Figure 4.9), and the robots active while it was retrieved
 * (Figures 4.10 and 4.11). A robot is active while it holds a connection to a site, so at most
 * r are; it is idle while every site with pages left waits out w.
 */
export interface BatchOutcome {
  /** 1, 2, ... in the order formed. */
  index: number;
  /** Pages admitted (K, or fewer when fewer were known: the first and the last batches). */
  pages: number;
  /** Of them, fetched by the end of the crawl. */
  fetched: number;
  /** Distinct sites among its pages. */
  sites: number;
  /** Sites by the pages they have in the batch, by pages ascending: {pages: 3, sites: 40} = 40 sites with 3 pages each. */
  pagesPerSite: Array<{ pages: number; sites: number }>;
  /** When it was formed, seconds since the crawl started. */
  formedSeconds: number;
  /** When its last page was fetched (null: not all were, as with --max-pages). Retrieval time = end - formed. */
  endSeconds: number | null;
  /**
   * Active robots from its forming to its end (or the crawl's): t in seconds since it was
   * formed, the count in force from then on; every change, thinned to about 1,000 points.
   * Batches overlap (the next is admitted when this one runs low), so its robots may be
   * fetching the next one's pages near its end.
   */
  activeRobots: { t: number[]; active: number[] };
  /** Time-average of active robots over the same interval. */
  meanActiveRobots: number;
}

export interface SimulateReport {
  graph: string;
  pages: number;
  links: number;
  sites: number;
  seeds: number;
  reachable: number;
  /** With perIp: the distinct addresses the sites are on (as many as sites when the graph records none). */
  addresses: number | null;
  /** wSmall (ms) for sites under smallSite pages; both null when every site waits w. */
  settings: { r: number; w: number; wSmall: number | null; smallSite: number | null; c: number; bandwidth: number; latency: boolean; networkSeed: number; batch: number | null; perIp: boolean };
  history: { source: string; pages: number } | null;
  loadSeconds: number;
  /** The measure of Cho et al.'s models, its hot-page threshold G and the reachable pages at or above it. */
  measure: MeasureInfo & { g: number; hotPages: number };
  policies: PolicyOutcome[];
}

/**
 * The report as JSON carries it (a worker's file, the API): an unlimited bandwidth (Infinity)
 * and a Kendall tau that could not be computed (NaN) arrive as null.
 */
export type SimulateReportJson = Omit<SimulateReport, 'settings' | 'policies'> & {
  /** bandwidth null: unlimited. */
  settings: Omit<SimulateReport['settings'], 'bandwidth'> & { bandwidth: number | null };
  policies: PolicyOutcomeJson[];
};

/** One policy's outcome as JSON carries it (see SimulateReportJson). */
export type PolicyOutcomeJson = Omit<PolicyOutcome, 'kendallTau'> & { kendallTau: number | null };
