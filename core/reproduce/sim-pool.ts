/**
 * `reproduce`'s simulation threads: one a core (at most two: the project's machine has two), so
 * the simulations of a step run side by side, each one the simulator's own simulate() as
 * `crawlbench simulate` runs it. A thread keeps the graphs it prepared and its runs
 * (sim-worker.ts); a job whose run a thread already holds waits for that thread rather than
 * being computed again on the other, and an idle thread takes first a job on a graph it holds.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import type { SimJob, SimWorkerMessage } from './sim-worker.js';

interface Pending {
  id: number;
  job: SimJob;
  /** The run it asks for (graph, policy, settings), or null: nothing to reuse. */
  key: string | null;
  log: (m: string) => void;
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  busy: Pending | null;
  keys: Set<string>;
  graphs: string[];
}

const graphOf = (job: SimJob) => (job.kind === 'simulate' ? job.options.graph : job.graph);
/** The thread has the job's run: it made it, and still keeps its graph (a thread keeps two). */
const holds = (t: Thread, p: Pending) => p.key !== null && t.keys.has(p.key) && t.graphs.includes(graphOf(p.job));

export class SimPool {
  private threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private next = 1;

  constructor(private readonly size = Math.max(1, Math.min(2, availableParallelism()))) {}

  run<T>(job: SimJob, key: string | null, log: (m: string) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.next++, job, key, log, resolve: resolve as (r: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Ends the threads (and what they hold); the pool starts new ones if asked again. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private start(): Thread {
    const worker = new Worker(new URL('./sim-worker.js', import.meta.url));
    const t: Thread = { worker, busy: null, keys: new Set(), graphs: [] };
    worker.on('message', (m: SimWorkerMessage) => this.message(t, m));
    worker.on('error', (err) => this.fail(t, err));
    this.threads.push(t);
    return t;
  }

  private message(t: Thread, m: SimWorkerMessage): void {
    const p = t.busy;
    if (!p || p.id !== m.id) return;
    if (m.type === 'log') return p.log(m.message);
    t.busy = null;
    if (m.type === 'done') p.resolve(m.result);
    else p.reject(new CrawlError((m.error.code as ErrorCode | undefined) ?? ErrorCodes.INTERNAL, m.error.message, m.error.field ? { field: m.error.field } : undefined));
    this.dispatch();
  }

  private fail(t: Thread, err: Error): void {
    t.busy?.reject(err);
    this.threads = this.threads.filter((x) => x !== t);
    this.dispatch();
  }

  /** Gives each idle thread a job: one whose run it holds, else one on a graph it holds, else the first no other thread holds. */
  private dispatch(): void {
    while (this.threads.length < this.size && this.queue.length > this.threads.filter((t) => !t.busy).length) this.start();
    for (const t of this.threads) {
      if (t.busy || this.queue.length === 0) continue;
      const heldElsewhere = (p: Pending) => this.threads.some((o) => o !== t && holds(o, p));
      const pick =
        this.queue.find((p) => holds(t, p)) ??
        this.queue.find((p) => !heldElsewhere(p) && t.graphs.includes(graphOf(p.job))) ??
        this.queue.find((p) => !heldElsewhere(p));
      if (!pick) continue;
      this.queue.splice(this.queue.indexOf(pick), 1);
      t.busy = pick;
      if (pick.key !== null) t.keys.add(pick.key);
      const g = graphOf(pick.job);
      t.graphs = [g, ...t.graphs.filter((x) => x !== g)].slice(0, 2);
      t.worker.postMessage({ id: pick.id, job: pick.job });
    }
  }
}
