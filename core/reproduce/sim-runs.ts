/**
 * The simulations of `reproduce`, run as `crawlbench simulate` runs them: the settings checked
 * and defaulted by the one simulation schema (simulator/request-schema.ts) the command's flags
 * go through, then the simulator's own simulate() or speedupGrid(). So a table's numbers are
 * the ones the printed command gives, by construction; the command is kept beside each table.
 */
import { checkWith } from '../config/request-words.js';
import { badField } from '../errors.js';
import { listPolicies } from '../policies/registry.js';
import type { MeasureOptions } from '../ranking/measure.js';
import { historyFor, preparedFor, simulate, type SimulateReport, type SimulationReuse } from '../simulator/simulate.js';
import { simulationOptionsSchema } from '../simulator/request-schema.js';
import type { SimGraph } from '../simulator/sim-graph.js';
import { speedupGrid, type GridCell } from '../simulator/speedup.js';

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
  return { ...res.value, bandwidth: res.value.bandwidth ?? Infinity };
}

/**
 * One graph prepared once and each policy's run kept for the steps after (Table 4.1's r = 1 runs
 * are Figure 4.7's; Cho's Graphs 1-2 and 3 are one order under two measures): simulate() reuses
 * them, as it would have computed them again.
 */
const reuse: SimulationReuse = { key: null, prepared: null, runs: new Map() };

/** Lets go of the prepared graph and the kept runs (the end of a `reproduce` run). */
export function forgetSimulations(): void {
  reuse.key = null;
  reuse.prepared = null;
  reuse.runs.clear();
}

/** The graph as the simulator loads it, prepared once for the runs on it. */
export function simGraph(graph: string): SimGraph {
  return preparedFor({ graph, reuse }).g;
}

/** One `simulate` run over the graph. */
export function runSimulation(graph: string, s: SimSettings, log: (msg: string) => void): SimulateReport {
  const o = checked(s);
  return simulate({ graph, ...o, measure: s.measure ?? {}, onProgress: log, reuse });
}

/** `simulate` with several --r and --bandwidth values: the speed-up grid of one policy. */
export function runSpeedupGrid(graph: string, s: SimSettings & { rs: number[]; bandwidths: number[] }, log: (msg: string) => void): GridCell[] {
  for (const r of s.rs) for (const b of s.bandwidths) checked(s, r, s.c, b);
  const { policies, r: _r, c, bandwidth: _b, ...common } = checked(s, s.rs[0], s.c, s.bandwidths[0]);
  const p = preparedFor({ graph, seeds: common.seeds, siteKey: common.siteKey, reuse });
  const { history, historySource } = historyFor(policies, common, p);
  return speedupGrid(p, policies[0]!, { r: s.rs, c: [c], bandwidth: s.bandwidths }, common, (cell) => log(`  r=${cell.r} B=${cell.bandwidth}: x${cell.speedup.toFixed(1)}`), history, historySource);
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
