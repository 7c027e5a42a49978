/**
 * Cho, Garcia-Molina, Page, Efficient crawling through URL ordering, sections 6 and 7
 * (docs/design.md sections 4.6, 4.11 and 8.5): Graphs 1-5 redrawn by the simulator's Crawl &
 * Stop and Crawl & Stop with Threshold curves (simulate --measure), each the same simulate()
 * the printed command runs. The orderings are the paper's three: breadth-first, backlink count
 * (IB') and PageRank (IR', crawlbench's batch-pagerank); its virtual crawler had no politeness,
 * so r = 1, w = 0 and no latency. Graphs 6 and 7 (hot pages by content) need page text, which a
 * generated graph does not have: cho-topic.ts draws them on the demo web's crawl.
 */
import { join } from 'node:path';
import { backlinkCounts } from '../ranking/importance.js';
import type { SimulateReport } from '../simulator/simulate.js';
import { loadSimGraph } from '../simulator/sim-graph.js';
import { pct, type Figure, type StepResult, type Table } from './output.js';
import { CHO_SETTINGS } from './paper-numbers.js';
import { oneSite, runSimulation, simulateCommand, type SimSettings } from './sim-runs.js';
import type { StepContext } from './context.js';

const ORDERINGS = ['breadth-first', 'backlink-count', 'batch-pagerank'];
const ORDER_LABEL: Record<string, string> = { 'breadth-first': 'breadth-first', 'backlink-count': "backlink (IB')", 'batch-pagerank': "PageRank (IR')" };
const base = (measure: SimSettings['measure']): SimSettings => ({ policies: ORDERINGS, r: 1, w: 0, c: 1, latency: false, measure });

const SETTINGS = [
  { name: 'orderings', value: "breadth-first, backlink-count (IB'), batch-pagerank (IR', PageRank of the graph seen so far every thirtieth of it)", paper: "breadth-first, IB', IR' (section 6)", differs: false },
  { name: 'politeness', value: 'r = 1, w = 0, no latency: the order alone', paper: 'none: a virtual crawler over a repository (section 5)', differs: false },
  { name: 'damping', value: '0.9', paper: '0.9 (section 6)', differs: false },
  { name: 'start', value: "every site's home page", paper: 'the Stanford home page', differs: true },
];

function choFigure(id: string, title: string, cite: string, report: SimulateReport, y: 'hot' | 'stop'): Figure {
  return {
    kind: 'figure', id, title, cite, xLabel: 'share of pages crawled', yLabel: y === 'hot' ? 'share of hot pages crawled (PST)' : 'Crawl & Stop (PCS)',
    series: [
      ...report.policies.map((p) => ({
        name: ORDER_LABEL[p.policy] ?? p.policy,
        points: (p.cho?.curve ?? []).map((c) => [c.fractionPages, y === 'hot' ? (c.hotFetched ?? 0) : c.crawlAndStop] as [number, number]),
      })),
      { name: 'random', points: [[0, 0], [1, 1]] },
    ],
    commands: [], notes: [],
  };
}

function choTable(id: string, title: string, cite: string, report: SimulateReport, s: SimSettings, paperNote: string): Table {
  const first = report.policies[0]?.cho;
  return {
    kind: 'table', id, title, cite,
    columns: ['ordering', ...(first?.threshold.fetched.map((t) => `hot pages at ${t.percent}%`) ?? []), ...(first?.crawlAndStop.map((c) => `PCS at ${c.percent}%`) ?? [])],
    rows: report.policies.map((p) => [ORDER_LABEL[p.policy] ?? p.policy, ...(p.cho?.threshold.fetched.map((t) => pct(t.share)) ?? []), ...(p.cho?.crawlAndStop.map((c) => pct(c.share)) ?? [])]),
    commands: [simulateCommand(s)],
    notes: [`${report.measure.hotPages} hot pages (G = ${report.measure.g}) of ${report.reachable} reachable (${pct(report.measure.hotPages / report.reachable)}); ${paperNote}`],
  };
}

