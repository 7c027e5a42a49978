/**
 * The body of one of `reproduce`'s simulation threads (sim-pool.ts starts them, one a core):
 * it runs the jobs it is sent one after another with the simulator's own simulate() and
 * speedupGrid(), keeping the last two graphs it prepared and every run on them, so a run asked
 * again (Table 4.1's r = 1 runs in Figure 4.7, one order under two of Cho's measures) is not
 * computed twice.
 */
import { parentPort } from 'node:worker_threads';
import { historyFor, preparedFor, simulate, type SimulateOptions, type SimulationReuse } from '../simulator/simulate.js';
import { speedupGrid } from '../simulator/speedup.js';
import { oneSiteGraph } from './cho-one-site.js';

export type SimJob =
  | {
      kind: 'simulate';
      options: Omit<SimulateOptions, 'onProgress' | 'onPolicyProgress' | 'reuse'>;
      /** 'middle-batch': the active-robot series of the middle batch only (a crawl in batches has thousands). */
      series?: 'middle-batch';
    }
  | { kind: 'grid'; graph: string; policy: string; grid: { r: number[]; c: number[]; bandwidth: number[] }; options: Omit<SimulateOptions, 'graph' | 'policies' | 'r' | 'c' | 'bandwidth' | 'reuse'> }
  | { kind: 'pages'; graph: string }
  | { kind: 'one-site'; graph: string; dir: string; pages: number };

export type SimWorkerMessage = { id: number; type: 'log'; message: string } | { id: number; type: 'done'; result: unknown } | { id: number; type: 'error'; error: { message: string; code?: string; field?: string } };

const KEEP = 2;
const reuses = new Map<string, SimulationReuse>();

/** The reuse of a graph, the least recently used one let go beyond two. */
function reuseOf(graph: string): SimulationReuse {
  let r = reuses.get(graph);
  if (r) reuses.delete(graph);
  else r = { key: null, prepared: null, runs: new Map() };
  reuses.set(graph, r);
  while (reuses.size > KEEP) reuses.delete(reuses.keys().next().value!);
  return r;
}

function run(job: SimJob, log: (m: string) => void): unknown {
  if (job.kind === 'simulate') {
    const report = simulate({ ...job.options, onProgress: log, reuse: reuseOf(job.options.graph) });
    if (job.series !== 'middle-batch') return report;
    const none = { t: [], active: [] };
    return { ...report, policies: report.policies.map((p) => ({ ...p, batches: p.batches?.map((b) => (b.index === p.middleBatch ? b : { ...b, activeRobots: none })) ?? null })) };
  }
  const reuse = reuseOf(job.graph);
  const p = preparedFor({ graph: job.graph, seeds: job.kind === 'grid' ? job.options.seeds : undefined, siteKey: job.kind === 'grid' ? job.options.siteKey : undefined, reuse });
  if (job.kind === 'pages') return p.g.n;
  if (job.kind === 'one-site') return oneSiteGraph(p.g, job.dir, job.pages);
  const { history, historySource } = historyFor([job.policy], job.options, p);
  return speedupGrid(p, job.policy, job.grid, job.options, (cell) => log(`  r=${cell.r} B=${cell.bandwidth}: x${cell.speedup.toFixed(1)}`), history, historySource);
}

parentPort!.on('message', ({ id, job }: { id: number; job: SimJob }) => {
  const post = (m: SimWorkerMessage) => parentPort!.postMessage(m);
  try {
    post({ id, type: 'done', result: run(job, (message) => post({ id, type: 'log', message })) });
  } catch (err) {
    const e = err as { message?: string; code?: string; field?: string };
    post({ id, type: 'error', error: { message: e.message ?? String(err), ...(e.code ? { code: e.code } : {}), ...(e.field ? { field: e.field } : {}) } });
  }
});
