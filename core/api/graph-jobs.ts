/**
 * The workbench's partitionings and graph exports of the workspace's crawls (issue 17): a
 * partitioning runs in this process with the partitioners as child processes, reports each
 * finished run as a partitionProgress event, and is cancelled by its job id (the running
 * partitioner is killed). Graph files go to WORKSPACE/exports/graph-CRAWL/, the folder the
 * browser server offers for download (/exports/...), written over by a later export of the same
 * model and format.
 */
import { mkdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { CrawlError, badField } from '../errors.js';
import { exportGraph, idMapPath } from '../graph/export-graph.js';
import { loadLinkGraph, type LinkGraph } from '../graph/link-graph.js';
import { checkPartitionRequest, partition } from '../graph/partition.js';
import { FORMATS, MODELS, type GraphFormat, type GraphModel, type PartitionReport } from '../graph/report.js';
import type { GraphExportDto, GraphExportRequest, PartitionProgressEvent, PartitionRequest } from './contract.js';

/** File name endings of each format. */
const EXTENSION: Record<GraphFormat, string> = { metis: 'graph', hmetis: 'hgr', patoh: 'patoh', edgelist: 'tsv', graphml: 'graphml' };
const MAX_RUNS = 20;
const MAX_PARTS = 4096;

export class GraphJobs {
  private readonly running = new Map<string, AbortController>();
  private jobs = 0;

  constructor(
    /** WORKSPACE/exports. */
    private readonly exportsDir: string,
    private readonly emit: (e: PartitionProgressEvent) => void,
  ) {}

  async partition(crawlId: string, dbPath: string, raw: PartitionRequest): Promise<PartitionReport> {
    const req = parsePartitionRequest(raw);
    const jobId = req.jobId ?? `partition-${++this.jobs}`;
    if (this.running.has(jobId)) throw badField('jobId', `a partitioning with job id ${jobId} is already running`);
    const controller = new AbortController();
    this.running.set(jobId, controller);
    let g: LinkGraph | null = null;
    try {
      g = loadLinkGraph(dbPath);
      try {
        checkPartitionRequest(g, req.models, req.parts);
      } catch (err) {
        // The same refusal, at the form's field.
        if (err instanceof CrawlError && err.message.startsWith('--parts:')) throw badField('parts', err.message.slice(9));
        throw err;
      }
      const graph = g;
      return await partition(graph, { models: req.models, parts: req.parts, runs: req.runs, signal: controller.signal, onProgress: (p) => this.emit({ jobId, crawlId, ...p }) });
    } finally {
      g?.close();
      this.running.delete(jobId);
    }
  }

  async cancel(jobId: string): Promise<void> {
    this.running.get(String(jobId))?.abort();
  }

  async exportGraph(crawlId: string, dbPath: string, raw: GraphExportRequest): Promise<GraphExportDto> {
    const model = oneOf(raw?.model, MODELS, 'model');
    const format = oneOf(raw?.format, FORMATS, 'format');
    const folder = join(this.exportsDir, `graph-${crawlId}`);
    mkdirSync(folder, { recursive: true });
    const out = join(folder, `${model}.${EXTENSION[format]}`);
    const g = loadLinkGraph(dbPath);
    try {
      const r = exportGraph(g, { model, format, out, force: true });
      const files = [out, idMapPath(out)].map((path) => ({ name: basename(path), bytes: statSync(path).size, path, href: this.href(path) }));
      return { model, format, vertices: r.vertices, edges: r.edges, sizeUnit: r.sizeUnit, files };
    } finally {
      g.close();
    }
  }

  /** Cancels every partitioning under way. */
  close(): void {
    for (const c of this.running.values()) c.abort();
  }

  /** The download address under the exports folder (browser-server.ts serves /exports/...). */
  private href(path: string): string {
    return '/exports/' + relative(this.exportsDir, path).split(sep).map(encodeURIComponent).join('/');
  }
}

export function oneOf<T extends string>(v: unknown, choices: readonly T[], field: string): T {
  const c = choices.find((x) => x === v);
  if (c === undefined) throw badField(field, `"${String(v)}" is not one of ${choices.join(', ')}`);
  return c;
}

export function parsePartitionRequest(raw: PartitionRequest): { jobId?: string; models: GraphModel[]; parts: number[]; runs: number } {
  const r = raw ?? ({} as PartitionRequest);
  if (!Array.isArray(r.models) || r.models.length === 0) throw badField('models', `choose at least one model (${MODELS.join(', ')})`);
  const models = [...new Set(r.models.map((m) => oneOf(m, MODELS, 'models')))];
  if (!Array.isArray(r.parts) || r.parts.length === 0) throw badField('parts', 'choose at least one number of processors K');
  const parts = [...new Set(r.parts)].map((k) => {
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 2 || k > MAX_PARTS) throw badField('parts', `${String(k)} is not a number of processors in 2..${MAX_PARTS}`);
    return k;
  });
  const runs = r.runs ?? 4;
  if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1 || runs > MAX_RUNS) throw badField('runs', `${String(runs)} is not a number of runs in 1..${MAX_RUNS}`);
  if (r.jobId !== undefined && (typeof r.jobId !== 'string' || !/^[\w.-]{1,100}$/.test(r.jobId))) throw badField('jobId', 'letters, digits, . _ - (at most 100)');
  return { ...(r.jobId !== undefined ? { jobId: r.jobId } : {}), models, parts: parts.sort((a, b) => a - b), runs };
}
