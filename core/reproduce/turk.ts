/**
 * Türk, Page-to-processor assignment techniques for parallel crawlers, section 6.2 (docs/design.md
 * sections 6 and 8.6): Tables 6.2-6.5 by the graph module's partition(), the function
 * `crawlbench partition` calls: gpmetis on the page and site graphs (GP), Zoltan's PHG on the
 * hypergraphs (HP; KaHyPar too where it is installed) and hashing, each scored by the thesis's
 * metrics (graph/evaluate.ts, which partition-eval prints), with the thesis's numbers beside.
 */
import { loadLinkGraph } from '../graph/link-graph.js';
import { partition, type Level, type Partitioner, type PartitionReport } from '../graph/partition.js';
import type { PartitionMetrics } from '../graph/report.js';
import type { Cell, StepResult, Table } from './output.js';
import { TURK_DATASET, TURK_PAGE, TURK_SITE, type TurkRow } from './paper-numbers.js';
import type { StepContext } from './context.js';

const RUNS = 1;

async function run(ctx: StepContext, level: Level, parts: number[]): Promise<PartitionReport> {
  const g = loadLinkGraph(ctx.graph, {});
  try {
    const models = level === 'page' ? (['page', 'page-hypergraph'] as const) : (['site', 'site-hypergraph'] as const);
    return await partition(g, { models: [...models], parts, runs: RUNS, onProgress: (p) => ctx.log(`  [${p.done}/${p.total}] ${p.step}`) });
  } finally {
    g.close();
  }
}

function metric(r: PartitionReport, level: Level, p: Partitioner, k: number, get: (m: PartitionMetrics) => number, digits: number): Cell {
  const row = r.rows.find((x) => x.level === level && x.partitioner === p && x.parts === k);
  return row?.mean ? Number(get(row.mean).toFixed(digits)) : null;
}

function tables(r: PartitionReport, level: Level, paper: readonly TurkRow[], ids: [string, string], cite: [string, string], command: string): Table[] {
  const byK = new Map(paper.map((p) => [p.k, p]));
  const imb = (get: (m: PartitionMetrics) => number) => (p: Partitioner, k: number) => metric(r, level, p, k, get, 3);
  const storage = imb((m) => m.storageImbalance);
  const requests = imb((m) => m.requestImbalance);
  const num = (x: number | undefined): Cell => (x === undefined ? null : x);
  const imbalance: Table = {
    kind: 'table', id: ids[0], title: `Table ${cite[0].slice(-3)}: ${level}-level imbalance (%)`, cite: `Türk, section 6.2, ${cite[0]}`,
    columns: ['K', 'storage GP', 'thesis', 'storage HP', 'thesis', 'storage hash', 'thesis', 'requests GP', 'thesis', 'requests HP', 'thesis', 'requests hash', 'thesis'],
    rows: r.parts.map((k) => {
      const t = byK.get(k);
      return [k, storage('gpmetis', k), num(t?.storage[0]), storage('Zoltan PHG', k), num(t?.storage[1]), storage('hash', k), num(t?.storage[2]),
        requests('gpmetis', k), num(t?.requests[0]), requests('Zoltan PHG', k), num(t?.requests[1]), requests('hash', k), num(t?.requests[2])];
    }),
    commands: [command], notes: ['GP = gpmetis, HP = Zoltan PHG (the thesis: MeTiS and PaToH, 8 runs averaged)'],
  };
  const volume: Table = {
    kind: 'table', id: ids[1], title: `Table ${cite[1].slice(-3)}: ${level}-level communication volume (bytes) and messages`, cite: `Türk, section 6.2, ${cite[1]}`,
    columns: ['K', 'volume GP', 'thesis', 'volume hash', 'thesis', 'messages HP', 'thesis', 'messages hash', 'thesis'],
    rows: r.parts.map((k) => {
      const t = byK.get(k);
      return [k, metric(r, level, 'gpmetis', k, (m) => m.volume, 0), num(t?.volume[0]), metric(r, level, 'hash', k, (m) => m.volume, 0), num(t?.volume[1]),
        metric(r, level, 'Zoltan PHG', k, (m) => m.messages, 0), num(t?.messages[0]), metric(r, level, 'hash', k, (m) => m.messages, 0), num(t?.messages[1])];
    }),
    commands: [command], notes: [],
  };
  // The tables' partitioners (KaHyPar has no column here): one that is missing leaves its columns empty.
  const missing = r.tools.filter((t) => t.missing && t.name !== 'KaHyPar').map((t) => `${t.name} is not installed on this machine: its columns are empty (npm run setup:test-tools brings it)`);
  if (missing.length > 0) for (const t of [imbalance, volume]) t.notes.push(...missing);
  return [imbalance, volume];
}

export async function turkTables(ctx: StepContext): Promise<StepResult> {
  const page = await run(ctx, 'page', ctx.scale.turkPageParts);
  const site = await run(ctx, 'site', ctx.scale.turkSiteParts);
  const cmd = (level: Level, parts: number[]) => `crawlbench partition --graph GRAPH --model ${level} --model ${level}-hypergraph --parts ${parts.join(',')} --runs ${RUNS} --json`;
  return {
    paper: 'turk', step: 'tables-6.2-6.5', seconds: 0,
    items: [
      ...tables(page, 'page', TURK_PAGE, ['turk-table-6.2', 'turk-table-6.4'], ['Table 6.2', 'Table 6.4'], cmd('page', ctx.scale.turkPageParts)),
      ...tables(site, 'site', TURK_SITE, ['turk-table-6.3', 'turk-table-6.5'], ['Table 6.3', 'Table 6.5'], cmd('site', ctx.scale.turkSiteParts)),
    ],
    settings: [
      { name: 'graph', value: `${ctx.graphLabel}: ${page.pages} pages, ${page.links} links, ${page.sites} sites`, paper: `${TURK_DATASET.pages.toLocaleString('en-US')} pages on ${TURK_DATASET.sites.toLocaleString('en-US')} US education sites (Table 6.1)`, differs: true },
      { name: 'runs', value: `${RUNS} per partitioner and K (seed 1)`, paper: '8, averaged (section 6.1.3)', differs: true },
      { name: 'partitioners', value: 'gpmetis (GP) and Zoltan PHG (HP), 5% imbalance', paper: 'MeTiS and PaToH, 5% imbalance', differs: true },
      { name: 'page size', value: 'recorded sizes, else 10,127 bytes', paper: 'the pages\' sizes (mean 9.89 KB)', differs: false },
      { name: 'K', value: `page ${ctx.scale.turkPageParts.join(', ')}; site ${ctx.scale.turkSiteParts.join(', ')}`, paper: 'page 2-256, site 2-64', differs: ctx.scale.name !== 'default' },
    ],
  };
}
