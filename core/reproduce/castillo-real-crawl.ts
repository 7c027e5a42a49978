/**
 * Castillo, Effective Web Crawling, section 4.5.1 (docs/design.md section 8.3): the real crawl
 * with larger-sites-first, its PageRank computed when the crawl ended, and the crawl cut into
 * days. Here the crawl is of the demo web (demo-crawl.ts), its duration cut into ten equal
 * slices (the thesis's days; its crawl took 8), each page's PageRank the one `crawlbench eval`
 * gives it (the crawl's complete graph, normalised over the fetched pages), and the same policy
 * simulated on the crawl's own graph (`crawlbench simulate --graph DB`) for Figure 4.15.
 */
import { evaluateCrawl, type MeasuredEvaluation } from '../ranking/evaluate.js';
import { MAX_POINTS } from '../ranking/request-schema.js';
import { withCrawlReader } from '../store/crawl-reader.js';
import type { StepContext } from './context.js';
import { demoCrawl, type DemoCrawl } from './demo-crawl.js';
import { f3, pct, type Figure, type StepResult, type Table } from './output.js';
import { CASTILLO_REAL_CRAWL } from './paper-numbers.js';
import { runSimulation, simulateCommand, type SimSettings } from './sim-runs.js';

const SLICES = 10;
/** Every page a point of eval's curve (the demo web's crawl has about 20,000): the per-page values are its steps. */
const ALL_POINTS = MAX_POINTS;

interface Page {
  value: number;
  seconds: number;
  depth: number;
}

/** The fetched pages in fetch order: PageRank (eval's), seconds since the first fetch, depth. */
function pagesOf(ev: MeasuredEvaluation, db: string): Page[] {
  const depths = withCrawlReader(db, (r) => [...r.pagesByFetch(['depth'])].map((p) => p.depth));
  const c = ev.curve;
  return depths.map((depth, i) => ({ value: c[i + 1]!.cumulativePageRank - c[i]!.cumulativePageRank, seconds: c[i + 1]!.seconds, depth }));
}

interface Slice {
  day: number;
  endSeconds: number;
  pages: number;
  pagesShare: number;
  pageRankShare: number;
  /** Average PageRank of the slice's pages, 1 = the mean fetched page. */
  average: number | null;
}

function slices(pages: Page[]): Slice[] {
  const n = pages.length;
  const duration = pages[n - 1]?.seconds ?? 0;
  const out: Slice[] = [];
  let i = 0;
  let cum = 0;
  for (let day = 1; day <= SLICES; day++) {
    const end = (duration * day) / SLICES;
    let count = 0;
    let sum = 0;
    while (i < n && (pages[i]!.seconds <= end || day === SLICES)) {
      sum += pages[i]!.value;
      count++;
      i++;
    }
    cum += sum;
    out.push({ day, endSeconds: end, pages: count, pagesShare: i / n, pageRankShare: cum, average: count > 0 ? (sum / count) * n : null });
  }
  return out;
}

/** Shares of pages and PageRank fetched by a share of the crawl's time. */
function byTime(pages: Page[], share: number): { pages: number; pageRank: number } {
  const end = (pages[pages.length - 1]?.seconds ?? 0) * share;
  let i = 0;
  let cum = 0;
  while (i < pages.length && pages[i]!.seconds <= end) cum += pages[i++]!.value;
  return { pages: i / pages.length, pageRank: cum };
}

function byDepth(pages: Page[]): Array<{ depth: number; pages: number; average: number }> {
  const m = new Map<number, { n: number; sum: number }>();
  for (const p of pages) {
    const e = m.get(p.depth) ?? { n: 0, sum: 0 };
    e.n++;
    e.sum += p.value;
    m.set(p.depth, e);
  }
  return [...m].sort((a, b) => a[0] - b[0]).map(([depth, e]) => ({ depth, pages: e.n, average: (e.sum / e.n) * pages.length }));
}

function thin<T>(xs: T[], points = 400): T[] {
  if (xs.length <= points) return xs;
  return Array.from({ length: points }, (_, k) => xs[Math.round((k * (xs.length - 1)) / (points - 1))]!);
}

