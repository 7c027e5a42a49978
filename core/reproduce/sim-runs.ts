/**
 * The simulations of `reproduce`, run as `crawlbench simulate` runs them: the settings checked
 * and defaulted by the one simulation schema (simulator/request-schema.ts) the command's flags
 * go through, then the simulator's own simulate() or speedupGrid(), on simulation threads
 * (sim-pool.ts). So a table's numbers are the ones the printed command gives, by construction;
 * the command is kept beside each table.
 */
import { checkWith } from '../config/request-words.js';
import { badField } from '../errors.js';
import { listPolicies } from '../policies/registry.js';
import type { MeasureOptions } from '../ranking/measure.js';
import { withoutMeasure } from '../ranking/request-schema.js';
import type { SimulateReport } from '../simulator/simulate.js';
import { simulationOptionsSchema } from '../simulator/request-schema.js';
import type { GridCell } from '../simulator/speedup.js';
import { SimPool } from './sim-pool.js';

/** A simulation's settings in the units the flags take them (w in ms, bandwidth in bytes/s). */
export interface SimSettings {
  policies: string[];
  r?: number;
  w?: number;
  c?: number;
  bandwidth?: number;
  latency?: boolean;
  maxPagesPerSite?: number;
  /** Castillo's batches of K pages (--batch). */
  batch?: number;
  /** The topic policy's word, its queues' order and its radius (--topic, --topic-order, --topic-radius). */
  topic?: string;
  topicOrder?: string;
  topicRadius?: number;
  measure?: MeasureOptions & { threshold?: number; tauSample?: number };
}

function checked(s: SimSettings, r = s.r, c = s.c, bandwidth = s.bandwidth) {
  const input = Object.fromEntries(
    Object.entries({ policies: s.policies, r, w: s.w, c, bandwidth, latency: s.latency, maxPagesPerSite: s.maxPagesPerSite, batch: s.batch, topic: s.topic, topicOrder: s.topicOrder, topicRadius: s.topicRadius }).filter(([, v]) => v !== undefined),
  );
  const schema = simulationOptionsSchema(listPolicies({ simulator: true }).map((p) => p.name));
  const res = checkWith(schema, input, 'reproduce');
  if (!res.ok) throw badField(res.refusals[0]!.field, res.refusals[0]!.problem);
  return { ...withoutMeasure(res.value), bandwidth: res.value.bandwidth ?? Infinity };
}

/** The simulation threads of this process (sim-pool.ts): the graphs they prepared and the runs they kept. */
const pool = new SimPool();

/** Ends the simulation threads (the end of a `reproduce` run): what they held is let go. */
export function closeSimulations(): Promise<void> {
  return pool.close();
}

/** The run a job asks for, by its graph, policy and settings (not the measure: the order is the same under any). */
const runKey = (graph: string, policy: string, o: object) => JSON.stringify([graph, policy, Object.entries(o).sort(([a], [b]) => a.localeCompare(b))]);

/** The pages of the graph as the simulator loads it. */
export function graphPages(graph: string, log: (msg: string) => void): Promise<number> {
  return pool.run<number>({ kind: 'pages', graph }, null, log);
}

/** The site of the graph nearest `target` pages, alone, as a dataset folder in `dir` (Cho's one-site experiment). */
export function oneSite(graph: string, dir: string, target: number, log: (msg: string) => void): Promise<{ site: string; pages: number }> {
  return pool.run({ kind: 'one-site', graph, dir, pages: target }, null, log);
}

/**
 * One `simulate` run over the graph: each policy a job of its own, side by side on the threads
 * (a policy's run does not depend on the others simulate() runs with it), the reports joined in
 * the order of the policies, as one simulate() of them all gives it. With series 'middle-batch'
 * a crawl in batches keeps the active-robot series of its middle batch only.
 */
export async function runSimulation(graph: string, s: SimSettings, log: (msg: string) => void, series?: 'middle-batch'): Promise<SimulateReport> {
  const { policies, ...o } = checked(s);
  const reports = await Promise.all(
    policies.map((policy) => pool.run<SimulateReport>({ kind: 'simulate', options: { graph, policies: [policy], ...o, measure: s.measure ?? {} }, series }, runKey(graph, policy, o), log)),
  );
  return { ...reports[0]!, history: reports.find((r) => r.history !== null)?.history ?? null, policies: reports.flatMap((r) => r.policies) };
}

/** `simulate` with several --r and --bandwidth values: the speed-up grid of one policy, a job per bandwidth (each r against the first at the same bandwidth). */
export async function runSpeedupGrid(graph: string, s: SimSettings & { rs: number[]; bandwidths: number[] }, log: (msg: string) => void): Promise<GridCell[]> {
  for (const r of s.rs) for (const b of s.bandwidths) checked(s, r, s.c, b);
  const { policies, r: _r, c, bandwidth: _b, ...options } = checked(s, s.rs[0], s.c, s.bandwidths[0]);
  const parts = await Promise.all(
    s.bandwidths.map((bandwidth) => pool.run<GridCell[]>({ kind: 'grid', graph, policy: policies[0]!, grid: { r: s.rs, c: [c], bandwidth: [bandwidth] }, options }, null, log)),
  );
  return parts.flat();
}

const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** The `crawlbench simulate` command line of these settings (GRAPH stands for the graph's folder). */
export function simulateCommand(s: SimSettings & { rs?: number[]; bandwidths?: number[] }, graph = 'GRAPH'): string {
  const m = s.measure ?? {};
  const parts = [
    `crawlbench simulate --graph ${graph} --policy ${s.policies.join(',')}`,
    s.rs ? `--r ${s.rs.join(',')}` : s.r !== undefined ? `--r ${s.r}` : '',
    s.w !== undefined ? `--w ${duration(s.w)}` : '',
    s.c !== undefined ? `--c ${s.c}` : '',
    s.bandwidths ? `--bandwidth ${s.bandwidths.join(',')}` : s.bandwidth !== undefined ? `--bandwidth ${s.bandwidth}` : '',
    s.latency === false ? '--latency off' : '',
    s.maxPagesPerSite !== undefined ? `--max-pages-per-site ${s.maxPagesPerSite}` : '',
    s.batch !== undefined ? `--batch ${s.batch}` : '',
    s.topic !== undefined ? `--topic ${s.topic}` : '',
    s.topicOrder !== undefined ? `--topic-order ${s.topicOrder}` : '',
    s.topicRadius !== undefined ? `--topic-radius ${s.topicRadius}` : '',
    m.measure ? `--measure ${m.measure}` : '',
    m.query !== undefined ? `--query ${m.query}` : '',
    m.hotBacklinks !== undefined ? `--hot-backlinks ${m.hotBacklinks}` : '',
    m.threshold !== undefined ? `--hot-threshold ${m.threshold}` : '',
    m.damping !== undefined ? `--damping ${m.damping}` : '',
    m.tauSample !== undefined ? `--tau-sample ${m.tauSample}` : '',
    '--json',
  ];
  return parts.filter(Boolean).join(' ');
}
