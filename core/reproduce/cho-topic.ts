/**
 * Cho, Garcia-Molina, Page, section 7 (docs/design.md sections 3.5 and 4.11): the topic crawl
 * redrawn on the demo web's crawl (demo-crawl.ts, made with --store-content), where a page's
 * text is known. Hot pages are judged by content: the topic word in the title, or more than ten
 * times in the body (simulate --measure similarity --query WORD); Graph 7 adds "and five or
 * more backlinks" (--hot-backlinks 5). The crawler is the topic policy, simulated on the crawl's
 * graph with the anchor texts the crawl stored: Graph 6 is the paper's Fig. 4 crawler (hot queue:
 * the word in the anchor or the URL; --topic-radius 0), Graph 7 its Fig. 5 crawler (and pages
 * within 3 links; --topic-radius 3), each with both queues in the three orderings of section 6.
 */
import type { SimulateReport } from '../simulator/simulate.js';
import type { StepContext } from './context.js';
import { demoCrawl } from './demo-crawl.js';
import { pct, type Figure, type StepResult, type Table } from './output.js';
import { CHO_SETTINGS } from './paper-numbers.js';
import { runSimulation, simulateCommand, type SimSettings } from './sim-runs.js';

/** A word of the demo web's vocabulary (the paper's was "computer", which the demo web has not). */
export const TOPIC_WORD = 'science';
const ORDERS = ['breadth-first', 'backlink-count', 'batch-pagerank'] as const;
const LABEL: Record<(typeof ORDERS)[number], string> = { 'breadth-first': 'breadth-first', 'backlink-count': "backlink (IB')", 'batch-pagerank': "PageRank (IR')" };

interface Run {
  order: (typeof ORDERS)[number];
  s: SimSettings;
  report: SimulateReport;
}

function runs(ctx: StepContext, db: string, radius: number, hotBacklinks: number | undefined): Promise<Run[]> {
  return Promise.all(ORDERS.map(async (order) => {
    const s: SimSettings = {
      policies: ['topic'], topic: TOPIC_WORD, topicOrder: order, topicRadius: radius, r: 1, w: 0, c: 1, latency: false,
      measure: { measure: 'similarity', query: TOPIC_WORD, ...(hotBacklinks !== undefined ? { hotBacklinks } : {}) },
    };
    return { order, s, report: await runSimulation(db, s, ctx.log) };
  }));
}

function figure(id: string, title: string, cite: string, rs: Run[]): Figure {
  return {
    kind: 'figure', id, title, cite, xLabel: 'share of pages crawled', yLabel: 'share of hot pages crawled (PST)',
    series: [
      ...rs.map((x) => ({ name: LABEL[x.order], points: (x.report.policies[0]!.cho?.curve ?? []).map((c) => [c.fractionPages, c.hotFetched ?? 0] as [number, number]) })),
      { name: 'random', points: [[0, 0], [1, 1]] },
    ],
    commands: rs.map((x) => simulateCommand(x.s, 'DB')), notes: [],
  };
}

function table(id: string, title: string, cite: string, rs: Run[], paper: string): Table {
  const first = rs[0]!.report;
  const fetched = (x: Run) => x.report.policies[0]!.cho?.threshold.fetched ?? [];
  return {
    kind: 'table', id, title, cite,
    columns: ['ordering', ...fetched(rs[0]!).map((t) => `hot pages at ${t.percent}%`)],
    rows: rs.map((x) => [LABEL[x.order], ...fetched(x).map((t) => pct(t.share))]),
    commands: rs.map((x) => simulateCommand(x.s, 'DB')),
    notes: [`${first.measure.hotPages} hot pages of ${first.reachable} reachable (${pct(first.measure.hotPages / first.reachable)}), judged on ${first.measure.text === 'content' ? 'the stored text (title and body)' : 'the titles only (the crawl stored no content)'}; ${paper}`],
  };
}

export async function choTopic(ctx: StepContext): Promise<StepResult> {
  const crawl = await demoCrawl(ctx);
  const [g6, g7] = await Promise.all([runs(ctx, crawl.db, 0, undefined), runs(ctx, crawl.db, 3, CHO_SETTINGS.topicBacklinks)]);
  const text = g6[0]!.report.measure.text;
  return {
    paper: 'cho', step: 'graphs-6-7', seconds: 0,
    items: [
      figure('cho-graph-6', `Graph 6: the topic crawler, hot = "${TOPIC_WORD}" by content (PST)`, 'Cho et al., section 7, Graph 6', g6),
      table('cho-graph-6-table', 'Graph 6 in numbers', 'Cho et al., section 7, Graph 6', g6, 'the paper: backlink and PageRank no better than random, only breadth-first reasonable'),
      figure('cho-graph-7', `Graph 7: 3 links around, hot = "${TOPIC_WORD}" and ${CHO_SETTINGS.topicBacklinks}+ backlinks (PST)`, 'Cho et al., section 7, Graph 7', g7),
      table('cho-graph-7-table', 'Graph 7 in numbers', 'Cho et al., section 7, Graph 7', g7,
        `the paper: PageRank and breadth-first over ${pct(CHO_SETTINGS.graph7.hot)} of the hot pages after ${pct(CHO_SETTINGS.graph7.pages)} of the pages`),
    ],
    settings: [
      { name: 'graph', value: `the demo web's crawl (${crawl.run.pagesFetched.toLocaleString('en-US')} pages, with their text: --store-content), its anchor texts passed to the policy`, paper: 'stanford.edu: 179,000 pages', differs: true },
      { name: 'topic', value: `"${TOPIC_WORD}" (a word of the demo web's vocabulary; its pages' words are drawn independently of their links)`, paper: '"computer"', differs: true },
      { name: 'hot pages', value: `by content: the word in the title or more than 10 times in the body, over ${text === 'content' ? 'the stored text' : 'the titles only'}; Graph 7 also ${CHO_SETTINGS.topicBacklinks} or more backlinks`, paper: 'the same (section 7)', differs: text !== 'content' },
      { name: 'hot queue', value: 'the word in the anchor text or URL (Graph 6); and pages within 3 links of such a page (Graph 7)', paper: 'the same, but Graph 7\'s 3 links are counted from a page found hot (by its content); here from a page whose anchor or URL holds the word', differs: true },
      { name: 'orderings', value: "breadth-first, backlink count (IB'), PageRank of the graph seen so far (IR', every thirtieth)", paper: "breadth-first, IB', IR' (section 6)", differs: false },
      { name: 'politeness', value: 'r = 1, w = 0, no latency: the order alone', paper: 'none: a virtual crawler over a repository (section 5)', differs: false },
    ],
  };
}
