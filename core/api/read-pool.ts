/**
 * A few worker threads (read-worker.ts) that answer the Sites and Pages views' reads, so that
 * the thread serving the workbench's calls never holds its event loop for a query: on a crawl
 * of 50,000 sites a Sites page is tens of milliseconds of SQLite, which ran on that thread
 * before (bench/server-load, docs/performance.md). Reads queue in order and go to the first
 * idle worker; workers start on the first read and end after a while with nothing to do.
 *
 * Why not a pool library (piscina, tinypool): both start their workers through a script of
 * their own package, which the Electron host's one-file bundles (electron/build.mjs) do not
 * carry; this pool starts a bundled worker file as worker-jobs.ts does, and is small.
 *
 * Run from source without a build (some tests), a read runs on the calling thread instead.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { badField } from '../errors.js';
import { fromReadError, readLost, runCrawlRead, type CrawlRead, type CrawlReadResults } from './crawl-reads.js';
import type { ReadWorkerAnswer, ReadWorkerRequest } from './read-worker.js';

/** The worker's compiled file: beside this one in dist/, or dist/'s when this runs from source (tests). */
export function defaultReadWorker(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/api/read-worker.js', here) : new URL('./read-worker.js', here));
}

export interface ReadPoolOptions {
  /** The worker's compiled file (Electron's bundle passes its own). */
  workerFile?: string;
  /** Worker threads at most; default 2 (or 1 on one core). */
  threads?: number;
  /** A worker with nothing to do for this long ends (default 60 s); the next read starts one again. */
  idleMs?: number;
}

interface Task {
  id: number;
  read: CrawlRead;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  idleTimer: NodeJS.Timeout | null;
}

export class ReadPool {
  private readonly file: string;
  private readonly threads: number;
  private readonly idleMs: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  /** Reads queued or under way, by crawl file: what deleting a crawl waits for. */
  private readonly pending = new Map<string, Set<Promise<unknown>>>();
  private nextId = 1;
  private closed = false;

  constructor(opts: ReadPoolOptions = {}) {
    this.file = opts.workerFile ?? defaultReadWorker();
    this.threads = Math.max(1, opts.threads ?? Math.min(2, availableParallelism()));
    this.idleMs = opts.idleMs ?? 60_000;
  }

  run<W extends CrawlRead['what']>(read: Extract<CrawlRead, { what: W }>): Promise<CrawlReadResults[W]> {
    if (this.closed) return Promise.reject(readLost(read.what, 'the engine is closing'));
    const p = existsSync(this.file)
      ? new Promise<unknown>((resolve, reject) => {
          this.queue.push({ id: this.nextId++, read, resolve, reject });
          this.dispatch();
        })
      : Promise.resolve().then((): unknown => runCrawlRead<CrawlRead>(read));
    const set = this.pending.get(read.path) ?? new Set();
    this.pending.set(read.path, set.add(p));
    const done = () => {
      set.delete(p);
      if (set.size === 0 && this.pending.get(read.path) === set) this.pending.delete(read.path);
    };
    p.then(done, done);
    return p as Promise<CrawlReadResults[W]>;
  }

  /** Resolves once no read of this crawl file is queued or under way (each closes its file before answering). */
  async settled(path: string): Promise<void> {
    for (let set = this.pending.get(path); set; set = this.pending.get(path)) await Promise.allSettled([...set]);
  }

  /** Ends every worker; reads still queued or under way fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(readLost(t.read.what, 'the engine is closing'));
    await Promise.all([...this.slots].map((s) => this.end(s)));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => s.task === null);
      if (!slot && this.slots.size < this.threads) slot = this.start();
      if (!slot) return;
      this.give(slot, this.queue.shift()!);
    }
  }

  private give(slot: Slot, task: Task): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    try {
      slot.worker.postMessage({ id: task.id, read: task.read } satisfies ReadWorkerRequest);
    } catch (err) {
      // Arguments a structured clone refuses (a function, say) come only from callers in this process.
      task.reject(badField(task.read.what === 'page' ? 'links' : 'query', `must be plain data (${(err as Error).message})`));
      return this.idle(slot);
    }
    slot.task = task;
    slot.worker.ref();
  }

  private idle(slot: Slot): void {
    slot.task = null;
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void this.end(slot), this.idleMs).unref();
  }

  private start(): Slot {
    const slot: Slot = { worker: new Worker(this.file), task: null, idleTimer: null };
    this.slots.add(slot);
    slot.worker.on('message', (m: ReadWorkerAnswer) => {
      const task = slot.task;
      if (!task || task.id !== m.id) return;
      if ('error' in m) task.reject(fromReadError(m.error));
      else task.resolve(m.result);
      this.idle(slot);
      this.dispatch();
    });
    const lost = (why: string) => {
      if (!this.slots.delete(slot)) return;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.task?.reject(readLost(slot.task.read.what, why));
      slot.task = null;
      if (!this.closed) this.dispatch();
    };
    slot.worker.on('error', (err) => lost(err.message));
    slot.worker.on('exit', (code) => lost(`exit code ${code}`));
    return slot;
  }

  private async end(slot: Slot): Promise<void> {
    if (slot.task !== null && !this.closed) return; // busy again since its timer was set
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.slots.delete(slot);
    slot.task?.reject(readLost(slot.task.read.what, 'the engine is closing'));
    slot.task = null;
    await slot.worker.terminate();
  }
}
