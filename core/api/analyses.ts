/**
 * PageRank and the evaluation are imported statically (so that bundles, e.g. Electron's
 * engine host, include them); export arrives with the export issue and until then the API
 * reports a clear error for it.
 */
import { CrawlError, ErrorCodes } from '../errors.js';
import { evaluateCrawl } from '../ranking/evaluate.js';
import { rankCrawl } from '../ranking/rank-crawl.js';
import { openDatabase, type Db } from '../store/database.js';
import type { AnalysisResult } from './contract.js';

type Fn = (dbPath: string, opts?: Record<string, unknown>) => unknown;

async function load(module: string, names: string[]): Promise<Fn | null> {
  try {
    const mod = (await import(module)) as Record<string, unknown>;
    for (const n of names) if (typeof mod[n] === 'function') return mod[n] as Fn;
  } catch {
    /* not there yet */
  }
  return null;
}

function notAvailable(what: string): CrawlError {
  return new CrawlError(ErrorCodes.INTERNAL, `${what} is not available yet in this build of crawlbench`);
}

/** Computes and stores PageRank (page and site level) in the crawl file; needs the writer's lock. */
export async function runPageRankOn(dbPath: string): Promise<AnalysisResult> {
  const { db, release } = openDatabase(dbPath);
  try {
    return toJson(rankCrawl(db, {}));
  } finally {
    release();
  }
}

export async function runEvaluationOn(dbPath: string, opts: Record<string, unknown>): Promise<AnalysisResult> {
  return toJson(evaluateCrawl(dbPath, opts));
}

export async function startExportOf(dbPath: string, opts: Record<string, unknown>): Promise<AnalysisResult> {
  const fn = await load('../export/export.js', ['exportCrawl']);
  if (!fn) throw notAvailable('export (it arrives with the export issue)');
  return toJson(await fn(dbPath, opts));
}

/** Results cross transports as JSON: Maps become objects, typed arrays become arrays. */
function toJson(v: unknown): AnalysisResult {
  const json = JSON.stringify(v ?? {}, (_k, x: unknown) =>
    x instanceof Map ? Object.fromEntries(x) : ArrayBuffer.isView(x) ? Array.from(x as unknown as ArrayLike<number>) : x,
  );
  const parsed = JSON.parse(json) as unknown;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as AnalysisResult) : { value: parsed };
}