export async function castilloRealCrawl(ctx: StepContext): Promise<StepResult> {
  const crawl = await demoCrawl(ctx);
  const ev = evaluateCrawl(crawl.db, { points: ALL_POINTS });
  if (ev.pagesFetched > ALL_POINTS) throw new Error(`the demo crawl fetched ${ev.pagesFetched} pages: eval keeps at most ${ALL_POINTS} points, so its curve no longer has a step per page`);
  const pages = pagesOf(ev, crawl.db);
  const days = slices(pages);
  const evalCmd = `crawlbench eval DB --points ${ALL_POINTS} --json`;
  const cmds = [...crawl.commands, evalCmd];
  const sim: SimSettings = { policies: [crawl.settings.policy], r: crawl.settings.r, w: 50, c: 1 };
  const simReport = await runSimulation(crawl.db, sim, ctx.log);
  const simulated = simReport.policies[0]!;
  const f412: Figure = {
    kind: 'figure', id: 'castillo-figure-4.12', title: 'Figure 4.12: cumulative PageRank and pages by day of the crawl', cite: 'Castillo, section 4.5.1, Figure 4.12',
    xLabel: `day (a tenth of the crawl's ${ev.crawlSeconds.toFixed(0)} s)`, yLabel: 'share fetched',
    series: [
      { name: 'PageRank', points: [[0, 0], ...days.map((d) => [d.day, d.pageRankShare] as [number, number])] },
      { name: 'pages', points: [[0, 0], ...days.map((d) => [d.day, d.pagesShare] as [number, number])] },
    ],
    commands: [], notes: [],
  };
  const t412: Table = {
    kind: 'table', id: 'castillo-figure-4.12-days', title: 'Figures 4.12 and 4.13 in numbers: the crawl by day', cite: 'Castillo, section 4.5.1, Figures 4.12 and 4.13',
    columns: ['day', 'ends at (s)', 'pages that day', 'pages so far', 'PageRank so far', 'average PageRank that day (1 = the mean page)'],
    rows: days.map((d) => [d.day, d.endSeconds.toFixed(1), d.pages, pct(d.pagesShare), pct(d.pageRankShare), d.average === null ? null : d.average.toFixed(2)]),
    commands: cmds, notes: ['a day is a tenth of the time from the first fetch to the last; a page is in the day its fetch was stored'],
  };
  const thesis: Table = {
    kind: 'table', id: 'castillo-real-crawl-thesis', title: 'Figure 4.12 against the thesis: pages and PageRank by a share of the crawl\'s time', cite: 'Castillo, section 4.5.1',
    columns: ['share of the crawl\'s time', 'pages', 'thesis', 'PageRank', 'thesis'],
    rows: CASTILLO_REAL_CRAWL.points.map((p) => {
      const here = byTime(pages, p.day / CASTILLO_REAL_CRAWL.days);
      return [`${p.day} of ${CASTILLO_REAL_CRAWL.days} days`, pct(here.pages), pct(p.pages), pct(here.pageRank), p.day === 2 ? `about ${pct(p.pageRank)}` : `more than ${pct(p.pageRank)}`];
    }),
    commands: [evalCmd], notes: [],
  };
  const f413: Figure = {
    kind: 'figure', id: 'castillo-figure-4.13', title: 'Figure 4.13: average PageRank per day', cite: 'Castillo, section 4.5.1, Figure 4.13', style: 'bar',
    xLabel: 'day', yLabel: 'average PageRank (1 = the mean page)',
    series: [{ name: POLICY_LABEL, points: days.filter((d) => d.average !== null).map((d) => [d.day, d.average!] as [number, number]) }], commands: [], notes: ['the numbers: the table of Figures 4.12 and 4.13'],
  };
  const depth = byDepth(pages);
  const f414: Figure = {
    kind: 'figure', id: 'castillo-figure-4.14', title: 'Figure 4.14: average PageRank by depth', cite: 'Castillo, section 4.5.1, Figure 4.14',
    xLabel: 'depth (links from a seed)', yLabel: 'average PageRank (1 = the mean page)', yLog: true,
    series: [{ name: POLICY_LABEL, points: depth.map((d) => [d.depth, d.average] as [number, number]) }], commands: [], notes: [],
  };
  const t414: Table = {
    kind: 'table', id: 'castillo-figure-4.14-depths', title: 'Figure 4.14 in numbers', cite: 'Castillo, section 4.5.1, Figure 4.14',
    columns: ['depth', 'pages', 'average PageRank (1 = the mean page)'], rows: depth.map((d) => [d.depth, d.pages, d.average.toFixed(3)]), commands: cmds,
    notes: ['the thesis: an inverse relation in the first few levels, very little correlation 3-4 clicks from the home page'],
  };
  const simCmd = simulateCommand(sim, 'DB');
  const f415: Figure = {
    kind: 'figure', id: 'castillo-figure-4.15', title: 'Figure 4.15: cumulative PageRank, actual and simulated crawls', cite: 'Castillo, section 4.5.1, Figure 4.15',
    xLabel: 'share of pages fetched', yLabel: 'cumulative PageRank',
    series: [
      { name: 'actual', points: thin(ev.curve).map((c) => [c.fractionPages, c.cumulativePageRank] as [number, number]) },
      { name: 'simulated', points: simulated.curve.map((c) => [c.fractionPages, c.cumulativePageRank] as [number, number]) },
    ],
    commands: [evalCmd, simCmd], notes: [],
  };
  const t415: Table = {
    kind: 'table', id: 'castillo-figure-4.15-summary', title: 'Figure 4.15 in numbers: actual against simulated', cite: 'Castillo, section 4.5.1, Figure 4.15',
    columns: ['crawl', 'pages', 'avg cumulative PageRank', 'Kendall tau-b', 'the thesis'],
    rows: [
      ['actual', ev.pagesFetched, f3(ev.averageCumulativePageRank), f3(ev.kendallTau), 'slightly better than simulated'],
      ['simulated', simulated.pagesFetched, f3(simulated.averageCumulativePageRank), f3(simulated.kendallTau), null],
    ],
    commands: [evalCmd, simCmd],
    notes: [`the actual crawl is measured by eval (the PageRank of the crawl's complete graph, normalised over the ${ev.pagesFetched} fetched pages), the simulated one by simulate (the PageRank of the ${simReport.reachable} pages of that graph reachable from the seeds)`],
  };
  return {
    paper: 'castillo', step: 'figures-4.12-4.15', seconds: 0, items: [f412, t412, thesis, f413, f414, t414, f415, t415],
    settings: realCrawlSettings(crawl),
  };
}

