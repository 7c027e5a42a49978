/**
 * createParallelCrawl and parallelCrawl (contracts/parallel.ts): the parallel options checked by
 * their schema (parallel-request-schema.ts: the CLI's --parts and --model and the form check
 * with it too), the crawls they name found in the workspace, and the crawl's plan written as
 * New crawl writes any crawl (crawl-create.ts) with its options beside it
 * (parallel-files.ts). The run is LiveCrawls' (live-crawls.ts), in cli/parallel-runner.ts.
 */
import { badField } from '../errors.js';
import type * as C from './contract.js';
import { isParallel, readParallelOptions, readProgress, writeParallelOptions } from './parallel-files.js';
import { ParallelOptionsSchema } from './parallel-request-schema.js';
import { checkRequest } from './request-check.js';
import type { Workspace } from './workspace.js';

/** The parallel options checked, the crawls they name found; then `create` writes the plan and its id is returned. */
export async function createParallelCrawlFile(ws: Workspace, raw: C.CreateParallelCrawlRequest, create: (req: C.CreateCrawlRequest) => Promise<string>): Promise<string> {
  const { parallel, ...crawl } = (raw ?? {}) as C.CreateParallelCrawlRequest;
  const options = checkRequest(ParallelOptionsSchema, parallel ?? {}, 'a parallel crawl') as C.ParallelOptions;
  if (options.partition) earlier(ws, options.partition.crawl, 'partition');
  if (options.predictFrom) earlier(ws, options.predictFrom, 'predictFrom');
  const id = await create(crawl);
  writeParallelOptions(ws.path(id), options);
  return id;
}

/** An earlier crawl of the workspace, named at the field that names it. */
function earlier(ws: Workspace, id: string, field: string): void {
  try {
    ws.existing(id);
  } catch (err) {
    throw badField(field, (err as Error).message);
  }
}

export function parallelCrawlOf(ws: Workspace, id: string): C.ParallelCrawlDto | null {
  const path = ws.existing(id);
  if (!isParallel(path)) return null;
  const options = readParallelOptions(path);
  return options ? { crawlId: id, options, progress: readProgress(path) } : null;
}
