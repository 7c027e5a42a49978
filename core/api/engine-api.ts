/**
 * The contract implemented in-process over a workspace folder of crawl databases: the crawl
 * features (engine-crawls.ts: each running crawl in its own process) and, here, the heavy ones:
 * analyses, comparisons, exports, partitions (worker threads, jobs/*.ts) and simulations.
 * Browser mode serves it over WebSocket; Electron runs it in a utility process, never on the
 * window's thread.
 */
import { join, resolve } from 'node:path';
import { CompareRequestSchema } from '../compare/request-schema.js';
import { EvaluationRequestSchema, measureOptionsOf } from '../ranking/request-schema.js';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import { AnalysisJobs } from './analysis-jobs.js';
import type * as C from './contract.js';
import { CrawlsEngine, type CrawlsEngineOptions } from './engine-crawls.js';
import { ExportJobs } from './export-jobs.js';
import { GraphJobs } from './graph-jobs.js';
import type { StepProgress } from './heavy-jobs.js';
import { heavyJobSlots, type JobSlots } from './job-slots.js';
import { messagesWithoutPaths, withoutPaths } from './message-paths.js';
import { checkRequest } from './request-check.js';
import { SimulationJobs } from './simulation-jobs.js';
import { storedPageRank } from './stored-pagerank.js';
import type { RunningJob } from './worker-jobs.js';
import { withoutUndefined } from './workspace.js';

export interface EngineApiOptions extends CrawlsEngineOptions {
  /** What the engine asks of its host (where an export goes); default: browser mode's answers (host.ts). */
  host?: C.HostCapabilities;
  /** Pause every export this long after each chunk of rows (tests hold an export mid-way with it). */
  exportThrottleMs?: number;
  /** simulate: where dataset folders are listed (default WORKSPACE/datasets; nothing is created). */
  datasetsDir?: string;
  /** simulate: pause a simulation's worker this long after each progress message (tests watch progress and Cancel). */
  simulationThrottleMs?: number;
  /** simulate: the worker's compiled file (Electron's bundle has its own). */
  simulationWorker?: string;
}

export class EngineApi extends CrawlsEngine implements C.CrawlbenchApi {
  /** Comparisons under way, by job id, to cancel them. */
  private readonly compares = new Map<string, RunningJob<unknown>>();
  /** Comparisons, exports, graph exports and partitionings at once (job-slots.ts): one set of slots for all four. */
  private readonly slots: JobSlots = heavyJobSlots();
  private readonly graphs: GraphJobs;
  private readonly exports: ExportJobs;
  private readonly simulations: SimulationJobs;
  /** results: PageRank and evaluations under way, each in a worker thread. */
  private readonly analyses: AnalysisJobs;

  constructor(dir: string, opts: EngineApiOptions = {}) {
    super(dir, opts);
    // Graph files go beside the exports, where browser mode offers them for download.
    this.graphs = new GraphJobs(join(this.dir, 'exports'), (e) => this.events.emit('partitionProgress', e), opts.jobWorker, this.slots);
    this.exports = new ExportJobs(join(this.dir, 'exports'), { host: opts.host, throttleMs: opts.exportThrottleMs, workerFile: opts.jobWorker, slots: this.slots });
    this.exports.events.on('exportProgress', (e) => this.events.emit('exportProgress', e));
    this.analyses = new AnalysisJobs({ workerFile: opts.jobWorker, emit: (e) => this.events.emit('analysisProgress', e) });
    this.simulations = new SimulationJobs({
      dir: join(this.dir, 'simulations'),
      datasetsDir: resolve(opts.datasetsDir ?? join(this.dir, 'datasets')),
      crawlPath: (id) => this.current(id),
      crawls: () => this.listCrawls(),
      workerFile: opts.simulationWorker,
      throttleMs: opts.simulationThrottleMs,
    });
    this.simulations.events.on('simulationProgress', (e) => this.events.emit('simulationProgress', e));
    // What a user sees names no absolute path of this machine (message-paths.ts).
    messagesWithoutPaths(this, this.dir);
  }

  /** A worker thread reading the file: deleting it (and its lock) under the reader would free the name for a new crawl whose lock the ending worker would then remove. */
  protected override readerOf(id: string): string | null {
    if (this.analyses.busy(id)) return `crawl "${id}" is being ranked or evaluated`;
    if (this.simulations.readsCrawl(id)) return `a simulation is replaying crawl "${id}"`;
    const job = this.slots.reading(id);
    return job === null ? null : `${job} is under way`;
  }

  /** Where browser-mode exports are written, one folder per export (served for download under /exports/). */
  get exportsDir(): string {
    return this.exports.dir;
  }

