/**
 * The workbench's simulations (issue 18): each runs `simulate` in a worker thread of its own
 * (simulation-worker.ts), so that the engine's thread keeps answering calls and sending events
 * while the simulator works for seconds or hours; Cancel ends the thread. A finished run is
 * kept as WORKSPACE/simulations/ID.json (the checked request, the report as `crawlbench
 * simulate --json` prints it, its start and end), written under a temporary name and renamed
 * when complete, so a cancelled or failed run leaves no file and a later session lists every
 * kept run. Sources are named by id only: a crawl of the workspace or a folder of the datasets
 * directory (pages.tsv.gz + links.tsv.gz), never a path from the page.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import type * as C from './contract.js';
import { measureOptionsOf } from '../ranking/request-schema.js';
import { parseSimulationRequest, SOURCE_ID, type CheckedSimulationRequest } from './simulation-request.js';
import { datasetFolder, simulationSources } from './simulation-sources.js';
import type { SimulationWorkerData, SimulationWorkerMessage } from './simulation-worker.js';
import { makeFolders } from '../folders.js';

/** Runs at once: the machine's cores are shared with crawls and the UI. */
const MAX_RUNNING = 2;

export interface SimulationJobsOptions {
  /** WORKSPACE/simulations. */
  dir: string;
  /** Where dataset folders are looked for (created by nobody: a missing folder lists none). */
  datasetsDir: string;
  /** The crawl file of a workspace crawl id (throws CRAWL_DB_MISSING when there is none). */
  crawlPath: (id: string) => string;
  /** The crawls of the workspace (for the sources list). */
  crawls: () => Promise<C.CrawlInfo[]>;
  /** The worker's compiled file (Electron's bundle passes its own); default beside this module. */
  workerFile?: string;
  /** Sleep this long in the worker after each progress message (tests watch progress and Cancel with it). */
  throttleMs?: number;
}

interface Job {
  dto: C.SimulationDto;
  worker: Worker | null;
  done: Promise<void>;
}

/** The stored file's shape. */
interface KeptSimulation {
  simulationId: string;
  request: CheckedSimulationRequest;
  startedAt: string;
  finishedAt: string;
  report: C.SimulationReportDto;
}

/** The worker's compiled file: beside this one in dist/, or dist/'s when this runs from source (tests). */
export function defaultWorkerFile(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/api/simulation-worker.js', here) : new URL('./simulation-worker.js', here));
}

/** CLI flags in the simulator's messages, as the request's fields. */
const FIELD_OF: Record<string, string> = { '--seeds': 'seeds', '--history': 'historyCrawl', '--policy': 'policies', '--topic': 'topic', '--graph': 'source', '--measure': 'measure' };

/** Failed and cancelled runs remembered (they have no file): the newest, so a script cannot grow the list without end. */
const ENDED_KEPT = 20;

export class SimulationJobs {
  private readonly jobs = new Map<string, Job>();

  /** Forgets all but the newest ENDED_KEPT failed or cancelled runs. */
  private prune(): void {
    const ended = [...this.jobs.values()].filter((j) => j.dto.state === 'failed' || j.dto.state === 'cancelled');
    for (const j of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) this.jobs.delete(j.dto.simulationId);
  }

  /** True while a run reads crawl `id` of the workspace (its file must not be deleted meanwhile). */
  readsCrawl(id: string): boolean {
    return [...this.jobs.values()].some((j) => j.dto.state === 'running' && ((j.dto.request.source.kind === 'crawl' && j.dto.request.source.id === id) || j.dto.request.historyCrawl === id));
  }
  readonly events = new EventEmitter();

  constructor(private readonly o: SimulationJobsOptions) {
    this.events.setMaxListeners(100);
  }

  get datasetsDir(): string {
    return this.o.datasetsDir;
  }

  sources(): Promise<C.SimulationSourcesDto> {
    return simulationSources(this.o.datasetsDir, this.o.crawls);
  }

  /** The graph a source names: a workspace crawl's file or a dataset folder. */
  private graphOf(source: CheckedSimulationRequest['source']): string {
    if (source.kind === 'crawl') {
      try {
        return this.o.crawlPath(source.id);
      } catch (err) {
        throw new CrawlError((err as CrawlError).code ?? ErrorCodes.BAD_OPTION, (err as Error).message, { field: 'source' });
      }
    }
    return datasetFolder(this.o.datasetsDir, source.id);
  }