/** Graphs 1 and 2: importance IB, hot = 100 backlinks or more; PST and PCS. */
export async function graphs12(ctx: StepContext): Promise<StepResult> {
  const s = base({ measure: 'backlinks', threshold: CHO_SETTINGS.ibThreshold });
  const report = await runSimulation(ctx.graph, s, ctx.log);
  const cmd = [simulateCommand(s)];
  const g1 = { ...choFigure('cho-graph-1', 'Graph 1: I(P) = IB(P), G = 100 (PST)', 'Cho et al., section 6, Graph 1', report, 'hot'), commands: cmd };
  const g2 = { ...choFigure('cho-graph-2', 'Graph 2: I(P) = IB(P) (PCS)', 'Cho et al., section 6, Graph 2', report, 'stop'), commands: cmd };
  const paper = `the paper: ${CHO_SETTINGS.ibHotPages.toLocaleString('en-US')} hot pages (${pct(CHO_SETTINGS.ibHotShare)}) of ${CHO_SETTINGS.pages.toLocaleString('en-US')}; IR' ahead of IB' and breadth-first`;
  return {
    paper: 'cho', step: 'graphs-1-2', seconds: 0,
    items: [g1, g2, choTable('cho-graphs-1-2-table', 'Graphs 1 and 2 in numbers: I(P) = IB(P), G = 100', 'Cho et al., section 6, Graphs 1 and 2', report, s, paper)],
    settings: [{ name: 'graph', value: ctx.graphLabel, paper: 'stanford.edu: 179,000 pages reachable', differs: true }, ...SETTINGS, { name: 'G', value: '100 backlinks', paper: '100 (section 6)', differs: false }],
  };
}

/** Graph 3: importance IR (d = 0.9, summing to N), hot = IR >= 13. */
export async function graph3(ctx: StepContext): Promise<StepResult> {
  const s = base({ measure: 'ir', threshold: CHO_SETTINGS.irThreshold, damping: CHO_SETTINGS.damping });
  const report = await runSimulation(ctx.graph, s, ctx.log);
  return {
    paper: 'cho', step: 'graph-3', seconds: 0,
    items: [
      { ...choFigure('cho-graph-3', 'Graph 3: I(P) = IR(P), G = 13 (PST)', 'Cho et al., section 6, Graph 3', report, 'hot'), commands: [simulateCommand(s)] },
      choTable('cho-graph-3-table', 'Graph 3 in numbers: I(P) = IR(P), G = 13', 'Cho et al., section 6, Graph 3', report, s, "the paper: IR' even more effective than under IB"),
    ],
    settings: [{ name: 'graph', value: ctx.graphLabel, paper: 'stanford.edu', differs: true }, ...SETTINGS, { name: 'G', value: '13 (IR summing to N)', paper: '13 (section 6)', differs: false }],
  };
}

/** Graphs 4 and 5: one site of about 1,100 pages crawled alone, IB with G = 5; its histogram of backlinks. */
export async function graphs45(ctx: StepContext): Promise<StepResult> {
  const dir = join(ctx.outDir, 'cho-one-site');
  const { site, pages } = await oneSite(ctx.graph, dir, CHO_SETTINGS.sitePages, ctx.log);
  const s = base({ measure: 'backlinks', threshold: CHO_SETTINGS.siteThreshold });
  const report = await runSimulation(dir, s, ctx.log);
  const counts = backlinkCounts(loadSimGraph(dir).graph);
  const histogram = new Map<number, number>();
  for (const c of counts) histogram.set(c, (histogram.get(c) ?? 0) + 1);
  const g5: Figure = {
    kind: 'figure', id: 'cho-graph-5', title: 'Graph 5: pages by backlink count, one site', cite: 'Cho et al., section 6, Graph 5', xLabel: 'backlinks', yLabel: 'pages', style: 'bar',
    series: [{ name: site, points: [...histogram].sort((a, b) => a[0] - b[0]) }], commands: ["(the backlinks of OUT/cho-one-site's pages: simulate --measure backlinks's IB)"], notes: [],
  };
  const cmd = simulateCommand(s, 'OUT/cho-one-site');
  return {
    paper: 'cho', step: 'graphs-4-5', seconds: 0,
    items: [
      { ...choFigure('cho-graph-4', `Graph 4: one site (${pages} pages), IB, G = 5 (PST)`, 'Cho et al., section 6, Graph 4', report, 'hot'), commands: [cmd] },
      { ...choTable('cho-graph-4-table', 'Graph 4 in numbers: one site, I(P) = IB(P), G = 5', 'Cho et al., section 6, Graph 4', report, s, 'the paper: every ordering at times worse than random'), commands: [cmd] },
      g5,
    ],
    settings: [
      { name: 'site', value: `${site}: ${pages} pages, the generated web's site nearest 1,100 pages, crawled alone (OUT/cho-one-site)`, paper: 'www-db.stanford.edu, about 1,100 pages', differs: true },
      ...SETTINGS.filter((x) => x.name !== 'start'), { name: 'start', value: "the site's home page", paper: "the site's home page", differs: false },
      { name: 'G', value: '5 backlinks', paper: '5 (section 6)', differs: false },
    ],
  };
}
