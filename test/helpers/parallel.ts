/**
 * The parallel crawl's tests (test/parallel/): the built `crawlbench crawl --parts K ...` run as
 * a child process, the processes it names in NAME.parts/coordinator.json, and a crawl's fetched
 * URLs read straight from its database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedBroker, findNatsServer } from '../../core/parallel/broker.js';
import { commandLine } from '../../core/parallel/stale-run.js';
import { generateWeb } from '../../core/testweb/generator.js';
import type { TestWebServer } from '../../core/testweb/server.js';
import { seedUrls, type Web } from '../../core/testweb/web.js';
import { fetchedUrls, sqlRows } from './crawl-db.js';
import { beforeAll, expect } from 'vitest';
import { BIN, crawlbench, type RunResult } from './run.js';
import { serve } from './web.js';

export interface ParallelSummaryJson {
  merge: { pagesFetched: number; fetchedTwice: number; workers: { part: number; pagesFetched: number }[]; exchange: { direction: string; messages: number }[] };
  measured: { messages: number; volume: number };
  prediction: { messages: number; volume: number } | null;
  workerRestarts: number;
  brokerRestarts: number;
}

export { fetchedUrls } from './crawl-db.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The kinds of a crawl database's events (start, pause, finish, ...), in order. */
export function eventKinds(db: string): string[] {
  return sqlRows<{ kind: string }>(db, 'SELECT kind FROM events ORDER BY id').map((e) => e.kind);
}

/**
 * The parallel tests' web, served on 127.0.0.1 for the rest of the file: `pages` pages on 24
 * sites with a latency, so that a crawl lasts long enough for a fault; its seed file in `dir`,
 * and the crawl flags every crawl of it takes.
 */
/** The parallel tests' web of 24 sites; `latencyMs` caps each site's answer time (a fault test's crawl must outlast its faults). */
export async function parallelTestWeb(dir: string, pages: number, latencyMs = 5): Promise<{ web: Web; server: TestWebServer; port: number; seeds: string; flags: string[] }> {
  const web = generateWeb({ seed: 25, sites: 24, pages, latency: { maxMs: latencyMs } });
  const { server, port } = await serve(web);
  const seeds = join(dir, 'seeds.txt');
  writeFileSync(seeds, seedUrls(web, port).join('\n') + '\n');
  const flags = ['--seeds', seeds, '--resolve', '*.demo=127.0.0.1', '--w', '0', '--r', '8', '--retry-base', '200ms', '--quiet'];
  return { web, server, port, seeds, flags };
}

export interface StartedCrawl {
  child: ChildProcess;
  /** The coordinator process has exited. */
  exited: Promise<void>;
  /** Its output has closed too: every process that shares it (its workers) has ended. */
  done: Promise<RunResult>;
}

/**
 * Starts `crawlbench crawl --db DB ARGS` (a crawl that does not end within 100 s is interrupted: it pauses, and the test says what it printed).
 * Each worker writes through a writer thread, whatever this machine's share of cores per worker
 * would choose (engine/thread-plan.ts): it acknowledges exchanged URLs once their batch commits.
 */
export function startCrawl(db: string, args: string[]): StartedCrawl {
  const env = { ...process.env, CRAWLBENCH_WRITER: '1' };
  const child = spawn(process.execPath, [BIN, 'crawl', '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b));
  child.stderr!.on('data', (b: Buffer) => (stderr += b));
  const guard = setTimeout(() => child.kill('SIGINT'), 100_000);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, exited, done };
}

/** Runs `crawlbench crawl --db DB ARGS` to its end; `during` runs while it crawls, given NAME.parts. */
export function parallelCrawl(db: string, args: string[], during?: (partsDir: string) => Promise<void>): Promise<RunResult> {
  const { done } = startCrawl(db, args);
  if (!during) return done;
  return new Promise((resolve, reject) => {
    during(db.replace(/\.db$/, '.parts')).catch(reject);
    done.then(resolve, reject);
  });
}

/** The crawl's processes once the coordinator (any, or process `coordinator`) has written them (coordinator.json) with its `workers` workers. */
export async function processes(partsDir: string, workers = 4, coordinator?: number): Promise<{ pid: number; brokerPid: number; workers: number[] }> {
  const file = join(partsDir, 'coordinator.json');
  for (let i = 0; i < 200; i++) {
    if (existsSync(file)) {
      const p = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; brokerPid: number; workers: number[] };
      if (p.workers.length === workers && (coordinator === undefined || p.pid === coordinator)) return p;
    }
    await sleep(100);
  }
  throw new Error('the coordinator wrote no coordinator.json');
}

/** Waits until every part database of NAME.parts exists (each worker has begun its part). */
export async function partsBegun(partsDir: string, k: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (Array.from({ length: k }, (_, p) => join(partsDir, `part-${p}.db`)).every((f) => existsSync(f))) return;
    await sleep(100);
  }
  throw new Error(`not every part of ${partsDir} began`);
}

/**
 * Kills what a crawl of NAME.parts left running (its coordinator.json: the coordinator, its
 * nats-server, its workers), each only while its command line still names this crawl's folder
 * or crawlbench: a test that fails between a kill and the restart leaves no orphan behind.
 */
export function killLeftovers(partsDir: string): void {
  const file = join(partsDir, 'coordinator.json');
  if (!existsSync(file)) return;
  const p = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; brokerPid: number | null; workers: number[] };
  for (const pid of [p.pid, ...p.workers, p.brokerPid]) {
    if (pid === null || !/crawlbench|nats-server/.test(commandLine(pid) ?? '')) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}


/** Resolves with `p`, or rejects after `ms` saying what did not happen. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`${what} within ${ms / 1000} s`)))]);
}

/** Runs `fn` with a nats-server of its own keeping its store in `store` (a broker the crawl is given with --broker), stopped after. */
export async function withBroker<T>(store: string, fn: (broker: EmbeddedBroker) => Promise<T>): Promise<T> {
  const broker = await EmbeddedBroker.start(findNatsServer(), store, null, () => {});
  try {
    return await fn(broker);
  } finally {
    await broker.stop();
  }
}

/**
 * Crawls the web once in a single process (`flags`, into `db`) before a file's tests: the pages
 * every parallel crawl of it must fetch. The function returned gives them once it has run.
 * `server`'s latencies are off meanwhile: they make a parallel crawl last long enough for its
 * faults, and change no page the crawl fetches (the test web answers the same, only sooner).
 */
export function singleCrawlTruth(db: string, flags: string[], atLeast: number, server?: TestWebServer): () => string[] {
  let truth: string[] = [];
  beforeAll(async () => {
    const r = await withoutLatency(server, () => crawlbench(['crawl', '--db', db, ...flags]));
    expect(r.code, r.stderr).toBe(0);
    truth = fetchedUrls(db);
    expect(truth.length).toBeGreaterThan(atLeast);
  }, 120_000);
  return () => truth;
}

/** Runs `fn` with `server` answering without its latencies, then puts them back. */
export async function withoutLatency<T>(server: TestWebServer | undefined, fn: () => Promise<T>): Promise<T> {
  const before = server?.setTimeFactor(0);
  try {
    return await fn();
  } finally {
    if (before !== undefined) server?.setTimeFactor(before);
  }
}
