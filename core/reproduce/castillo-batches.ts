/**
 * Castillo, Effective Web Crawling, section 4.4 (docs/design.md sections 2.7 and 8.2): a
 * breadth-first crawl in batches of K pages, simulated on the national web at the two
 * bandwidths of Figures 4.10 and 4.11 (2 and 20 KB/s), with one page per connection (c = 1,
 * Figure 4.10) and up to 100 (c = 100, Figure 4.11). Figure 4.9 is the middle batch's pages per
 * site; Figures 4.10 and 4.11 the robots active while the middle batch is retrieved. Each run
 * is the simulate() `crawlbench simulate --batch K --series-csv FILE` runs.
 */
import type { SimulateReport } from '../simulator/simulate.js';
import type { StepContext } from './context.js';
import type { BatchOutcome } from '../simulator/report.js';
import type { Figure, StepResult, Table } from './output.js';
import { CASTILLO_BATCH_HOURS } from './paper-numbers.js';
import { graphPages, runSimulation, simulateCommand, type SimSettings } from './sim-runs.js';

const BANDWIDTHS = [2_000, 20_000] as const;
const CS = [1, 100] as const;
/** The thesis does not say how many robots its batch simulation had; its other simulations (section 4.3.5) go up to 256. */
const R = 256;
const W = 15_000;

interface Run {
  c: number;
  bandwidth: number;
  s: SimSettings;
  report: SimulateReport;
  middle: BatchOutcome;
}

/** K as the thesis chose it: about 30 batches over the crawl (100,000 pages of 3 million, section 4.3.1). */
export async function batchSizeOf(graph: string, log: (msg: string) => void): Promise<number> {
  return Math.max(1, Math.round((await graphPages(graph, log)) / 30));
}

function middleOf(report: SimulateReport): BatchOutcome {
  const p = report.policies[0]!;
  const m = p.batches?.find((b) => b.index === p.middleBatch);
  if (!m) throw new Error('the simulation formed no batches');
  return m;
}

const hours = (s: number | null) => (s === null ? null : (s / 3600).toFixed(1));

function robotsFigure(id: string, c: number, runs: Run[]): Figure {
  const cite = `Castillo, section 4.4, Figure ${id.slice(-4)}`;
  return {
    kind: 'figure', id, title: `Figure ${id.slice(-4)}: active robots while the middle batch is retrieved (c = ${c})`, cite,
    xLabel: 'hours since the batch was formed', yLabel: `active robots (of r = ${R})`, steps: true,
    series: runs.filter((x) => x.c === c).map((x) => ({
      name: `${x.bandwidth / 1000} KB/s`,
      points: x.middle.activeRobots.t.map((t, i) => [t / 3600, x.middle.activeRobots.active[i]!] as [number, number]),
    })),
    commands: runs.filter((x) => x.c === c).map((x) => simulateCommand(x.s)), notes: [],
  };
}

export async function castilloBatches(ctx: StepContext): Promise<StepResult> {
  const k = await batchSizeOf(ctx.graph, ctx.log);
  const runs: Run[] = await Promise.all(CS.flatMap((c) => BANDWIDTHS.map(async (bandwidth) => {
    const s: SimSettings = { policies: ['breadth-first'], r: R, w: W, c, bandwidth, batch: k };
    const report = await runSimulation(ctx.graph, s, ctx.log, 'middle-batch');
    return { c, bandwidth, s, report, middle: middleOf(report) };
  })));
  const at = (c: number, b: number) => runs.find((x) => x.c === c && x.bandwidth === b)!;
  const mid = at(1, 20_000).middle;
  const f49: Figure = {
    kind: 'figure', id: 'castillo-figure-4.9', title: `Figure 4.9: pages per site in the middle batch (#${mid.index} of ${at(1, 20_000).report.policies[0]!.batches!.length})`,
    cite: 'Castillo, section 4.4, Figure 4.9', xLabel: 'pages of the site in the batch', yLabel: 'sites', xLog: true, yLog: true, style: 'scatter',
    series: [{ name: `breadth-first, K = ${k}`, points: mid.pagesPerSite.map((h) => [h.pages, h.sites] as [number, number]) }],
    commands: [simulateCommand(at(1, 20_000).s) + ' --series-csv FILE'],
    notes: [`the middle batch: ${mid.pages} pages on ${mid.sites} sites; the thesis: "slightly less skewed than for the entire Web ... nevertheless very skewed" (no numbers)`],
  };
  const table: Table = {
    kind: 'table', id: 'castillo-figures-4.10-4.11', title: 'Figures 4.10 and 4.11 in numbers: the middle batch\'s retrieval time and active robots',
    cite: 'Castillo, section 4.4, Figures 4.10 and 4.11',
    columns: ['bandwidth (bytes/s)', 'c', 'batch', 'pages', 'sites', 'retrieval (h)', 'thesis (h)', 'mean active robots', `r`],
    rows: runs.map((x) => [x.bandwidth, x.c, x.middle.index, x.middle.pages, x.middle.sites, hours(x.middle.endSeconds === null ? null : x.middle.endSeconds - x.middle.formedSeconds),
      String(CASTILLO_BATCH_HOURS.find((t) => t.bandwidth === x.bandwidth && t.c === x.c)?.hours ?? ''), x.middle.meanActiveRobots.toFixed(1), R]),
    commands: runs.map((x) => simulateCommand(x.s)),
    notes: [`the thesis: c = 100 cut a batch from about 33 to 29 hours at 2 KB/s and from 9 to 3 hours at 20 KB/s (section 4.4); K = ${k} pages a batch`],
  };
  return {
    paper: 'castillo', step: 'figures-4.9-4.11', seconds: 0,
    items: [f49, robotsFigure('castillo-figure-4.10', 1, runs), robotsFigure('castillo-figure-4.11', 100, runs), table],
    settings: [
      { name: 'graph', value: ctx.graphLabel, paper: '.cl and .gr crawls (millions of pages)', differs: true },
      { name: 'policy', value: 'breadth-first', paper: 'breadth-first (Figure 4.9)', differs: false },
      { name: 'K', value: `${k} pages (a thirtieth of the graph)`, paper: '100,000 pages, 30 to 40 batches (section 4.3.1)', differs: false },
      { name: 'w', value: '15 s', paper: '15 s (section 4.3)', differs: false },
      { name: 'c', value: '1 (Figure 4.10), 100 (Figure 4.11)', paper: '1 and 100, "the default maximum for the Apache Web server"', differs: false },
      { name: 'bandwidth', value: '2,000 and 20,000 bytes/s', paper: '2 and 20 Kb/s (the captions)', differs: false },
      { name: 'r', value: String(R), paper: 'not stated (the simulations of section 4.3.5 go up to 256)', differs: false },
      { name: 'network', value: 'latency and rate per site drawn from the thesis-calibrated model (network seed 1)', paper: 'the .cl and .gr servers as measured', differs: true },
    ],
  };
}
