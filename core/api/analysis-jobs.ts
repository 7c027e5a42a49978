/**
 * PageRank and evaluations under way (the Results view's runPageRank and runEvaluation), each in
 * a worker thread of its own (analysis-worker.ts), so that the engine's thread keeps answering
 * calls and running crawls while a large crawl is ranked. Their steps go out as
 * analysisProgress events (every new step; PageRank iterations at most every 100 ms); a crawl's
 * analyses can be cancelled. Run from source without a build (some tests), an analysis runs in
 * the engine's thread instead, with the same events.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { runAnalysis, type AnalysisJob } from './analyses.js';
import type { AnalysisWorkerData, AnalysisWorkerMessage } from './analysis-worker.js';
import type { AnalysisProgressEvent } from './contract.js';

export interface AnalysisJobsOptions {
  /** The worker's compiled file (Electron's bundle passes its own); default beside this module. */
  workerFile?: string;
  emit: (e: AnalysisProgressEvent) => void;
}

/** The worker's compiled file: beside this one in dist/, or dist/'s when this runs from source (tests). */
export function defaultAnalysisWorker(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/api/analysis-worker.js', here) : new URL('./analysis-worker.js', here));
}

/**
 * Analyses at once. Each loads a crawl's whole graph (about 400 MiB for 10M links): a page
 * asking for many at once must not take the engine, and the crawls running in it, down.
 */
const MAX_RUNNING = 2;

interface Running {
  crawlId: string;
  cancel: Int32Array;
  worker: Worker | null;
}

export class AnalysisJobs {
  private readonly running = new Set<Running>();

  constructor(private readonly o: AnalysisJobsOptions) {}

  /** Runs one analysis of a crawl to its end; CRAWL_CANCELLED when cancelled meanwhile. */
  async run<T>(crawlId: string, job: AnalysisJob): Promise<T> {
    if (this.running.size >= MAX_RUNNING) {
      throw new CrawlError(ErrorCodes.DB_LOCKED, `${this.running.size} computations of PageRank or evaluations are running; wait for one to end or cancel it`);
    }
    const tell = this.throttled(crawlId, job.what);
    const entry: Running = { crawlId, cancel: new Int32Array(new SharedArrayBuffer(4)), worker: null };
    this.running.add(entry);
    try {
      const file = this.o.workerFile ?? defaultAnalysisWorker();
      if (!existsSync(file)) return (await runAnalysis(job, tell)) as T;
      return await new Promise<T>((resolve, reject) => {
        const data: AnalysisWorkerData = { job, cancel: entry.cancel.buffer as SharedArrayBuffer };
        const worker = new Worker(file, { workerData: data });
        entry.worker = worker;
        let settled = false;
        worker.on('message', (m: AnalysisWorkerMessage) => {
          if (m.type === 'progress') tell(m.step, m.fraction);
          else {
            settled = true;
            if (m.type === 'done') resolve(m.result as T);
            else reject(new CrawlError(m.error.code as ErrorCode, m.error.message, m.error.field ? { field: m.error.field } : undefined));
            void worker.terminate();
          }
        });
        worker.on('error', (err) => {
          settled = true;
          reject(new CrawlError(ErrorCodes.INTERNAL, `the computation failed: ${err.message}`));
        });
        worker.on('exit', () => {
          if (!settled) reject(new CrawlError(ErrorCodes.CANCELLED, 'the computation was cancelled'));
        });
      });
    } finally {
      this.running.delete(entry);
    }
  }

  /** True while an analysis of the crawl runs (its file must not be deleted meanwhile). */
  busy(crawlId: string): boolean {
    for (const r of this.running) if (r.crawlId === crawlId) return true;
    return false;
  }

  /** Cancels every analysis of the crawl under way (each then fails with CRAWL_CANCELLED). */
  cancel(crawlId: string): void {
    for (const r of this.running) if (r.crawlId === crawlId) Atomics.store(r.cancel, 0, 1);
  }

  /**
   * Cancels everything and waits for the threads to end (the engine is closing). A thread is
   * given a few seconds to unwind (releasing a crawl file's writer lock) before it is stopped.
   */
  async close(): Promise<void> {
    const workers = [...this.running].map((r) => (Atomics.store(r.cancel, 0, 1), r.worker)).filter((w): w is Worker => w !== null);
    await Promise.all(
      workers.map(async (w) => {
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5000).unref());
        if ((await Promise.race([exited, timer])) === 'late') await w.terminate();
      }),
    );
  }

  /** Every new step, and a step's PageRank iterations at most every 100 ms. */
  private throttled(crawlId: string, what: AnalysisJob['what']): (step: string, fraction: number) => void {
    let last = 0;
    let lastStep = '';
    return (step, fraction) => {
      const kind = step.replace(/: iteration \d+$/, '');
      const now = performance.now();
      if (kind === lastStep && now - last < 100 && fraction < 1) return;
      last = now;
      lastStep = kind;
      this.o.emit({ crawlId, what, fraction, step });
    };
  }
}
