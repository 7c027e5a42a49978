/**
 * Castillo, Effective Web Crawling, chapter 4 (docs/design.md sections 5 and 8.1-8.2), on a
 * generated national web: Table 4.1 under its own setting (w = 15 s, c = 1, r = 1; Kendall's tau
 * on a 5,000-page sample as the thesis, and exact), Figure 4.7 (larger-sites-first and
 * breadth-first at r = 1, 64, 256) and Table 4.2 (speed-ups of larger-sites-first across
 * bandwidths). Each is the simulator's own simulate()/speedupGrid() with the settings of the
 * command printed beside it.
 */
import type { SimulateReport } from '../simulator/simulate.js';
import { f3, type Figure, type StepResult, type Table } from './output.js';
import { CASTILLO_FIGURE_4_7, CASTILLO_TABLE_4_1, CASTILLO_TABLE_4_2 } from './paper-numbers.js';
import { runSimulation, runSpeedupGrid, simulateCommand, type SimSettings } from './sim-runs.js';
import type { StepContext } from './context.js';

const W = 15_000;
const TAU_SAMPLE = 5_000;
const TABLE_4_1: SimSettings = { policies: CASTILLO_TABLE_4_1.map((p) => p.policy), r: 1, w: W, c: 1, measure: { tauSample: TAU_SAMPLE } };

const COMMON_SETTINGS = [
  { name: 'w', value: '15 s', paper: '15 s (section 4.3)', differs: false },
  { name: 'c', value: '1', paper: '1 (section 4.3)', differs: false },
  { name: 'bandwidth', value: 'unlimited', paper: 'larger than any server\'s (section 4.3)', differs: false },
  { name: 'network', value: 'latency and rate per site drawn from the thesis-calibrated model (network seed 1)', paper: 'the .cl and .gr servers as measured', differs: true },
];

function graphSetting(ctx: StepContext) {
  return { name: 'graph', value: ctx.graphLabel, paper: '.cl and .gr crawls (millions of pages); the historical strategies on the .gr pair only', differs: true };
}

export async function table41(ctx: StepContext): Promise<StepResult> {
  const report = await runSimulation(ctx.graph, TABLE_4_1, ctx.log);
  const paper = new Map(CASTILLO_TABLE_4_1.map((p) => [p.policy, p]));
  const table: Table = {
    kind: 'table',
    id: 'castillo-table-4.1',
    title: 'Table 4.1: the strategies under w = 15 s, c = 1, r = 1',
    cite: 'Castillo, section 4.3.4, Table 4.1',
    columns: ['policy', 'avg cumulative PageRank', 'thesis', `Kendall tau (${TAU_SAMPLE}-page sample)`, 'tau-b (all pages)', 'thesis tau (5,000-page sample)'],
    rows: report.policies.map((p) => [
      p.policy, f3(p.averageCumulativePageRank), paper.get(p.policy)?.avgPageRank.toFixed(4) ?? null,
      f3(p.kendallTauSampled.tau), f3(p.kendallTau), paper.get(p.policy)?.tau.toFixed(4) ?? null,
    ]),
    commands: [simulateCommand(TABLE_4_1)],
    notes: [
      `${report.reachable} pages reachable from ${report.seeds} seeds; random order 0.500, best possible order ${f3(report.policies[0]?.upperBoundAverage)}`,
      `the sample: ${TAU_SAMPLE} pages drawn with seed ${report.policies[0]?.kendallTauSampled.seed ?? '-'}; history of the historical strategies: ${report.history?.source ?? 'none'}`,
    ],
  };
  return {
    paper: 'castillo', step: 'table-4.1', seconds: 0, items: [table, curves('castillo-figure-4.4', 'Cumulative PageRank against pages fetched (as Figures 4.4-4.6)', report)],
    settings: [
      graphSetting(ctx), ...COMMON_SETTINGS,
      { name: 'r', value: '1', paper: '1 (section 4.3.4: "we are using r = 1")', differs: false },
      { name: 'Kendall tau', value: `tau-b on a seeded ${TAU_SAMPLE}-page sample, and over all pages`, paper: 'on a 5,000-page sample', differs: false },
      { name: 'batch K (batch- and partial-pagerank)', value: 'a thirtieth of the graph', paper: '100,000 pages, 30 to 40 computations (section 4.3.1)', differs: false },
      { name: 'history', value: 'derived from the graph: a random 55% of its pages with their PageRank', paper: 'the .gr crawl four months earlier: 55% of the pages, holding 72% of the PageRank', differs: true },
    ],
  };
}

function curves(id: string, title: string, report: SimulateReport, label = (p: string) => p): Figure {
  return {
    kind: 'figure', id, title, cite: 'Castillo, section 4.3.4', xLabel: 'share of pages fetched', yLabel: 'cumulative PageRank',
    series: report.policies.map((p) => ({ name: label(p.policy), points: p.curve.map((c) => [c.fractionPages, c.cumulativePageRank] as [number, number]) })),
    commands: [], notes: [],
  };
}

