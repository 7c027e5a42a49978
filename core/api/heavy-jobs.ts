/**
 * PageRank and the evaluation, statically imported (so that every bundle, e.g. Electron's
 * engine host, includes them; a string import would be invisible to tsc, the layer test and
 * esbuild) and typed end to end: the engine's result types must fit the contract's DTOs, which
 * the compiler checks here.
 */
import { evaluateCrawl, type EvaluateOptions } from '../ranking/evaluate.js';
import { rankCrawl } from '../ranking/rank-crawl.js';
import { openDatabase } from '../store/database.js';
import type { EvaluationDto, PageRankResultDto } from './contract.js';

/** Computes and stores PageRank (page and site level) in the crawl file; needs the writer's lock. */
export async function runPageRankOn(dbPath: string, progress?: (step: string, fraction: number) => void): Promise<PageRankResultDto> {
  const { db, release } = openDatabase(dbPath);
  try {
    const result: PageRankResultDto = rankCrawl(db, { site: true, progress });
    return result;
  } finally {
    release();
  }
}

export async function runEvaluationOn(dbPath: string, opts: EvaluateOptions): Promise<EvaluationDto> {
  const result: EvaluationDto = evaluateCrawl(dbPath, opts);
  return result;
}

/** One analysis as a worker thread takes it: plain data only. */
export type AnalysisJob =
  | { what: 'pagerank'; dbPath: string }
  | { what: 'evaluation'; dbPath: string; opts: Omit<EvaluateOptions, 'progress'> };

export type AnalysisProgress = (step: string, fraction: number) => void;

/** Runs an analysis here (in a worker thread, or in the engine's thread when none is built). */
export function runAnalysis(job: AnalysisJob, progress: AnalysisProgress): Promise<PageRankResultDto | EvaluationDto> {
  return job.what === 'pagerank' ? runPageRankOn(job.dbPath, progress) : runEvaluationOn(job.dbPath, { ...job.opts, progress });
}
