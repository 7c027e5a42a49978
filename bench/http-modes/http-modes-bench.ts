import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { baseArgs, curve, fetchedPages, median, MODES, readQualities, runCrawl, startTestWeb, steadyRate, type Curve, type Mode } from '../../core/reproduce/cao-crawls.js';
import { ROOT } from '../politeness-bound/processes.js';

/**
 * The crawl-ability paper's experiments (Cao, Jiang, Singh, section 5; docs/design.md sections
 * 3.4 and 8.4) on the test web, each crawl by the CLI in its own process against
 * `crawlbench testweb` in another:
 *  1. Figure 4: pages per second of breadth-first crawls with one connection per page
 *     (HTTP/1.0), keep-alive, and keep-alive with pipelining, as connections (r) grow. The web
 *     gives each site a latency, a first answer per connection that waits it once more (the
 *     handshake's round trip) and the paper's keep-alive limits (most 100, a quarter 1), said
 *     in Keep-Alive: max. Rounds run the modes interleaved, each round in another order.
 *  2. Figure 7: the four strategies (breadth-first, performance, quality, crawl-ability) with
 *     64 connections on a web whose pages have Zipf qualities (a = 1, seeded): pages and
 *     quality against time, quality against pages.
 *
 *   npm run bench:http-modes [-- --rounds 2 --r-list 1,2,4,8,16,32,64 --depth 4 --json
 *      --sites 200 --pages 20000 --latency 100 --time-factor 0.3 --only modes|strategies]
 */
const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    'r-list': { type: 'string', default: '1,2,4,8,16,32,64' },
    depth: { type: 'string', default: '4' },
    sites: { type: 'string', default: '200' },
    pages: { type: 'string', default: '20000' },
    latency: { type: 'string', default: '100' },
    'time-factor': { type: 'string', default: '0.3' },
    'pages-per-r': { type: 'string', default: '150' },
    'zipf-sites': { type: 'string', default: '300' },
    'zipf-pages': { type: 'string', default: '6000' },
    'zipf-r': { type: 'string', default: '64' },
    only: { type: 'string' },
    json: { type: 'boolean' },
  },
});

const outDir = join(ROOT, 'bench', 'out', 'http-modes');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const round3 = (x: number) => Math.round(x * 1000) / 1000;
let runs = 0;

/** Figure 4: pages/s by mode and r, `rounds` times, the modes' order rotated each round. */
async function modes(): Promise<Record<Mode, Record<number, number[]>>> {
  const seeds = join(outDir, 'modes-seeds.txt');
  const web = await startTestWeb([
    '--web-seed', '27', '--sites', String(flags.sites), '--pages', String(flags.pages), '--latency', String(flags.latency),
    '--time-factor', String(flags['time-factor']), '--keep-alive-header', '--handshake-rtt', '--seeds-out', seeds,
  ]);
  const names = Object.keys(MODES) as Mode[];
  const rates = Object.fromEntries(names.map((m) => [m, {}])) as Record<Mode, Record<number, number[]>>;
  try {
    const rs = String(flags['r-list']).split(',').map(Number);
    for (let round = 0; round < Number(flags.rounds); round++) {
      for (const r of rs) {
        for (let k = 0; k < names.length; k++) {
          const mode = names[(k + round + r) % names.length]!;
          const db = join(outDir, `modes-${++runs}.db`);
          const maxPages = Math.min(6000, Math.max(400, Number(flags['pages-per-r']) * r));
          const args = [...baseArgs(db, seeds, web.info.resolve), '--r', String(r), '--max-pages', String(maxPages), ...MODES[mode](Number(flags.depth))];
          await runCrawl(args);
          const rate = steadyRate(fetchedPages(db));
          (rates[mode][r] ??= []).push(rate);
          rmSync(db, { force: true });
          if (!flags.json) process.stderr.write(`  round ${round + 1} r=${r} ${mode}: ${rate.toFixed(1)} pages/s\n`);
        }
      }
    }
  } finally {
    await web.stop();
  }
  return rates;
}

