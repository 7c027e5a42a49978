/**
 * Cao, Jiang, Singh, Scheduling Web crawl for better performance and quality, section 5
 * (docs/design.md sections 3.4 and 8.4), on the test web: Figure 4 (pages/s of breadth-first
 * crawls with HTTP/1.0, keep-alive and pipelining as connections grow) and Figure 7 (the four
 * strategies' pages and quality over time with Zipf qualities). The crawls are cao-crawls.ts's,
 * the ones bench/http-modes runs; here one round, on the scale's r list.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { baseArgs, curve, fetchedPages, MODES, readQualities, runCrawl, startTestWeb, steadyRate, type Curve, type Mode } from './cao-crawls.js';
import { pct, type Figure, type StepResult, type Table } from './output.js';
import { CAO_FINDINGS } from './paper-numbers.js';
import type { StepContext } from './context.js';

const DEPTH = 4;
const LATENCY = '100';
const TIME_FACTOR = '0.3';
const WEB_FLAGS = ['--latency', LATENCY, '--time-factor', TIME_FACTOR, '--keep-alive-header', '--handshake-rtt'];

const MODE_SETTINGS = [
  { name: 'web', value: `the test web: latency up to ${LATENCY} ms x ${TIME_FACTOR}, a handshake's round trip per new connection, keep-alive limits said in Keep-Alive: max`, paper: 'the Web, crawled from Princeton', differs: true },
  { name: 'ordering', value: 'breadth-first, w = 0', paper: 'breadth-first', differs: false },
  { name: 'pipelining depth', value: String(DEPTH), paper: 'not stated', differs: false },
];

export async function caoModes(ctx: StepContext): Promise<StepResult> {
  const { cao } = ctx.scale;
  const seeds = join(ctx.outDir, 'cao-modes-seeds.txt');
  const web = await startTestWeb(['--web-seed', '27', '--sites', String(cao.sites), '--pages', String(cao.pages), ...WEB_FLAGS, '--seeds-out', seeds]);
  const rates: Record<Mode, Map<number, number>> = { 'http/1.0': new Map(), 'keep-alive': new Map(), pipelining: new Map() };
  const commands: string[] = [];
  try {
    for (const r of cao.rList) {
      for (const mode of Object.keys(MODES) as Mode[]) {
        const db = join(ctx.outDir, `cao-modes-${r}-${mode.replace('/', '')}.db`);
        const maxPages = Math.min(6000, Math.max(cao.pagesPerR * 3, cao.pagesPerR * r));
        const args = [...baseArgs(db, seeds, web.info.resolve), '--r', String(r), '--max-pages', String(maxPages), ...MODES[mode](DEPTH)];
        await runCrawl(args);
        rates[mode].set(r, steadyRate(fetchedPages(db)));
        ctx.log(`  r=${r} ${mode}: ${rates[mode].get(r)!.toFixed(1)} pages/s`);
        if (r === cao.rList[0]) commands.push(`crawlbench crawl --db DB --seeds SEEDS --resolve '*.demo=127.0.0.1' --w 0ms --r R --max-pages N ${MODES[mode](DEPTH).join(' ')}`);
        for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      }
    }
  } finally {
    await web.stop();
  }
  const rate = (m: Mode, r: number) => rates[m].get(r)!;
  const table: Table = {
    kind: 'table', id: 'cao-figure-4-table', title: 'Figure 4: pages per second by connection mode and connections', cite: 'Cao, Jiang, Singh, section 5.2.1, Figure 4',
    columns: ['r', 'http/1.0', 'keep-alive', 'pipelining', 'keep-alive / http/1.0', 'the paper', 'pipelining / keep-alive'],
    rows: cao.rList.map((r) => [r, rate('http/1.0', r).toFixed(0), rate('keep-alive', r).toFixed(0), rate('pipelining', r).toFixed(0),
      (rate('keep-alive', r) / rate('http/1.0', r)).toFixed(2), `more than ${CAO_FINDINGS.keepAliveOverHttp10}`, (rate('pipelining', r) / rate('keep-alive', r)).toFixed(2)]),
    commands: [`testweb --web-seed 27 --sites ${cao.sites} --pages ${cao.pages} ${WEB_FLAGS.join(' ')} --seeds-out SEEDS`, ...commands],
    notes: [`pages per second over each crawl's middle third of pages; --max-pages ${cao.pagesPerR} x r (at least ${cao.pagesPerR * 3}, at most 6,000); one round (bench/http-modes runs two, interleaved)`,
      `the paper: throughput stopped growing beyond ${CAO_FINDINGS.connectionsSaturate} connections`],
  };
  const figure: Figure = {
    kind: 'figure', id: 'cao-figure-4', title: 'Figure 4: pages/s against connections', cite: table.cite, xLabel: 'connections (r)', yLabel: 'pages per second', xLog: true,
    series: (Object.keys(MODES) as Mode[]).map((m) => ({ name: m, points: cao.rList.map((r) => [r, rate(m, r)] as [number, number]) })), commands: table.commands, notes: [],
  };
  return { paper: 'cao', step: 'figure-4', seconds: 0, items: [table, figure], settings: [...MODE_SETTINGS, { name: 'connections', value: cao.rList.join(', '), paper: 'up to 128 or more', differs: true }] };
}

const POLICIES = ['breadth-first', 'performance', 'quality', 'crawl-ability'] as const;
const STEPS = Array.from({ length: 12 }, (_, i) => (i + 1) / 12);

function strategyFigure(id: string, title: string, curves: Record<string, Curve>, x: string, y: string, pick: (c: Curve) => Array<[number, number]>): Figure {
  return { kind: 'figure', id, title, cite: 'Cao, Jiang, Singh, section 5.3.2, Figure 7', xLabel: x, yLabel: y, series: POLICIES.map((p) => ({ name: p, points: [[0, 0], ...pick(curves[p]!)] })), commands: [], notes: [] };
}

export async function caoStrategies(ctx: StepContext): Promise<StepResult> {
  const { cao } = ctx.scale;
  const seeds = join(ctx.outDir, 'cao-zipf-seeds.txt');
  const qualities = join(ctx.outDir, 'cao-qualities.tsv');
  const web = await startTestWeb(['--web-seed', '7', '--sites', String(cao.strategiesSites), '--pages', String(cao.strategiesPages), ...WEB_FLAGS, '--quality', 'zipf', '--seeds-out', seeds, '--qualities-out', qualities]);
  const fetched: Record<string, Array<{ url: string; at: number }>> = {};
  try {
    for (const policy of POLICIES) {
      const db = join(ctx.outDir, `cao-zipf-${policy}.db`);
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      const history = policy === 'quality' || policy === 'crawl-ability' ? ['--history', qualities] : [];
      await runCrawl([...baseArgs(db, seeds, web.info.resolve), '--r', String(cao.strategiesR), '--c', '100', '--policy', policy, ...history]);
      fetched[policy] = fetchedPages(db);
      ctx.log(`  ${policy}: ${fetched[policy].length} pages`);
    }
  } finally {
    await web.stop();
  }
  const q = readQualities(qualities);
  const union = new Set(Object.values(fetched).flatMap((p) => p.map((x) => x.url)));
  let total = 0;
  for (const url of union) total += q.get(url) ?? 0;
  const horizon = Math.max(...Object.values(fetched).map((p) => (p.length ? (p[p.length - 1]!.at - p[0]!.at) / 1000 : 0)));
  const curves = Object.fromEntries(POLICIES.map((p) => [p, curve(fetched[p]!, q, horizon, STEPS, union.size, total)]));
  const at = (c: Curve, t: number) => c.byTime[Math.round(t * 12) - 1]!;
  const table: Table = {
    kind: 'table', id: 'cao-figure-7', title: 'Figure 7 in numbers: quality fetched by a third and by half of the longest crawl\'s time', cite: 'Cao, Jiang, Singh, section 5.3.2, Figure 7(c)',
    columns: ['strategy', 'pages at 1/2 time', 'quality at 1/3 time', 'quality at 1/2 time', 'the paper (crawl-ability)', 'crawl seconds'],
    rows: POLICIES.map((p) => [p, pct(at(curves[p]!, 0.5).pages), pct(at(curves[p]!, 1 / 3).quality), pct(at(curves[p]!, 0.5).quality),
      p === 'crawl-ability' ? `over ${pct(CAO_FINDINGS.crawlAbilityThird)} by 1/3, ${pct(CAO_FINDINGS.crawlAbilityHalf)} by 1/2` : null, curves[p]!.seconds.toFixed(1)]),
    commands: [`testweb --web-seed 7 --sites ${cao.strategiesSites} --pages ${cao.strategiesPages} ${WEB_FLAGS.join(' ')} --quality zipf --seeds-out SEEDS --qualities-out Q`,
      `crawlbench crawl --db DB --seeds SEEDS --w 0ms --r ${cao.strategiesR} --c 100 --policy P [--history Q for quality and crawl-ability]`],
    notes: [`the paper (Figure 6(a)): performance fetched ${Math.round((CAO_FINDINGS.performanceOverBreadthFirstAtHalf - 1) * 100)}% more pages than breadth-first by the midpoint`],
  };
  return {
    paper: 'cao', step: 'figure-7', seconds: 0,
    items: [
      table,
      strategyFigure('cao-figure-7a', 'Figure 7(a): pages against time', curves, 'share of the longest crawl\'s time', 'share of pages', (c) => c.byTime.map((b) => [b.t, b.pages])),
      strategyFigure('cao-figure-7b', 'Figure 7(b): quality against pages', curves, 'share of pages', 'share of quality', (c) => c.byPages.map((b) => [b.pages, b.quality])),
      strategyFigure('cao-figure-7c', 'Figure 7(c): quality against time', curves, 'share of the longest crawl\'s time', 'share of quality', (c) => c.byTime.map((b) => [b.t, b.quality])),
    ],
    settings: [
      ...MODE_SETTINGS.filter((s) => s.name === 'web'),
      { name: 'qualities', value: 'Zipf (a = 1) in a random order (web seed 7)', paper: 'Zipf-distributed (section 5.3.2)', differs: false },
      { name: 'connections', value: `r = ${cao.strategiesR}, c = 100`, paper: '64 connections', differs: cao.strategiesR !== 64 },
      { name: 'web size', value: `${cao.strategiesPages} pages on ${cao.strategiesSites} sites, crawled to the end`, paper: 'a crawl of the Web, stopped', differs: true },
    ],
  };
}