  start(raw: C.SimulationRequest): { simulationId: string } {
    const request = parseSimulationRequest(raw);
    const graph = this.graphOf(request.source);
    let history: string | undefined;
    if (request.historyCrawl !== undefined) {
      try {
        history = this.o.crawlPath(request.historyCrawl);
      } catch (err) {
        throw new CrawlError((err as CrawlError).code ?? ErrorCodes.BAD_OPTION, (err as Error).message, { field: 'historyCrawl' });
      }
    }
    const running = [...this.jobs.values()].filter((j) => j.dto.state === 'running').length;
    if (running >= MAX_RUNNING) throw badField('source', `${running} simulations are running; wait for one to end or cancel it`);
    const workerFile = this.o.workerFile ?? defaultWorkerFile();
    if (!existsSync(workerFile)) throw new CrawlError(ErrorCodes.INTERNAL, `the simulator's worker is not built (${workerFile}); run npm run build`);

    const now = new Date();
    const simulationId = `sim-${now.toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
    const dto: C.SimulationDto = {
      simulationId, state: 'running', request, startedAt: now.toISOString(), finishedAt: null,
      progress: { simulationId, state: 'running', done: 0, total: 0, step: 'starting', fraction: 0 }, error: null, pages: null, report: null,
    };
    const data: SimulationWorkerData = {
      options: {
        graph,
        policies: request.policies,
        r: request.r,
        w: request.w,
        c: request.c,
        bandwidth: request.bandwidth ?? Infinity,
        batch: request.batch ?? null,
        history,
        historyShare: request.historyShare,
        topic: request.topic,
        topicOrder: request.topicOrder,
        topicRadius: request.topicRadius,
        seeds: request.seeds,
        siteKey: request.siteKey,
        latency: request.latency,
        networkSeed: request.networkSeed,
        maxPages: request.maxPages ?? null,
        maxPagesPerSite: request.maxPagesPerSite ?? null,
        perIp: request.perIp,
        measure: measureOptionsOf(request),
        progressEvery: 100,
      },
      throttleMs: this.o.throttleMs ?? 0,
    };
    const worker = new Worker(workerFile, { workerData: data });
    const job: Job = { dto, worker, done: Promise.resolve() };
    this.jobs.set(simulationId, job);
    job.done = new Promise<void>((resolve) => {
      worker.on('message', (m: SimulationWorkerMessage) => {
        if (dto.state !== 'running') return;
        if (m.type === 'progress') this.progress(job, m.step, m.done, m.total);
        else if (m.type === 'done') this.finish(job, m.report as C.SimulationReportDto);
        else this.fail(job, m.error);
      });
      worker.on('error', (err) => {
        const oom = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        const message = oom ? 'the simulator ran out of memory for this graph; give the engine more (NODE_OPTIONS=--max-old-space-size=8192) or replay a smaller graph' : err.message;
        this.fail(job, { name: err.name, code: ErrorCodes.INTERNAL, message });
      });
      worker.on('exit', (code) => {
        if (dto.state === 'running') this.fail(job, { name: 'Error', code: ErrorCodes.INTERNAL, message: `the simulator's thread ended (exit code ${code}) before its report` });
        job.worker = null;
        resolve();
      });
    });
    return { simulationId };
  }

  private emit(job: Job): void {
    this.events.emit('simulationProgress', { ...job.dto.progress! });
  }

  private progress(job: Job, step: string, done: number, total: number): void {
    const d = job.dto;
    d.progress = { simulationId: d.simulationId, state: 'running', done, total, step, fraction: total > 0 ? Math.min(1, done / total) : 0 };
    this.emit(job);
  }

  private finish(job: Job, report: C.SimulationReportDto): void {
    const d = job.dto;
    const finishedAt = new Date().toISOString();
    const kept: KeptSimulation = { simulationId: d.simulationId, request: d.request, startedAt: d.startedAt, finishedAt, report };
    try {
      makeFolders(this.o.dir);
      const file = this.file(d.simulationId);
      writeFileSync(`${file}.part`, JSON.stringify(kept));
      renameSync(`${file}.part`, file);
    } catch (err) {
      rmSync(`${this.file(d.simulationId)}.part`, { force: true });
      return this.fail(job, { name: 'CrawlError', code: ErrorCodes.INTERNAL, message: `the results could not be kept: ${(err as Error).message}` });
    }
    Object.assign(d, { state: 'finished', finishedAt, pages: report.pages, report: null });
    d.progress = { ...d.progress!, state: 'finished', done: d.progress!.total, fraction: 1, step: 'finished' };
    this.emit(job);
    // The report is on disk; the list keeps only the summary.
    this.jobs.delete(d.simulationId);
  }

  private fail(job: Job, error: C.WireError): void {
    const d = job.dto;
    if (d.state !== 'running') return;
    const m = /^(--[a-z-]+): ([\s\S]*)$/.exec(error.message);
    const wire = m && FIELD_OF[m[1]!] ? { ...error, message: `${FIELD_OF[m[1]!]}: ${m[2]}`, field: error.field ?? FIELD_OF[m[1]!] } : error;
    Object.assign(d, { state: 'failed', finishedAt: new Date().toISOString(), error: wire });
    d.progress = { ...d.progress!, state: 'failed', step: 'failed' };
    this.emit(job);
    void job.worker?.terminate();
    this.prune();
  }

  async cancel(id: string): Promise<C.SimulationDto> {
    const job = this.jobs.get(String(id));
    if (!job) {
      if (this.kept(String(id))) return this.get(String(id));
      throw badField('simulationId', `no simulation "${String(id)}" under way`);
    }
    const d = job.dto;
    if (d.state === 'running') {
      Object.assign(d, { state: 'cancelled', finishedAt: new Date().toISOString() });
      d.progress = { ...d.progress!, state: 'cancelled', step: 'cancelled' };
      await job.worker?.terminate();
      await job.done;
      this.emit(job);
      this.prune();
    }
    return { ...d };
  }

  private file(id: string): string {
    return join(this.o.dir, `${id}.json`);
  }

  private kept(id: string): boolean {
    return SOURCE_ID.test(id) && existsSync(this.file(id));
  }

  private read(id: string): C.SimulationDto {
    const k = JSON.parse(readFileSync(this.file(id), 'utf8')) as KeptSimulation;
    return {
      simulationId: id, state: 'finished', request: k.request, startedAt: k.startedAt, finishedAt: k.finishedAt,
      progress: null, error: null, pages: k.report.pages, report: k.report,
    };
  }

  /** This session's runs under way, failed or cancelled, and every kept run, newest first. */
  async list(): Promise<C.SimulationDto[]> {
    const out = [...this.jobs.values()].map((j) => ({ ...j.dto }));
    if (existsSync(this.o.dir)) {
      for (const f of readdirSync(this.o.dir)) {
        const id = f.slice(0, -5);
        if (!f.endsWith('.json') || !SOURCE_ID.test(id) || this.jobs.has(id)) continue;
        try {
          out.push({ ...this.read(id), report: null });
        } catch {
          // A file that is not a kept simulation (hand-edited, truncated) is left out.
        }
      }
    }
    return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.simulationId.localeCompare(a.simulationId));
  }

  async get(id: string): Promise<C.SimulationDto> {
    const sid = String(id);
    const job = this.jobs.get(sid);
    if (job) return { ...job.dto };
    if (!this.kept(sid)) throw badField('simulationId', `no simulation "${sid}" in this workspace`);
    try {
      return this.read(sid);
    } catch (err) {
      throw new CrawlError(ErrorCodes.INTERNAL, `the simulation file ${sid}.json cannot be read: ${(err as Error).message}`);
    }
  }

  async delete(id: string): Promise<void> {
    const sid = String(id);
    const job = this.jobs.get(sid);
    if (job?.dto.state === 'running') throw badField('simulationId', 'this simulation is running; cancel it first');
    if (job) this.jobs.delete(sid);
    else if (this.kept(sid)) rmSync(this.file(sid), { force: true });
    else throw badField('simulationId', `no simulation "${sid}" in this workspace`);
  }

  /** Ends every simulation under way (the server is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.jobs.values()].filter((j) => j.dto.state === 'running').map((j) => this.cancel(j.dto.simulationId)));
  }
}