const POLICIES = ['breadth-first', 'performance', 'quality', 'crawl-ability'] as const;
const STEPS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** Figure 7: the four strategies to the end of the web, on Zipf qualities; their curves. */
async function strategies(): Promise<Record<string, Curve>> {
  const seeds = join(outDir, 'zipf-seeds.txt');
  const qualities = join(outDir, 'qualities.tsv');
  const web = await startTestWeb([
    '--web-seed', '7', '--sites', String(flags['zipf-sites']), '--pages', String(flags['zipf-pages']), '--latency', String(flags.latency),
    '--time-factor', String(flags['time-factor']), '--keep-alive-header', '--handshake-rtt', '--quality', 'zipf',
    '--seeds-out', seeds, '--qualities-out', qualities,
  ]);
  const fetched: Record<string, Array<{ url: string; at: number }>> = {};
  try {
    for (const policy of POLICIES) {
      const db = join(outDir, `zipf-${policy}.db`);
      const history = policy === 'quality' || policy === 'crawl-ability' ? ['--history', qualities] : [];
      await runCrawl([...baseArgs(db, seeds, web.info.resolve), '--r', String(flags['zipf-r']), '--c', '100', '--policy', policy, ...history]);
      fetched[policy] = fetchedPages(db);
      if (!flags.json) process.stderr.write(`  ${policy}: ${fetched[policy].length} pages\n`);
    }
  } finally {
    await web.stop();
  }
  const q = readQualities(qualities);
  const union = new Set(Object.values(fetched).flatMap((p) => p.map((x) => x.url)));
  let totalQuality = 0;
  for (const url of union) totalQuality += q.get(url) ?? 0;
  const horizon = Math.max(...Object.values(fetched).map((p) => (p.length ? (p[p.length - 1]!.at - p[0]!.at) / 1000 : 0)));
  return Object.fromEntries(POLICIES.map((p) => [p, curve(fetched[p]!, q, horizon, STEPS, union.size, totalQuality)]));
}

function modeTable(rates: Record<Mode, Record<number, number[]>>): string[] {
  const rs = Object.keys(rates['http/1.0']).map(Number).sort((a, b) => a - b);
  const lines = [`| r | ${Object.keys(rates).join(' | ')} | keep-alive / http/1.0 | pipelining / keep-alive |`, `|---|${'---|'.repeat(Object.keys(rates).length + 2)}`];
  for (const r of rs) {
    const m = (mode: Mode) => median(rates[mode][r]!);
    const cells = (Object.keys(rates) as Mode[]).map((mode) => `${m(mode).toFixed(0)} (${rates[mode][r]!.map((x) => x.toFixed(0)).join(', ')})`);
    lines.push(`| ${r} | ${cells.join(' | ')} | ${(m('keep-alive') / m('http/1.0')).toFixed(2)} | ${(m('pipelining') / m('keep-alive')).toFixed(2)} |`);
  }
  return lines;
}

function curveTables(curves: Record<string, Curve>): string[] {
  const names = Object.keys(curves);
  const head = `| | ${names.join(' | ')} |`;
  const rule = `|---|${'---|'.repeat(names.length)}`;
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const rows = (label: string, f: (c: Curve, i: number) => string) => STEPS.map((s, i) => `| ${label} ${pct(s)} | ${names.map((n) => f(curves[n]!, i)).join(' | ')} |`);
  return [
    `crawl seconds: ${names.map((n) => `${n} ${curves[n]!.seconds.toFixed(1)} s`).join(', ')}`,
    '', 'Pages fetched (share of all) against time (share of the longest crawl):', head, rule, ...rows('time', (c, i) => pct(c.byTime[i]!.pages)),
    '', 'Quality fetched (share of all) against pages fetched:', head, rule, ...rows('pages', (c, i) => pct(c.byPages[i]!.quality)),
    '', 'Quality fetched (share of all) against time:', head, rule, ...rows('time', (c, i) => pct(c.byTime[i]!.quality)),
  ];
}

const load0 = loadavg();
const started = Date.now();
const rates = flags.only === 'strategies' ? null : await modes();
const curves = flags.only === 'modes' ? null : await strategies();
const result = {
  bench: 'http-modes',
  date: new Date().toISOString(),
  settings: { ...flags, json: undefined },
  rates,
  curves,
  minutes: round3((Date.now() - started) / 60_000),
  loadAverage: { start: load0.map(round3), end: loadavg().map(round3) },
};
writeFileSync(join(outDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
if (flags.json) process.stdout.write(JSON.stringify(result) + '\n');
else {
  const out = [`http-modes: ${result.minutes} min, load average ${load0[0]!.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`];
  if (rates) out.push('', `Pages per second (median of ${flags.rounds} rounds, each round's in brackets), pipelining depth ${flags.depth}:`, ...modeTable(rates));
  if (curves) out.push('', `Four strategies, r = ${flags['zipf-r']}, c = 100, Zipf qualities (a = 1):`, ...curveTables(curves));
  process.stdout.write(out.join('\n') + '\n');
}
