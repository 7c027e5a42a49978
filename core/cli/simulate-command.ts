import { readFileSync } from 'node:fs';
import { badOption, CrawlError, ErrorCodes } from '../errors.js';
import { formatDuration, historyFor, prepare, simulate, type SimulateReport } from '../simulator/simulate.js';
import { speedupGrid, type GridCell } from '../simulator/speedup.js';
import { listFlag } from './args.js';
import { defineCommand } from './command.js';
import { checkedSimulateFlags } from './simulate-flags.js';
import { SMALL_SITE_OPTIONS, SMALL_SITE_USAGE, smallSiteFlags } from './small-site-flags.js';
import { MEASURE_OPTIONS, MEASURE_USAGE, checkCsvTargets, measureInput, writeLines } from './eval-measure-flags.js';
import { measureOptionsOf, withoutMeasure } from '../ranking/request-schema.js';
import { choCsvSeries, choText, writeChoCsv } from './simulate-cho.js';
import { batchText, SERIES_USAGE, writeSeriesCsv } from './simulate-series.js';

const USAGE = `crawlbench simulate --graph SOURCE --policy P[,P...|all] [options]

Replays crawl policies on a stored web graph in virtual time, with the crawler's own
scheduler and policies and a simulated network (docs/design.md section 5), and compares them:
average cumulative PageRank, Kendall's tau, pages needed for 50/80/95% of the PageRank, and
the simulated crawl time. The truth is the PageRank of the part of the graph reachable from
the seeds.
  --graph SOURCE         the web graph: a dataset folder (pages.tsv.gz + links.tsv.gz) or a
                         crawl database
  --policy P[,P...]      policies to compare; all = every policy (topic only with --topic),
                         including the references omniscient and historical-pagerank-omniscient
  --r N[,N...]           simultaneous connections (default 256)
  --w DURATION           wait between connections to a site (default 15s)
${SMALL_SITE_USAGE}
${MEASURE_USAGE}
  --c N[,N...]           requests per keep-alive connection (default 1)
  --bandwidth B[,B...]   the crawler's bandwidth in bytes/s (200, 20KB, 2MB...; default unlimited)
                         Several values of --r, --c or --bandwidth: a speed-up table for one policy
                         (each r against the first r at the same c and bandwidth)
  --batch K              crawl in batches of K pages (batch policies: PageRank every K pages;
                         default K = a thirtieth of the graph)
  --history DB           an earlier crawl for the historical policies (default: derived from the
                         graph, keeping --history-share of its pages with their PageRank)
  --history-share S      share of pages the derived earlier crawl keeps (default 0.55)
  --topic WORD           topic word for the topic policy
  --topic-order O        the topic policy's order of both queues: breadth-first (default),
                         backlink-count or batch-pagerank (Cho et al.'s Graph 6)
  --topic-radius N       pages N links or fewer from a matching page are hot too (default 3;
                         0: the anchor and the URL only, Cho et al.'s Fig. 4 crawler)
  --seeds FILE           start URLs, one per line (default: every site's home page)
  --site-key host|domain what a site is (default host)
  --latency on|off       off: no latency, unlimited rates: order only (default on)
  --network-seed N       seed of the drawn latencies, rates and page sizes (default 1)
  --max-pages N          stop after N pages
  --max-pages-per-site N per-site cap (default none: the graph is finite)
  --per-ip               politeness per IP address as well as per site, as crawl --per-ip:
                         sites on one address are contacted one at a time, w apart. Addresses
                         come from a crawl database made with --per-ip; a dataset folder has
                         none, so there every host is its own address and this changes nothing
  --csv FILE             the curves (policy, fraction_pages, cumulative_pagerank, seconds) and
                         open connections over time (policy, seconds, open); with several
                         --r/--c/--bandwidth values, the speed-up table
${SERIES_USAGE}
  --json                 print one JSON object on stdout`;

