/**
 * `partition`: the thesis's experiment (docs/design.md section 6) on any crawl or dataset. For each
 * model and K: gpmetis on the graph models (GP), Zoltan's PHG and, where it is installed,
 * KaHyPar on the hypergraph models (HP, a row each, named by their partitioner), each run with
 * several seeds and scored by evaluate.ts (mean and best run), and the hash baseline beside
 * them at each level (pages: hash of the URL; sites: hash of the host). Asynchronous: the
 * partitioners run as child processes, so a caller (the workbench's engine) keeps serving while
 * they work, sees a progress event per run, and can cancel (the running program is killed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { checkParts, hashAssignment, parsePartVector } from './assignment.js';
import { evaluateAssignment } from './evaluate.js';
import { checkHasLinks } from './export-graph.js';
import { writeHmetis, writeMetis } from './formats.js';
import { linkCount, type LinkGraph } from './link-graph.js';
import { isHypergraph, isSiteModel, vertexCount, type GraphModel } from './models.js';
import { COLUMNS, type Level, type PartitionMetrics, type PartitionProgress, type PartitionReport, type PartitionRow } from './report.js';
import { writeFiles } from './text-sink.js';
import { findGpmetis, findKahypar, findZoltan, runGpmetis, runKahypar, runZoltan, type Tool } from './tools.js';

export type { Level, Method, Partitioner, PartitionProgress, PartitionReport, PartitionRow } from './report.js';

export interface PartitionOptions {
  models: GraphModel[];
  parts: number[];
  /** Seeds per partitioner and K (1..runs). */
  runs: number;
  /** --kahypar. */
  kahypar?: string;
  signal?: AbortSignal;
  onProgress?(p: PartitionProgress): void;
  /** The tools to use instead of looking them up (tests). */
  tools?: PartitionTools;
}

export interface PartitionTools {
  gpmetis: Tool;
  zoltan: Tool;
  kahypar: Tool;
}

/** The partitioners of a model: gpmetis for a graph; Zoltan PHG, and KaHyPar where it is found, for a hypergraph. */
function toolsOf(m: GraphModel, tools: PartitionTools): Tool[] {
  if (!isHypergraph(m)) return [tools.gpmetis];
  // KaHyPar is optional (nothing on Debian installs it): without it, it has no rows at all.
  return tools.kahypar.path !== null ? [tools.zoltan, tools.kahypar] : [tools.zoltan];
}

export const HASH_STATEMENT = '32-bit FNV-1a of the UTF-8 URL (pages) or host name (sites), modulo K';

const levelOf = (m: GraphModel): Level => (isSiteModel(m) ? 'site' : 'page');
const METRIC_KEYS = ['storageImbalance', 'requestImbalance', 'volume', 'messages', 'linksInside', 'sitesSplit'] as const;

function meanOf(runs: PartitionMetrics[]): PartitionMetrics {
  const mean = { ...runs[0]! };
  for (const key of METRIC_KEYS) mean[key] = runs.reduce((s, r) => s + r[key], 0) / runs.length;
  return mean;
}

function checkCancel(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CrawlError(ErrorCodes.CANCELLED, 'partitioning cancelled');
}

export function checkPartitionRequest(g: LinkGraph, models: GraphModel[], parts: number[]): void {
  checkHasLinks(g);
  for (const m of models) for (const k of parts) checkParts(g, m, k);
}