  async runPageRank(id: string): Promise<C.PageRankResultDto> {
    const path = this.current(id);
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is running; pause it before computing PageRank`);
    return this.analyses.run<C.PageRankResultDto>(id, { what: 'pagerank', dbPath: path });
  }

  /** The stored PageRank runs, read as they are (a running crawl's as of now); null when none. */
  async pageRankResult(id: string): Promise<C.StoredPageRankDto | null> {
    return this.stored(id, storedPageRank);
  }

  /** Checked by the evaluation's schema (ranking/request-schema.ts, as `crawlbench eval`'s flags and the Results form) before it runs. */
  async runEvaluation(id: string, opts: C.EvaluationRequest = {}): Promise<C.EvaluationDto> {
    const { oracle: oracleId, points, ...measure } = checkRequest(EvaluationRequestSchema, opts ?? {}, 'an evaluation');
    // An oracle is another crawl of this workspace, named by its id (never an arbitrary path).
    const oracle = oracleId === undefined ? undefined : this.current(oracleId);
    const evalOpts = withoutUndefined({ oracle, points, ...measureOptionsOf(measure) });
    return this.analyses.run<C.EvaluationDto>(id, { what: 'evaluation', dbPath: this.current(id), opts: evalOpts });
  }

  /** Cancels the PageRank or evaluation of a crawl under way (it then fails with CRAWL_CANCELLED). */
  async cancelAnalysis(id: string): Promise<void> {
    this.path(id);
    this.analyses.cancel(id);
  }

  onAnalysisProgress(cb: (e: C.AnalysisProgressEvent) => void): C.Unsubscribe {
    return this.listen('analysisProgress', cb);
  }

  async startExport(id: string, req: C.ExportRequest): Promise<{ exportId: string }> {
    return this.exports.start(id, this.current(id), req);
  }

  cancelExport(exportId: string): Promise<C.ExportJobDto> {
    return this.exports.cancel(exportId);
  }

  async listExports(crawlId?: string): Promise<C.ExportJobDto[]> {
    if (crawlId !== undefined && crawlId !== null) this.path(crawlId);
    return this.exports.list(crawlId ?? undefined);
  }

  onExportProgress(cb: (e: C.ExportJobDto) => void): C.Unsubscribe {
    return this.listen('exportProgress', cb);
  }

  /** A crawl's graph partitioned with gpmetis, Zoltan PHG (and KaHyPar where installed) beside hashing (a running crawl as of now). */
  async partitionCrawl(id: string, req: C.PartitionRequest): Promise<C.PartitionReport> {
    return this.graphs.partition(id, this.current(id), req);
  }

  cancelPartition(jobId: string): Promise<void> {
    return this.graphs.cancel(jobId);
  }

  async exportGraph(id: string, req: C.GraphExportRequest): Promise<C.GraphExportDto> {
    return this.graphs.exportGraph(id, this.current(id), req);
  }

  onPartitionProgress(cb: (e: C.PartitionProgressEvent) => void): C.Unsubscribe {
    return this.listen('partitionProgress', cb);
  }

  /** Compares two crawls of the workspace in a worker thread, so the server keeps answering meanwhile. */
  async compareCrawls(a: string, b: string, opts: C.CompareRequest = {}): Promise<C.CompareReport> {
    const { jobId = `compare-${Date.now()}`, top, host } = checkRequest(CompareRequestSchema, opts ?? {}, 'a comparison');
    if (this.compares.has(jobId)) throw badField('jobId', `a comparison named "${jobId}" is under way`);
    const [pathA, pathB] = [this.current(a), this.current(b)];
    return this.slots.run(`a comparison of "${a}" and "${b}"`, [a, b], async () => {
      const thread = this.threads.start({ what: 'compare', pathA, pathB, opts: { top, host } }, (p) => {
        const { step, fraction } = p as StepProgress;
        this.events.emit('compareProgress', { jobId, step, fraction } satisfies C.CompareProgressEvent);
      });
      this.compares.set(jobId, thread);
      try {
        const report = await thread.result;
        // The crawls by their files' names in the workspace, not this machine's absolute paths (message-paths.ts).
        return { ...report, a: { ...report.a, path: withoutPaths(report.a.path, this.dir) }, b: { ...report.b, path: withoutPaths(report.b.path, this.dir) } };
      } finally {
        this.compares.delete(jobId);
      }
    });
  }

  async cancelCompare(jobId: string): Promise<void> {
    this.compares.get(String(jobId))?.cancel();
  }

  onCompareProgress(cb: (e: C.CompareProgressEvent) => void): C.Unsubscribe {
    return this.listen('compareProgress', cb);
  }

  // ---- simulate: the simulator in a worker thread, runs kept in WORKSPACE/simulations (simulation-jobs.ts)
  listSimulationSources(): Promise<C.SimulationSourcesDto> {
    return this.simulations.sources();
  }

  async startSimulation(req: C.SimulationRequest): Promise<{ simulationId: string }> {
    return this.simulations.start(req);
  }

  cancelSimulation(simulationId: string): Promise<C.SimulationDto> {
    return this.simulations.cancel(simulationId);
  }

  listSimulations(): Promise<C.SimulationDto[]> {
    return this.simulations.list();
  }

  getSimulation(simulationId: string): Promise<C.SimulationDto> {
    return this.simulations.get(simulationId);
  }

  deleteSimulation(simulationId: string): Promise<void> {
    return this.simulations.delete(simulationId);
  }

  onSimulationProgress(cb: (e: C.SimulationProgressEvent) => void): C.Unsubscribe {
    return this.listen('simulationProgress', cb);
  }
  // ---- end of simulate

  /**
   * Quitting on purpose: cancels running exports, pauses every running crawl (its process
   * commits its batch and ends) and stops the demo webs. A server that crashes never gets
   * here, and its crawls run on until a server started again attaches to them.
   */
  async close(): Promise<void> {
    await this.ready;
    await this.graphs.close();
    await this.threads.close();
    await this.reads.close();
    await this.analyses.close();
    await this.simulations.close();
    await this.exports.close();
    await this.live.pauseAll();
    await this.upgrades.close();
    await this.demos.stopAll();
  }
}