const POLICY_LABEL = 'larger-sites-first';

function realCrawlSettings(crawl: DemoCrawl): StepResult['settings'] {
  return [
    { name: 'web', value: `the demo web on loopback: ${crawl.web.pages.toLocaleString('en-US')} pages on ${crawl.web.sites} sites, latency up to 20 ms; ${crawl.run.pagesFetched.toLocaleString('en-US')} pages fetched in ${crawl.run.seconds.toFixed(0)} s`, paper: '.cl: 3 million pages on 50,000 sites in 8 days', differs: true },
    { name: 'policy', value: POLICY_LABEL, paper: POLICY_LABEL, differs: false },
    { name: 'w', value: '50 ms (the demo\'s)', paper: '15 s', differs: true },
    { name: 'r', value: String(crawl.settings.r), paper: '1,000', differs: true },
    { name: 'c', value: '1', paper: '1 (no keep-alive)', differs: false },
    { name: 'batches', value: 'none: a thirtieth of a web of a few hundred sites is a batch of a few sites, whose tails the crawl would wait on', paper: 'K = 100,000 (a thirtieth of the crawl, over 50,000 sites)', differs: true },
    { name: 'days', value: `ten equal slices of the crawl's duration`, paper: '8 days', differs: true },
    { name: 'PageRank', value: "eval's: the crawl's complete graph (d = 0.85), normalised over the fetched pages", paper: 'computed on the collection when the crawl ended', differs: false },
    { name: 'depth', value: 'links from the nearest seed (every site\'s home page is a seed)', paper: 'clicks from the home page', differs: false },
  ];
}
