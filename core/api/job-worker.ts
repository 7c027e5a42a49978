/**
 * The body of a heavy job's worker thread (worker-jobs.ts starts it): PageRank, the
 * evaluation, a comparison, an export, a graph export or a partitioning (heavy-jobs.ts) runs
 * here, so that the engine's thread keeps answering calls meanwhile. It posts its progress and
 * then the result or the error. A cancel is a flag in shared memory, read at every step: the
 * job then throws CRAWL_CANCELLED and unwinds normally, so a crawl file's writer lock is
 * released, a half-stored run rolled back and partial files removed.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

/**
 * Collects the job's garbage before the thread ends, while the thread's environment still
 * exists: better-sqlite3 12 finalizes a statement or database the collector reaches only
 * during the thread's teardown by asking an environment that is gone, which aborts the whole
 * process on Node 24 (its upstream fix needs Node 22 or newer).
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const settle = (m: JobWorkerMessage) => {
  collect();
  collect();
  post(m);
};

runHeavyJob(
  data.job,
  (progress) => {
    if (cancelled()) throw new CrawlError(ErrorCodes.CANCELLED, 'cancelled');
    post({ type: 'progress', progress });
  },
  cancelled,
).then(
  (result) => settle({ type: 'done', result }),
  (err: { name?: string; code?: string; message?: string; field?: string }) =>
    settle({ type: 'error', error: { name: err.name ?? 'Error', code: err.code ?? 'CRAWL_INTERNAL', message: err.message ?? String(err), ...(err.field ? { field: err.field } : {}) } }),
);