export async function figure47(ctx: StepContext): Promise<StepResult> {
  const runs = await Promise.all([1, 64, 256].map(async (r) => {
    const s: SimSettings = { policies: ['larger-sites-first', 'breadth-first'], r, w: W, c: 1 };
    return { r, s, report: await runSimulation(ctx.graph, s, ctx.log) };
  }));
  const figure: Figure = {
    kind: 'figure', id: 'castillo-figure-4.7', title: 'Figure 4.7: cumulative PageRank, r = 1, 64, 256', cite: 'Castillo, section 4.3.5, Figure 4.7',
    xLabel: 'share of pages fetched', yLabel: 'cumulative PageRank',
    series: runs.flatMap(({ r, report }) => curves('', '', report, (p) => `${p} r=${r}`).series),
    commands: runs.map(({ s }) => simulateCommand(s)), notes: [`the thesis: ${CASTILLO_FIGURE_4_7}`],
  };
  const table: Table = {
    kind: 'table', id: 'castillo-figure-4.7-summary', title: 'Figure 4.7 in numbers: average cumulative PageRank by r', cite: 'Castillo, section 4.3.5, Figure 4.7',
    columns: ['policy', 'r = 1', 'r = 64', 'r = 256'],
    rows: ['larger-sites-first', 'breadth-first'].map((name) => [name, ...runs.map(({ report }) => f3(report.policies.find((p) => p.policy === name)?.averageCumulativePageRank))]),
    commands: runs.map(({ s }) => simulateCommand(s)), notes: [`the thesis (no table): ${CASTILLO_FIGURE_4_7}`],
  };
  return {
    paper: 'castillo', step: 'figure-4.7', seconds: 0, items: [figure, table],
    settings: [graphSetting(ctx), ...COMMON_SETTINGS, { name: 'r', value: '1, 64, 256', paper: '1, 64, 256', differs: false }],
  };
}

const BANDWIDTHS = CASTILLO_TABLE_4_2.map((b) => b.bandwidth);

export async function table42(ctx: StepContext): Promise<StepResult> {
  const s = { policies: ['larger-sites-first'], rs: [1, 64, 256], bandwidths: BANDWIDTHS, w: W, c: 1, maxPagesPerSite: ctx.scale.batchPagesPerSite };
  const cells = await runSpeedupGrid(ctx.graph, s, ctx.log);
  const at = (r: number, b: number) => cells.find((c) => c.r === r && c.bandwidth === b)!;
  // The thesis states each time as a speed-up over r = 1 at a bandwidth the link does not limit.
  const base = at(1, BANDWIDTHS[BANDWIDTHS.length - 1]!).simulatedSeconds;
  const x = (r: number, b: number) => (base / at(r, b).simulatedSeconds).toFixed(1);
  const table: Table = {
    kind: 'table', id: 'castillo-table-4.2', title: 'Table 4.2: speed-ups of larger-sites-first (over r = 1 at 20 MB/s)', cite: 'Castillo, section 4.3.5, Table 4.2',
    columns: ['bandwidth (bytes/s)', 'r = 1', 'thesis', 'r = 64', 'thesis', 'r = 256', 'thesis', 'simulated time r = 1 (s)', 'mean open connections r = 256'],
    rows: CASTILLO_TABLE_4_2.map((p) => [
      p.bandwidth, x(1, p.bandwidth), p.r1.toFixed(1), x(64, p.bandwidth), p.r64.toFixed(1), x(256, p.bandwidth), p.r256.toFixed(1),
      Math.round(at(1, p.bandwidth).simulatedSeconds), at(256, p.bandwidth).meanOpenConnections.toFixed(1),
    ]),
    commands: [simulateCommand(s)], notes: [`pages fetched: ${at(1, BANDWIDTHS[0]!).pagesFetched} (at most ${ctx.scale.batchPagesPerSite} a site: a batch)`],
  };
  const figure: Figure = {
    kind: 'figure', id: 'castillo-figure-4.8', title: 'Figure 4.8: speed-up against bandwidth', cite: 'Castillo, section 4.3.5, Figure 4.8', xLabel: 'bandwidth (bytes/s)', yLabel: 'speed-up over r = 1 at 20 MB/s', xLog: true,
    series: [1, 64, 256].flatMap((r) => [
      { name: `r=${r}`, points: BANDWIDTHS.map((b) => [b, Number(x(r, b))] as [number, number]) },
      { name: `thesis r=${r}`, points: CASTILLO_TABLE_4_2.map((p) => [p.bandwidth, r === 1 ? p.r1 : r === 64 ? p.r64 : p.r256] as [number, number]) },
    ]),
    commands: [simulateCommand(s)], notes: [],
  };
  return {
    paper: 'castillo', step: 'table-4.2', seconds: 0, items: [table, figure],
    settings: [
      graphSetting(ctx), ...COMMON_SETTINGS.filter((x) => x.name !== 'bandwidth'),
      { name: 'bandwidth', value: BANDWIDTHS.join(', ') + ' bytes/s', paper: 'the same six', differs: false },
      { name: 'pages a site', value: `at most ${ctx.scale.batchPagesPerSite} (a batch)`, paper: 'a batch of the crawl (section 4.4)', differs: true },
    ],
  };
}
