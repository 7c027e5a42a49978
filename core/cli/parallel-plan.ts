/**
 * The workbench's parallel options (contracts/parallel.ts) made into what the coordinator takes:
 * the part vector of an assignment 'partition' (the earlier crawl's graph written as the
 * Partition view's export writes it, partitioned by gpmetis or Zoltan PHG for this K with seed
 * 1, read through its id map as `--assign FILE --ids MAP` reads it), and partition-eval's
 * prediction of the exchange on that crawl's graph for the same assignment.
 */
import { join } from 'node:path';
import type { ExchangePrediction, ParallelOptions } from '../api/contract.js';
import type { CrawlSettings } from '../config/settings.js';
import { exportGraph, idMapPath } from '../graph/export-graph.js';
import { loadLinkGraph } from '../graph/link-graph.js';
import { findGpmetis, findZoltan, runGpmetis, runZoltan } from '../graph/tools.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { Assignment, readAssignmentFile, type PartVector } from '../parallel/assignment.js';
import { predictExchange } from '../parallel/prediction.js';
import { makeFolders } from '../folders.js';

export interface ParallelPlan {
  vector: PartVector | null;
  prediction: ExchangePrediction | null;
}

/** `crawlPath`: a crawl of the workspace by id; `work`: a folder for the graph and its vector. */
export async function parallelPlan(o: ParallelOptions, settings: CrawlSettings, crawlPath: (id: string) => string, work: string, signal?: AbortSignal): Promise<ParallelPlan> {
  const vector = o.assign === 'partition' && o.partition ? await partitionVector(o, crawlPath(o.partition.crawl), work, signal) : null;
  const from = o.predictFrom ?? o.partition?.crawl;
  if (!from) return { vector, prediction: null };
  const p = predictExchange(crawlPath(from), new Assignment(o.parts, o.model, settings.siteKey, vector));
  return { vector, prediction: { crawl: from, messages: p.messages, volume: p.volume, pages: p.pages } };
}

async function partitionVector(o: ParallelOptions, earlier: string, work: string, signal?: AbortSignal): Promise<PartVector> {
  const hyper = o.partition!.partitioner === 'Zoltan PHG';
  const tool = hyper ? findZoltan() : findGpmetis();
  if (!tool.path) throw new CrawlError(ErrorCodes.TOOL_MISSING, `${tool.name}: ${tool.missing ?? 'not installed'}`);
  makeFolders(work);
  const out = join(work, `${o.model}.${hyper ? 'hgr' : 'graph'}`);
  const g = loadLinkGraph(earlier);
  try {
    exportGraph(g, { model: hyper ? `${o.model}-hypergraph` : o.model, format: hyper ? 'hmetis' : 'metis', out, force: true });
  } finally {
    g.close();
  }
  const file = await (hyper ? runZoltan : runGpmetis)(tool, out, o.parts, 1, signal);
  return readAssignmentFile(file, idMapPath(out), o.parts, o.model);
}
