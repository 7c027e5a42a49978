/**
 * Runs heavy jobs (heavy-jobs.ts) in worker threads (job-worker.ts), one thread a job, so that
 * the thread answering the workbench's calls never holds its event loop for a comparison, an
 * export, a partitioning or a PageRank. Each job can be cancelled (a flag in shared memory the
 * worker reads at every step). Run from source without a build (some tests), a job runs on the
 * calling thread instead, with the same progress and cancel.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { runHeavyJob, type HeavyJob, type JobProgress, type JobResults } from './heavy-jobs.js';
import type { JobWorkerData, JobWorkerMessage } from './job-worker.js';

/** The worker's compiled file: beside this one in dist/, or dist/'s when this runs from source (tests). */
export function defaultJobWorker(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/api/job-worker.js', here) : new URL('./job-worker.js', here));
}

export interface RunningJob<T> {
  result: Promise<T>;
  /** Asks the job to stop (it then fails with CRAWL_CANCELLED). */
  cancel(): void;
  /** Resolves when the thread has ended (after a cancel too). */
  exited: Promise<void>;
  /** Stops the thread at once (a job that did not unwind after its cancel). */
  terminate(): Promise<void>;
}

export class WorkerJobs {
  private readonly running = new Set<RunningJob<unknown>>();

  constructor(private readonly workerFile?: string) {}

  start<W extends HeavyJob['what']>(job: Extract<HeavyJob, { what: W }>, onProgress: (p: JobProgress) => void): RunningJob<JobResults[W]> {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const file = this.workerFile ?? defaultJobWorker();
    let exited: Promise<void>;
    let result: Promise<JobResults[W]>;
    let terminate = async () => undefined as void;
    if (!existsSync(file)) {
      const cancelled = () => Atomics.load(flag, 0) !== 0;
      result = runHeavyJob(job, (p) => {
        if (cancelled()) throw new CrawlError(ErrorCodes.CANCELLED, 'cancelled');
        onProgress(p);
      }, cancelled) as Promise<JobResults[W]>;
      exited = result.then(() => undefined, () => undefined);
    } else {
      const data: JobWorkerData = { job, cancel: flag.buffer as SharedArrayBuffer };
      const worker = new Worker(file, { workerData: data });
      terminate = async () => void (await worker.terminate());
      exited = new Promise((resolve) => worker.once('exit', () => resolve()));
      result = new Promise<JobResults[W]>((resolve, reject) => {
        let settled = false;
        worker.on('message', (m: JobWorkerMessage) => {
          if (m.type === 'progress') return onProgress(m.progress);
          settled = true;
          if (m.type === 'done') resolve(m.result as JobResults[W]);
          else reject(new CrawlError(m.error.code as ErrorCode, m.error.message, m.error.field ? { field: m.error.field } : undefined));
          void worker.terminate();
        });
        worker.on('error', (err) => {
          settled = true;
          reject(new CrawlError(ErrorCodes.INTERNAL, `${job.what} failed: ${err.message}`));
        });
        worker.on('exit', () => {
          if (!settled) reject(new CrawlError(ErrorCodes.CANCELLED, `${job.what} was cancelled`));
        });
      });
    }
    const entry: RunningJob<JobResults[W]> = { result, cancel: () => void Atomics.store(flag, 0, 1), exited, terminate };
    this.running.add(entry);
    void exited.then(() => this.running.delete(entry));
    return entry;
  }

  /** Cancels every job and waits for its thread to end; a thread slow to unwind is stopped after a few seconds. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.running].map(async (j) => {
        j.cancel();
        const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5000).unref());
        if ((await Promise.race([j.exited, late])) === 'late') await j.terminate();
      }),
    );
  }
}

/**
 * Runs jobs one after another: a page or a script asking for many seed readings at once
 * (each a thread holding a copy of up to 64 MiB of text and its million URLs) waits its turn
 * rather than taking the engine's memory.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.last.then(fn, fn);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
