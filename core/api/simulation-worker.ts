/**
 * The body of a simulation's worker thread (simulation-jobs.ts starts it): the simulator is
 * synchronous and CPU-bound for seconds to hours, so it runs here and the engine's thread keeps
 * answering. It posts progress (at most every 100 ms, or at every tick when throttled for a
 * test) and then the report or the error; it writes no file (the engine does, once the report
 * is complete, so that ending this thread mid-way leaves nothing behind).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { simulate, type SimulateOptions } from '../simulator/simulate.js';

export interface SimulationWorkerData {
  options: Omit<SimulateOptions, 'onProgress' | 'onPolicyProgress'>;
  /** Sleep this long after each progress message (tests hold a run mid-way with it). */
  throttleMs: number;
}

export type SimulationWorkerMessage =
  | { type: 'progress'; step: string; done: number; total: number }
  | { type: 'done'; report: unknown }
  | { type: 'error'; error: { name: string; code: string; message: string; field?: string } };

const data = workerData as SimulationWorkerData;
const post = (m: SimulationWorkerMessage) => parentPort!.postMessage(m);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
let last = 0;

function progress(step: string, done: number, total: number, force = false): void {
  const now = performance.now();
  if (!force && data.throttleMs <= 0 && now - last < 100) return;
  last = now;
  post({ type: 'progress', step, done, total });
  if (data.throttleMs > 0) Atomics.wait(sleeper, 0, 0, data.throttleMs);
}

try {
  progress('reading the graph', 0, 0, true);
  const report = simulate({
    ...data.options,
    onPolicyProgress: (e) => {
      const total = e.count * Math.max(1, e.pages);
      const done = e.index * Math.max(1, e.pages) + Math.min(e.fetched, e.pages);
      progress(`${e.policy} (policy ${e.index + 1} of ${e.count}): ${e.fetched} of ${e.pages} pages`, done, total, e.fetched === 0);
    },
  });
  // As `--json` prints it: Infinity (unlimited bandwidth) and NaN become null.
  post({ type: 'done', report: JSON.parse(JSON.stringify(report)) });
} catch (err) {
  const e = err as { name?: string; code?: string; message?: string; field?: string };
  post({ type: 'error', error: { name: e.name ?? 'Error', code: e.code ?? 'CRAWL_INTERNAL', message: e.message ?? String(err), ...(e.field ? { field: e.field } : {}) } });
}
