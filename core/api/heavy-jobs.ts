/**
 * The engine's heavy work on a crawl file, statically imported (so that every bundle, e.g.
 * Electron's engine host, includes it; a string import would be invisible to tsc, the layer
 * test and esbuild) and typed end to end: PageRank and the evaluation (Results), comparing two
 * crawls, exports, graph exports and partitionings, a paused crawl's stop, and a new crawl's
 * file (its seeds read and checked: a minute for a million). Each runs in a
 * worker thread of its own (job-worker.ts, started by worker-jobs.ts), never on the thread that
 * answers the workbench's calls; a job is plain data, and its progress goes out as plain data
 * too.
 */
import { compareCrawls, type CompareOptions } from '../compare/compare.js';
import { Crawler } from '../engine/crawler.js';
import type { CompareReport } from '../compare/report.js';
import type { ExportOptions } from '../export/options.js';
import { runExport, type ExportProgressInfo, type ExportSummary } from '../export/run-export.js';
import { exportGraph, type ExportRequest as GraphFileRequest, type ExportResult as GraphFileResult } from '../graph/export-graph.js';
import { loadLinkGraph } from '../graph/link-graph.js';
import { partition } from '../graph/partition.js';
import type { GraphModel, PartitionProgress, PartitionReport } from '../graph/report.js';
import { evaluateCrawl, type EvaluateOptions } from '../ranking/evaluate.js';
import { rankCrawl } from '../ranking/rank-crawl.js';
import { openDatabase } from '../store/database.js';
import type { EvaluationDto, PageRankResultDto, ParsedSeeds } from './contract.js';
import { parseSeeds } from './seeds.js';
import { mergeStopped } from './parallel-files.js';
import { writeCrawlFile, type CrawlFileJob } from './crawl-file.js';
import type { DemoProbe, DemoSpec } from './demo-webs.js';

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

/** One analysis (Results) as a worker thread takes it. */
export type AnalysisJob =
  | { what: 'pagerank'; dbPath: string }
  | { what: 'evaluation'; dbPath: string; opts: Omit<EvaluateOptions, 'progress'> };

/** Every heavy job, as a worker thread takes it: plain data only. */
export type HeavyJob =
  | AnalysisJob
  | { what: 'compare'; pathA: string; pathB: string; opts: Pick<CompareOptions, 'top' | 'host'> }
  | { what: 'export'; dbPath: string; options: ExportOptions }
  | { what: 'partition'; dbPath: string; models: GraphModel[]; parts: number[]; runs: number }
  | { what: 'graph-export'; dbPath: string; request: GraphFileRequest }
  | { what: 'stop-stored'; dbPath: string; parallel: boolean }
  | CrawlFileJob
  | { what: 'parse-seeds'; text: string }
  | { what: 'demo-web'; spec: DemoSpec; port: number };

/** What each job reports as it goes. */
export type StepProgress = { step: string; fraction: number };
export type JobProgress = StepProgress | ExportProgressInfo | PartitionProgress;

/** What each job ends with. */
export interface JobResults {
  pagerank: PageRankResultDto;
  evaluation: EvaluationDto;
  compare: CompareReport;
  export: ExportSummary;
  partition: PartitionReport;
  'graph-export': GraphFileResult;
  'stop-stored': null;
  'create-crawl': null;
  'parse-seeds': ParsedSeeds;
  'demo-web': DemoProbe;
}

/** An AbortSignal that fires once `cancelled()` says so (checked every 50 ms). */
function signalFrom(cancelled: () => boolean): { signal: AbortSignal; done(): void } {
  const ctl = new AbortController();
  const timer = setInterval(() => {
    if (cancelled()) ctl.abort();
  }, 50);
  return { signal: ctl.signal, done: () => clearInterval(timer) };
}

/**
 * Runs a job here (in a worker thread, or in the engine's thread when none is built). A step
 * callback that throws (cancelled) unwinds the job; `cancelled` is also polled by the jobs
 * that take an AbortSignal.
 */
export async function runHeavyJob(job: HeavyJob, progress: (p: JobProgress) => void, cancelled: () => boolean): Promise<JobResults[HeavyJob['what']]> {
  const step = (s: string, fraction: number) => progress({ step: s, fraction });
  switch (job.what) {
    case 'pagerank':
      return runPageRankOn(job.dbPath, step);
    case 'evaluation':
      return runEvaluationOn(job.dbPath, { ...job.opts, progress: step });
    case 'compare': {
      const s = signalFrom(cancelled);
      try {
        return await compareCrawls(job.pathA, job.pathB, { ...job.opts, signal: s.signal, progress: step });
      } finally {
        s.done();
      }
    }
    case 'export':
      return runExport(job.dbPath, job.options, { cancelled, onProgress: progress });
    case 'partition': {
      const s = signalFrom(cancelled);
      const g = loadLinkGraph(job.dbPath);
      try {
        return await partition(g, { models: job.models, parts: job.parts, runs: job.runs, signal: s.signal, onProgress: progress });
      } finally {
        s.done();
        g.close();
      }
    }
    case 'stop-stored':
      // A paused crawl stopped for good: its read indexes built (minutes for millions of pages),
      // a parallel one's parts merged first.
      if (job.parallel) mergeStopped(job.dbPath);
      else Crawler.stopStored(job.dbPath);
      return null;
    case 'parse-seeds':
      return parseSeeds(job.text);
    case 'create-crawl':
      return writeCrawlFile(job, step);
    case 'demo-web':
      // Imported here: the test web and its certificates would add 150 ms to every job thread's start.
      return (await import('./demo-webs.js')).probeDemoWeb(job.spec, job.port);
    case 'graph-export': {
      const g = loadLinkGraph(job.dbPath);
      try {
        return exportGraph(g, job.request);
      } finally {
        g.close();
      }
    }
  }
}