const OPTIONS = {
  graph: { type: 'string' },
  policy: { type: 'string', multiple: true },
  r: { type: 'string' },
  w: { type: 'string' },
  ...SMALL_SITE_OPTIONS,
  ...MEASURE_OPTIONS,
  c: { type: 'string' },
  bandwidth: { type: 'string' },
  batch: { type: 'string' },
  history: { type: 'string' },
  'history-share': { type: 'string' },
  topic: { type: 'string' },
  'topic-order': { type: 'string' },
  'topic-radius': { type: 'string' },
  seeds: { type: 'string' },
  'site-key': { type: 'string' },
  latency: { type: 'string' },
  'network-seed': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-pages-per-site': { type: 'string' },
  'per-ip': { type: 'boolean' },
  csv: { type: 'string' },
  'series-csv': { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const simulateCommand = defineCommand({
  name: 'simulate',
  summary: 'replay crawl policies on a stored web graph in virtual time and compare them',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}" (the graph goes in --graph)`);
    const graph = flags.graph;
    if (!graph) throw badOption('--graph', 'required: a dataset folder (pages.tsv.gz + links.tsv.gz) or a crawl database');
    checkCsvTargets(flags);
    // The flags become the simulation schema's input (simulate-flags.ts): its refusals, at the flag.
    const seeds = flags.seeds === undefined ? undefined : readSeeds(flags.seeds);
    const { options, rs, cs, bandwidths } = checkedSimulateFlags({
      policies: listFlag(flags, 'policy'), r: listFlag(flags, 'r'), c: listFlag(flags, 'c'), bandwidth: listFlag(flags, 'bandwidth'),
      w: flags.w, batch: flags.batch, topic: flags.topic, topicOrder: flags['topic-order'], topicRadius: flags['topic-radius'], historyShare: flags['history-share'], siteKey: flags['site-key'], latency: flags.latency,
      networkSeed: flags['network-seed'], maxPages: flags['max-pages'], maxPagesPerSite: flags['max-pages-per-site'], perIp: flags['per-ip'], seeds,
      measureFields: measureInput(flags),
    });
    const names = options.policies;
    const { policies: _names, r: _r, c: _c, bandwidth: _bandwidth, ...checked } = withoutMeasure(options);
    const common = { ...checked, ...smallSiteFlags(flags), history: flags.history };
    const progress = (msg: string) => process.stderr.write(msg + '\n');
    const csv = flags.csv;

    if (rs.length > 1 || cs.length > 1 || bandwidths.length > 1) {
      if (names.length !== 1) throw badOption('--policy', 'a speed-up table (several --r, --c or --bandwidth values) takes exactly one policy');
      if (flags['series-csv'] !== undefined) throw badOption('--series-csv', 'not with a speed-up table (several --r, --c or --bandwidth values): the series are of one run');
      const p = prepare({ graph, seeds: common.seeds, siteKey: common.siteKey });
      progress(`graph ${graph}: ${p.g.n} pages, ${p.g.sites.length} sites, ${p.reachableCount} reachable; ${rs.length * cs.length * bandwidths.length} simulations`);
      const { history, historySource } = historyFor(names, common, p);
      const cells = speedupGrid(p, names[0]!, { r: rs, c: cs, bandwidth: bandwidths }, { ...common, history: undefined }, (cell) =>
        progress(`  c=${cell.c} B=${bw(cell.bandwidth)} r=${cell.r}: ${formatDuration(cell.simulatedSeconds)} (x${cell.speedup.toFixed(1)}), ${cell.wallSeconds.toFixed(1)} s`),
        history,
        historySource,
      );
      if (csv !== undefined) {
        write(csv, ['c,bandwidth,r,pages,simulated_seconds,speedup,mean_open_connections',
          ...cells.map((x) => [x.c, x.bandwidth, x.r, x.pagesFetched, x.simulatedSeconds, x.speedup, x.meanOpenConnections].join(','))]);
      }
      const out = { graph, policy: names[0], pages: p.g.n, sites: p.g.sites.length, w: common.w, cells };
      process.stdout.write((flags.json ? JSON.stringify(out) : gridText(names[0]!, rs, cells)) + '\n');
      return 0;
    }

    const report = simulate({ graph, policies: names, r: rs[0]!, c: cs[0]!, bandwidth: bandwidths[0]!, ...common, measure: measureOptionsOf(options), onProgress: progress });
    if (csv !== undefined) writeCurves(csv, report);
    if (flags['cho-csv'] !== undefined) writeChoCsv(flags['cho-csv'], report);
    if (flags['series-csv'] !== undefined) writeSeriesCsv(flags['series-csv'], report);
    process.stdout.write((flags.json ? JSON.stringify(report) : reportText(report)) + '\n');
    return 0;
  },
});

