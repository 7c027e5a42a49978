/**
 * The workbench's partitionings and graph exports of the workspace's crawls (issue 17): each
 * runs in a worker thread (worker-jobs.ts; a partitioning's partitioners as child processes of
 * that thread), so the engine's thread answers calls meanwhile; a partitioning reports each
 * finished run as a partitionProgress event, and is cancelled by its job id (the running
 * partitioner is killed). Graph files go to WORKSPACE/exports/graph-CRAWL/, the folder the
 * browser server offers for download (/exports/...), written over by a later export of the same
 * model and format; while one is written, another of the same crawl, model and format is
 * refused (the two would write one file). Both take one of the engine's slots for heavy jobs
 * (job-slots.ts), shared with comparisons and exports.
 */
import { rmdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import { idMapPath } from '../graph/export-graph.js';
import type { GraphFormat, GraphModel, PartitionProgress, PartitionReport } from '../graph/report.js';
import { GraphExportRequestSchema, PartitionRequestSchema } from '../graph/request-schema.js';
import type { GraphExportDto, GraphExportRequest, PartitionProgressEvent, PartitionRequest } from './contract.js';
import { heavyJobSlots, type JobSlots } from './job-slots.js';
import { checkRequest } from './request-check.js';
import { WorkerJobs, type RunningJob } from './worker-jobs.js';
import { makeFolders } from '../folders.js';

/** File name endings of each format. */
const EXTENSION: Record<GraphFormat, string> = { metis: 'graph', hmetis: 'hgr', patoh: 'patoh', edgelist: 'tsv', graphml: 'graphml' };

export class GraphJobs {
  private readonly running = new Map<string, RunningJob<unknown>>();
  /** The graph files being written (one export of a crawl, model and format at a time). */
  private readonly writing = new Set<string>();
  private jobs = 0;
  private readonly threads: WorkerJobs;

  constructor(
    /** WORKSPACE/exports. */
    private readonly exportsDir: string,
    private readonly emit: (e: PartitionProgressEvent) => void,
    workerFile?: string,
    /** The engine's slots for heavy jobs (shared with comparisons and exports); default: slots of its own. */
    private readonly slots: JobSlots = heavyJobSlots(),
  ) {
    this.threads = new WorkerJobs(workerFile);
  }

  async partition(crawlId: string, dbPath: string, raw: PartitionRequest): Promise<PartitionReport> {
    const req = parsePartitionRequest(raw);
    const jobId = req.jobId ?? `partition-${++this.jobs}`;
    if (this.running.has(jobId)) throw badField('jobId', `a partitioning with job id ${jobId} is already running`);
    return this.slots.run(`a partitioning of "${crawlId}"`, [crawlId], async () => {
      const thread = this.threads.start({ what: 'partition', dbPath, models: req.models, parts: req.parts, runs: req.runs }, (p) =>
        this.emit({ jobId, crawlId, ...(p as PartitionProgress) }),
      );
      this.running.set(jobId, thread);
      try {
        return await thread.result;
      } catch (err) {
        // The same refusal, at the form's field.
        if (err instanceof CrawlError && err.message.startsWith('--parts:')) throw badField('parts', err.message.slice(9));
        throw err;
      } finally {
        this.running.delete(jobId);
      }
    });
  }

  async cancel(jobId: string): Promise<void> {
    this.running.get(String(jobId))?.cancel();
  }

  async exportGraph(crawlId: string, dbPath: string, raw: GraphExportRequest): Promise<GraphExportDto> {
    const { model, format } = checkRequest(GraphExportRequestSchema, raw ?? {}, 'a graph export request');
    const folder = join(this.exportsDir, `graph-${crawlId}`);
    const out = join(folder, `${model}.${EXTENSION[format]}`);
    if (this.writing.has(out)) {
      throw new CrawlError(ErrorCodes.DB_LOCKED, `the ${model} graph of "${crawlId}" in ${format} is being written; wait for it to end, then download it`);
    }
    return this.slots.run(`a graph export of "${crawlId}"`, [crawlId], async () => {
      this.writing.add(out);
      makeFolders(folder);
      try {
        const r = await this.threads.start({ what: 'graph-export', dbPath, request: { model, format, out, force: true } }, () => undefined).result;
        const files = [out, idMapPath(out)].map((path) => ({ name: basename(path), bytes: statSync(path).size, path, href: this.href(path) }));
        return { model, format, vertices: r.vertices, edges: r.edges, sizeUnit: r.sizeUnit, files };
      } catch (err) {
        // A failed or cancelled export leaves no empty folder behind (one holding earlier exports stays).
        try {
          // Not while another export of this crawl writes into it.
          if (![...this.writing].some((p) => p !== out && dirname(p) === folder)) rmdirSync(folder);
        } catch {
          // not empty: it holds earlier exports
        }
        throw err;
      } finally {
        this.writing.delete(out);
      }
    });
  }

  /** Cancels every partitioning and graph export under way and waits for their threads. */
  close(): Promise<void> {
    return this.threads.close();
  }

  /** The download address under the exports folder (browser-server.ts serves /exports/...). */
  private href(path: string): string {
    return '/exports/' + relative(this.exportsDir, path).split(sep).map(encodeURIComponent).join('/');
  }
}

/** A partition request checked by the one schema (graph/request-schema.ts: the form and the CLI use it too). */
export function parsePartitionRequest(raw: PartitionRequest): { jobId?: string; models: GraphModel[]; parts: number[]; runs: number } {
  return checkRequest(PartitionRequestSchema, raw ?? {}, 'a partition request');
}
