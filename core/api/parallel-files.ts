/**
 * Where a parallel crawl of the workspace keeps its things (issue 25), beside NAME.db:
 *
 * - NAME.parallel.json: its options (contracts/parallel.ts); a crawl with it is a parallel one.
 * - NAME.db: until the crawl ends, the plan: the settings New crawl checked and wrote, and the
 *   state of its runs (running, paused, interrupted) as for any crawl; the merged crawl then
 *   takes its place, so Results, Sites, Compare and Export read it as any other.
 * - NAME.parallel/: the coordinator's crawl (NAME.parallel/NAME.db is where it merges, its
 *   parts in NAME.parallel/NAME.parts with the embedded broker's JetStream storage), and
 *   progress.json, the latest figures of the workers.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Crawler, END_REASON, type EndReason } from '../engine/crawler.js';
import { CrawlStore } from '../store/crawl-store.js';
import { mergeParts } from '../store/merge-parts.js';
import type { ParallelOptions, ParallelProgressEvent } from './contract.js';

const id = (dbPath: string) => basename(dbPath, '.db');

export const parallelSidecar = (dbPath: string): string => join(dirname(dbPath), `${id(dbPath)}.parallel.json`);
/** The coordinator's folder. */
export const parallelDir = (dbPath: string): string => join(dirname(dbPath), `${id(dbPath)}.parallel`);
/** Where the coordinator merges the parts (moved over NAME.db once complete). */
export const mergedPath = (dbPath: string): string => join(parallelDir(dbPath), `${id(dbPath)}.db`);
/** The workers' crawl databases (core/parallel/coordinator.ts partsDir of mergedPath). */
export const partsPath = (dbPath: string): string => join(parallelDir(dbPath), `${id(dbPath)}.parts`);
const progressFile = (dbPath: string) => join(parallelDir(dbPath), 'progress.json');

export function isParallel(dbPath: string): boolean {
  return existsSync(parallelSidecar(dbPath));
}

export function writeParallelOptions(dbPath: string, options: ParallelOptions): void {
  writeFileSync(parallelSidecar(dbPath), JSON.stringify(options) + '\n');
}

export function readParallelOptions(dbPath: string): ParallelOptions | null {
  try {
    return JSON.parse(readFileSync(parallelSidecar(dbPath), 'utf8')) as ParallelOptions;
  } catch {
    return null;
  }
}

/** The latest figures, written whole (a reader never sees half a file). */
export function writeProgress(dbPath: string, e: ParallelProgressEvent): void {
  const file = progressFile(dbPath);
  writeFileSync(`${file}.tmp`, JSON.stringify(e));
  renameSync(`${file}.tmp`, file);
}

export function readProgress(dbPath: string): ParallelProgressEvent | null {
  try {
    return JSON.parse(readFileSync(progressFile(dbPath), 'utf8')) as ParallelProgressEvent;
  } catch {
    return null;
  }
}

/**
 * The merged crawl takes the plan's place as NAME.db (one rename: a reader sees the one or the
 * other), its stored content (NAME.db.content, --store-content) first.
 */
export function placeMerged(dbPath: string): void {
  const merged = mergedPath(dbPath);
  for (const f of [`${dbPath}-wal`, `${dbPath}-shm`]) rmSync(f, { force: true });
  for (const suffix of ['-wal', '-shm']) if (existsSync(merged + suffix)) renameSync(merged + suffix, dbPath + suffix);
  if (existsSync(`${merged}.content`)) {
    rmSync(`${dbPath}.content`, { recursive: true, force: true });
    renameSync(`${merged}.content`, `${dbPath}.content`);
  }
  renameSync(merged, dbPath);
}

/**
 * Stopped for good before its end (the user's Stop): the parts as they are merged into NAME.db,
 * recorded as stopped (its read indexes built), as a crawl of one process is.
 */
export function mergeStopped(dbPath: string): void {
  if (existsSync(partsPath(dbPath))) {
    const plan = CrawlStore.open(dbPath, { readonly: true });
    const settings = plan.settings();
    plan.close();
    mergeParts(partsPath(dbPath), mergedPath(dbPath), { settings, force: true });
    placeMerged(dbPath);
  }
  Crawler.stopStored(dbPath);
}

/**
 * The plan's state as a run begins ('running': a runner killed leaves it so, and the crawl reads
 * as interrupted) or pauses (with why), as a crawl of one process records its runs.
 */
export function markPlan(dbPath: string, state: 'running' | 'paused', reason?: EndReason): void {
  const store = CrawlStore.open(dbPath);
  try {
    store.begin();
    store.setState(state);
    if (reason) store.setMeta(END_REASON, JSON.stringify(reason));
    store.commit();
  } finally {
    store.close();
  }
}
