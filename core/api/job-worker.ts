/**
 * The body of a heavy job's worker thread (worker-jobs.ts starts it): PageRank, the
 * evaluation, a comparison, an export, a graph export or a partitioning (heavy-jobs.ts) runs
 * here, so that the engine's thread keeps answering calls meanwhile. It posts its progress and
 * then the result or the error. A cancel is a flag in shared memory, read at every step: the
 * job then throws CRAWL_CANCELLED and unwinds normally, so a crawl file's writer lock is
 * released, a half-stored run rolled back and partial files removed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CrawlError, ErrorCodes } from '../errors.js';
import { runHeavyJob, type HeavyJob, type JobProgress } from './heavy-jobs.js';

export interface JobWorkerData {
  job: HeavyJob;
  /** An Int32Array's buffer: [0] set to 1 to cancel. */
  cancel: SharedArrayBuffer;
}

export type JobWorkerMessage =
  | { type: 'progress'; progress: JobProgress }
  | { type: 'done'; result: unknown }
  | { type: 'error'; error: { name: string; code: string; message: string; field?: string } };

const data = workerData as JobWorkerData;
const flag = new Int32Array(data.cancel);
const post = (m: JobWorkerMessage) => parentPort!.postMessage(m);
const cancelled = () => Atomics.load(flag, 0) !== 0;

runHeavyJob(
  data.job,
  (progress) => {
    if (cancelled()) throw new CrawlError(ErrorCodes.CANCELLED, 'cancelled');
    post({ type: 'progress', progress });
  },
  cancelled,
).then(
  (result) => post({ type: 'done', result }),
  (err: { name?: string; code?: string; message?: string; field?: string }) =>
    post({ type: 'error', error: { name: err.name ?? 'Error', code: err.code ?? 'CRAWL_INTERNAL', message: err.message ?? String(err), ...(err.field ? { field: err.field } : {}) } }),
);
