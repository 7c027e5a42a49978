/**
 * The body of an analysis's worker thread (analysis-jobs.ts starts it): PageRank and the
 * evaluation are synchronous and CPU-bound (seconds on a large crawl), so they run here and the
 * engine's thread keeps answering calls and running crawls. It posts its steps and then the
 * result or the error. A cancel is a flag in shared memory, read at every step and PageRank
 * iteration: the computation then throws CRAWL_CANCELLED and unwinds normally, so the crawl
 * file's writer lock is released and a half-stored run is rolled back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CrawlError, ErrorCodes } from '../errors.js';
import { runAnalysis, type AnalysisJob } from './analyses.js';

export interface AnalysisWorkerData {
  job: AnalysisJob;
  /** An Int32Array's buffer: [0] set to 1 to cancel. */
  cancel: SharedArrayBuffer;
}

export type AnalysisWorkerMessage =
  | { type: 'progress'; step: string; fraction: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; error: { name: string; code: string; message: string; field?: string } };

const data = workerData as AnalysisWorkerData;
const flag = new Int32Array(data.cancel);
const post = (m: AnalysisWorkerMessage) => parentPort!.postMessage(m);

runAnalysis(data.job, (step, fraction) => {
  if (Atomics.load(flag, 0) !== 0) throw new CrawlError(ErrorCodes.CANCELLED, 'the computation was cancelled');
  post({ type: 'progress', step, fraction });
}).then(
  (result) => post({ type: 'done', result }),
  (err: { name?: string; code?: string; message?: string; field?: string }) =>
    post({ type: 'error', error: { name: err.name ?? 'Error', code: err.code ?? 'CRAWL_INTERNAL', message: err.message ?? String(err), ...(err.field ? { field: err.field } : {}) } }),
);