function readSeeds(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CrawlError(ErrorCodes.SEED_FILE_UNREADABLE, `--seeds: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const urls = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (urls.length === 0) throw badOption('--seeds', `${path} lists no URL`);
  return urls;
}

function write(path: string, lines: string[]): void {
  writeLines('--csv', path, lines);
}

function writeCurves(path: string, report: SimulateReport): void {
  const lines = ['series,policy,x,y'];
  for (const p of report.policies) {
    for (const c of p.curve) lines.push(`pagerank_by_pages,${p.policy},${c.fractionPages},${c.cumulativePageRank}`);
    for (const c of p.curve) lines.push(`pagerank_by_seconds,${p.policy},${c.seconds},${c.cumulativePageRank}`);
    p.openSeries.t.forEach((t, i) => lines.push(`open_connections,${p.policy},${t / 1000},${p.openSeries.open[i]}`));
  }
  write(path, [...lines, ...choCsvSeries(report)]);
}

export function bw(b: number): string {
  if (b === Infinity) return 'unlimited';
  if (b >= 1e6) return `${b / 1e6} MB/s`;
  if (b >= 1e3) return `${b / 1e3} KB/s`;
  return `${b} B/s`;
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

export function reportText(r: SimulateReport): string {
  const s = r.settings;
  const head = [
    `simulation of ${r.graph}: ${r.pages} pages, ${r.links} links, ${r.sites} sites; ${r.reachable} pages reachable from ${r.seeds} seeds`,
    `  r = ${s.r}, w = ${s.w / 1000} s${s.wSmall !== null ? ` (${s.wSmall / 1000} s for sites under ${s.smallSite} pages)` : ''}, c = ${s.c}, bandwidth ${bw(s.bandwidth)}, latency ${s.latency ? `on (network seed ${s.networkSeed})` : 'off'}${s.batch ? `, batches of ${s.batch}` : ''}`,
    ...(s.perIp ? [`  politeness per IP address as well: ${r.sites} sites on ${r.addresses} addresses`] : []),
    ...(r.history ? [`  history: ${r.history.source} (${r.history.pages} pages)`] : []),
    '',
  ];
  const cols = ['policy', 'avg cum. PR', 'Kendall tau', '50% PR at', '80% PR at', '95% PR at', 'simulated time', 'mean open'];
  const rows = r.policies.map((p) => [
    p.policy,
    f3(p.averageCumulativePageRank),
    f3(p.kendallTau),
    ...p.pagesAt.map((a) => pct(a.fraction)),
    formatDuration(p.simulatedSeconds),
    p.meanOpenConnections.toFixed(1),
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const best = r.policies[0]?.upperBoundAverage;
  return [
    ...head,
    line(cols),
    ...rows.map(line),
    '',
    `  (random order: 0.500; best possible order: ${best === undefined ? '-' : f3(best)}; "50% PR at" = share of the pages fetched when half the PageRank was in)`,
    ...choText(r),
    ...batchText(r),
  ].join('\n');
}

function gridText(policy: string, rs: number[], cells: GridCell[]): string {
  const lines = [`speed-up of ${policy}: simulated crawl time for each r, and its speed-up over r = ${rs[0]}`, ''];
  const cols = ['c', 'bandwidth', ...rs.map((r) => `r = ${r}`), ...rs.slice(1).map((r) => `x (r = ${r})`), ...rs.map((r) => `open (r = ${r})`)];
  const groups = new Map<string, GridCell[]>();
  for (const cell of cells) {
    const key = `${cell.c}\t${cell.bandwidth}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const rows = [...groups.values()].map((g) => [
    String(g[0]!.c),
    bw(g[0]!.bandwidth),
    ...g.map((x) => formatDuration(x.simulatedSeconds)),
    ...g.slice(1).map((x) => x.speedup.toFixed(1)),
    ...g.map((x) => x.meanOpenConnections.toFixed(1)),
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [...lines, line(cols), ...rows.map(line)].join('\n');
}
