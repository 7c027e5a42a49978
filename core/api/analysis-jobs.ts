/**
 * PageRank and evaluations under way (the Results view's runPageRank and runEvaluation), each in
 * a worker thread of its own (worker-jobs.ts), so that the engine's thread keeps answering
 * calls and running crawls while a large crawl is ranked. Their steps go out as
 * analysisProgress events (every new step; PageRank iterations at most every 100 ms); a crawl's
 * analyses can be cancelled. Run from source without a build (some tests), an analysis runs in
 * the engine's thread instead, with the same events.
 */
import type { AnalysisJob, StepProgress } from './heavy-jobs.js';
import type { AnalysisProgressEvent } from './contract.js';
import { JobSlots, JOBS_AT_ONCE } from './job-slots.js';
import { WorkerJobs, type RunningJob } from './worker-jobs.js';

export interface AnalysisJobsOptions {
  /** The job worker's compiled file (Electron's bundle passes its own); default beside worker-jobs.ts. */
  workerFile?: string;
  emit: (e: AnalysisProgressEvent) => void;
}

interface Running {
  crawlId: string;
  job: RunningJob<unknown>;
}

export class AnalysisJobs {
  private readonly running = new Set<Running>();
  private readonly threads: WorkerJobs;
  /**
   * Analyses at once (job-slots.ts). Each loads a crawl's whole graph (about 400 MiB for 10M
   * links): a page asking for many at once must not take the engine down.
   */
  private readonly slots = new JobSlots(JOBS_AT_ONCE, (running) => `${running.length} computations of PageRank or evaluations are running; wait for one to end or cancel it`);

  constructor(private readonly o: AnalysisJobsOptions) {
    this.threads = new WorkerJobs(o.workerFile);
  }

  /** Runs one analysis of a crawl to its end; CRAWL_CANCELLED when cancelled meanwhile. */
  async run<T>(crawlId: string, job: AnalysisJob): Promise<T> {
    return this.slots.run(`${job.what} of "${crawlId}"`, [crawlId], async () => {
      const tell = this.throttled(crawlId, job.what);
      const started = this.threads.start(job, (p) => tell((p as StepProgress).step, (p as StepProgress).fraction));
      const entry: Running = { crawlId, job: started };
      this.running.add(entry);
      try {
        return (await started.result) as T;
      } finally {
        this.running.delete(entry);
      }
    });
  }

  /** True while an analysis of the crawl runs (its file must not be deleted meanwhile). */
  busy(crawlId: string): boolean {
    for (const r of this.running) if (r.crawlId === crawlId) return true;
    return false;
  }

  /** Cancels every analysis of the crawl under way (each then fails with CRAWL_CANCELLED). */
  cancel(crawlId: string): void {
    for (const r of this.running) if (r.crawlId === crawlId) r.job.cancel();
  }

  /** Cancels everything and waits for the threads to end (the engine is closing). */
  async close(): Promise<void> {
    await this.threads.close();
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
