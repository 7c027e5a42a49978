/**
 * Results: PageRank runs and evaluations, each computed in a worker thread; their reports are the
 * ranking module's (ranking/report.ts).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { Evaluation, MeasureExtras, MeasureRequest, OrderExtras, RankResult, RankRunSummary } from '../../ranking/report.js';
import type { Unsubscribe } from './shared.js';

export type { ChoPoint, CurvePoint, IrScale, LocationKind, MeasureInfo, MeasureName, MeasureRequest } from '../../ranking/report.js';
/** One PageRank run computed and stored, as `crawlbench rank` reports it. */
export type PageRankRunDto = RankRunSummary;
/** What runPageRank gives: the page graph's run and the site graph's. */
export type PageRankResultDto = RankResult;
/**
 * How good a crawl's fetch order was (docs/design.md section 4), as `crawlbench eval --json`
 * reports it: against its measure (PageRank, or one of Cho et al.'s), with Kendall's tau on
 * Castillo's sample and Cho's Crawl & Stop curves.
 */
export type EvaluationDto = Evaluation & MeasureExtras & OrderExtras;

/**
 * What runEvaluation takes, as `crawlbench eval`'s flags (one schema, ranking/request-schema.ts):
 * the measure and its hot threshold, an oracle crawl of the workspace by id, the curve's points.
 */
export interface EvaluationRequest extends MeasureRequest {
  /** A crawl of this workspace whose values, matched by URL, are the truth. */
  oracle?: string;
  /** hotThreshold's older name (as `eval --threshold`); give one or the other. */
  threshold?: number;
  /** Points kept in the cumulative curve (2 to 100,000; default 1,000). */
  points?: number;
}

/** One stored PageRank run read back as it is kept in the crawl file (no times: those are of the computation). */
export type StoredPageRankRunDto = Omit<RankRunSummary, 'delta' | 'loadSeconds' | 'computeSeconds' | 'storeSeconds'> & {
  /** ISO time the run was stored. */
  createdAt: string;
  /** False when the crawl has changed since (more pages, or fetches after it): its values are of an older snapshot. */
  current: boolean;
};

/** The latest stored PageRank runs of a crawl (pageRankResult), shown without recomputing. */
export interface StoredPageRankDto {
  page: StoredPageRankRunDto;
  site: StoredPageRankRunDto | null;
}

/** How far a PageRank computation or an evaluation of a crawl is (sent as analysisProgress events). */
export interface AnalysisProgressEvent {
  crawlId: string;
  what: 'pagerank' | 'evaluation';
  /** 0..1 of the whole computation. */
  fraction: number;
  /** The step under way, in words. */
  step: string;
}

/** What the Results feature asks of the engine. */
export interface ResultsApi {
  runPageRank(crawlId: string): Promise<PageRankResultDto>;
  /** The latest stored PageRank runs of a crawl with their top pages and sites (top 20), or null when none is stored; computes nothing. */
  pageRankResult(crawlId: string): Promise<StoredPageRankDto | null>;
  /** Cancels the PageRank or evaluation of the crawl under way (it then fails with CRAWL_CANCELLED). */
  cancelAnalysis(crawlId: string): Promise<void>;
  /** Progress of runPageRank and runEvaluation, per crawl. */
  onAnalysisProgress(cb: (e: AnalysisProgressEvent) => void): Unsubscribe;
  /** Refuses a bad request naming its field (CRAWL_BAD_OPTION), as the Results form does before sending it. */
  runEvaluation(crawlId: string, opts?: EvaluationRequest): Promise<EvaluationDto>;
}

/** The Results methods a transport dispatches (those that return a promise). */
export const RESULTS_METHODS = ['runPageRank', 'pageRankResult', 'cancelAnalysis', 'runEvaluation'] as const satisfies ReadonlyArray<keyof ResultsApi>;
/** The Results events on the wire, and the subscription each one feeds. */
export const RESULTS_EVENTS = { analysisProgress: 'onAnalysisProgress' } as const satisfies Record<string, keyof ResultsApi>;