export async function partition(g: LinkGraph, opts: PartitionOptions): Promise<PartitionReport> {
  const t0 = performance.now();
  const models = [...new Set(opts.models)];
  const parts = [...new Set(opts.parts)].sort((a, b) => a - b);
  checkPartitionRequest(g, models, parts);
  const tools = opts.tools ?? { gpmetis: findGpmetis(), zoltan: findZoltan(), kahypar: findKahypar(opts.kahypar) };
  const levels = [...new Set(models.map(levelOf))];
  const runnable = models.flatMap((m) => toolsOf(m, tools).filter((t) => t.path !== null).map((tool) => ({ m, tool })));
  const total = levels.length * parts.length + runnable.length * parts.length * opts.runs;
  let done = 0;
  const progress = (step: string) => opts.onProgress?.({ done: ++done, total, step });
  const rows: PartitionRow[] = [];

  for (const level of levels) {
    const model: GraphModel = level;
    for (const k of parts) {
      const t = performance.now();
      const metrics = evaluateAssignment(g, model, k, hashAssignment(g, model, k));
      rows.push({ level, model, method: 'hash', partitioner: 'hash', parts: k, runs: 1, mean: metrics, best: metrics, seconds: (performance.now() - t) / 1000 });
      progress(`${level} hash K=${k}: volume ${metrics.volume} B, ${metrics.messages} messages`);
      // Lets a serving process answer (and send this progress) between steps.
      await new Promise((resolve) => setImmediate(resolve));
      checkCancel(opts.signal);
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'crawlbench-partition-'));
  try {
    const written = new Set<string>();
    for (const { m, tool } of runnable) {
      checkCancel(opts.signal);
      const hyper = isHypergraph(m);
      const file = join(work, `${m}.${hyper ? 'hgr' : 'graph'}`);
      if (!written.has(file)) writeFiles([file], ([out]) => (hyper ? writeHmetis : writeMetis)(g, m, out!));
      written.add(file);
      for (const k of parts) rows.push(await partitionRuns(g, m, k, file, tool, opts, progress));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return {
    source: g.source,
    pages: g.n,
    links: linkCount(g),
    sites: g.sites.length,
    sizesKnown: g.sizesKnown,
    defaultSize: g.defaultSize,
    models,
    parts,
    runs: opts.runs,
    hash: HASH_STATEMENT,
    tools: [tools.gpmetis, tools.zoltan, tools.kahypar].map((t) => ({ name: t.name, path: t.path, ...(t.missing ? { missing: t.missing } : {}) })),
    rows,
    seconds: (performance.now() - t0) / 1000,
  };
}

const RUN = { gpmetis: runGpmetis, 'Zoltan PHG': runZoltan, KaHyPar: runKahypar } as const;

/** One model at one K with one partitioner: a run per seed, each part vector scored. */
async function partitionRuns(g: LinkGraph, m: GraphModel, k: number, file: string, tool: Tool, opts: PartitionOptions, progress: (step: string) => void): Promise<PartitionRow> {
  const hyper = isHypergraph(m);
  const partitioner = tool.name;
  const { method, name } = COLUMNS[partitioner];
  const n = vertexCount(g, m);
  const results: PartitionMetrics[] = [];
  let error: string | undefined;
  const t = performance.now();
  for (let seed = 1; seed <= opts.runs; seed++) {
    checkCancel(opts.signal);
    try {
      const out = await RUN[partitioner](tool, file, k, seed, opts.signal);
      const vector = parsePartVector(readFileSync(out, 'utf8'), n, k, out);
      rmSync(out, { force: true });
      const metrics = evaluateAssignment(g, m, k, vector);
      results.push(metrics);
      progress(`${m} ${name} K=${k} run ${seed}/${opts.runs}: volume ${metrics.volume} B, ${metrics.messages} messages`);
    } catch (err) {
      if (err instanceof CrawlError && err.code === ErrorCodes.CANCELLED) throw err;
      error = (err as Error).message;
      progress(`${m} ${name} K=${k} run ${seed}/${opts.runs} failed: ${error}`);
    }
  }
  const seconds = (performance.now() - t) / 1000;
  if (results.length === 0) {
    return { level: levelOf(m), model: m, method, partitioner, parts: k, runs: 0, mean: null, best: null, seconds, error };
  }
  const objective = (r: PartitionMetrics) => (hyper ? r.messages : r.volume);
  const best = results.reduce((a, b) => (objective(b) < objective(a) ? b : a));
  return { level: levelOf(m), model: m, method, partitioner, parts: k, runs: results.length, mean: meanOf(results), best, seconds, ...(error ? { error } : {}) };
}
