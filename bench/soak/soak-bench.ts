import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type BetterSqlite3 from 'better-sqlite3';
import Database from '../../core/store/sqlite.js';
import { politenessViolations, type LoggedRequest } from '../../core/testweb/politeness-check.js';
import { CLI, ROOT, cpuSecondsOf, readRequestLog, rssOf, startTestWeb } from '../politeness-bound/processes.js';

/**
 * Endurance (issue 6, item 3): a generated web of 1M pages on 20,000 sites, latency on and
 * scaled down, crawled to the end by the CLI in a child process with a small w. Every few
 * seconds it samples pages fetched (from the database, read-only), the crawler's RSS and CPU,
 * and the database size; at 50% it kills the crawler (SIGKILL) and times the resume; at the
 * end it checks politeness over every request in the server's log and counts pages served
 * more than once. Prints a compact report and writes the series to bench/out/soak/series.csv.
 * Long: run it by hand. `--pages 50000 --sites 1000` is a short run that validates it.
 *
 *   npm run bench:soak [-- --pages 1000000 --sites 20000 --w 50 --c 10 --r 256 --json]
 */
const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000000' },
    sites: { type: 'string', default: '20000' },
    'max-site-pages': { type: 'string' },
    'web-seed': { type: 'string', default: '11' },
    latency: { type: 'string', default: '100' },
    'time-factor': { type: 'string', default: '0.05' },
    w: { type: 'string', default: '50' },
    c: { type: 'string', default: '10' },
    r: { type: 'string', default: '256' },
    'kill-at': { type: 'string', default: '0.5' },
    'sample-ms': { type: 'string', default: '2000' },
    json: { type: 'boolean' },
  },
});
const pages = Number(flags.pages);
const sites = Number(flags.sites);
const maxSitePages = Number(flags['max-site-pages'] ?? Math.max(50, Math.round((20 * pages) / sites)));
const w = Number(flags.w);
const c = Number(flags.c);
const sampleMs = Number(flags['sample-ms']);

const outDir = join(ROOT, 'bench', 'out', 'soak');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const logPath = join(outDir, 'requests.ndjson');
const seedsPath = join(outDir, 'seeds.txt');
const dbPath = join(outDir, 'soak.db');
const csvPath = join(outDir, 'series.csv');

interface Sample {
  t: number;
  run: number;
  fetched: number;
  pagesPerSecond: number;
  rssBytes: number;
  cpuSeconds: number;
  dbBytes: number;
  load1: number;
}

const load0 = loadavg();
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const server = await startTestWeb([
  '--web-seed', String(flags['web-seed']), '--sites', String(sites), '--pages', String(pages), '--max-site-pages', String(maxSitePages),
  '--latency', String(flags.latency), '--time-factor', String(flags['time-factor']), '--log', logPath, '--seeds-out', seedsPath,
]);
const webPages = server.info.pages;
process.stderr.write(`soak: test web of ${webPages} pages on ${server.info.sites} sites ready after ${elapsed().toFixed(1)} s\n`);

const crawlArgs = [
  CLI, 'crawl', '--db', dbPath, '--seeds', seedsPath, ...server.info.resolve.split(',').flatMap((rule) => ['--resolve', rule]),
  '--w', `${w}ms`, '--c', String(c), '--r', String(flags.r), '--robots-retry', `${w}ms`, '--max-crawl-delay', '0', '--quiet', '--json',
];
const samples: Sample[] = [];
let db = null as BetterSqlite3.Database | null;
const fetchedSoFar = (): number => {
  if (!db) {
    if (!existsSync(dbPath)) return 0;
    try {
      db = new Database(dbPath, { readonly: true, fileMustExist: true });
    } catch {
      return 0;
    }
  }
  try {
    return (db.prepare('SELECT max(fetch_seq) FROM pages').pluck().get() as number | null) ?? 0;
  } catch {
    return samples.at(-1)?.fetched ?? 0; // schema not there yet
  }
};
function closeDb(): void {
  (db as BetterSqlite3.Database | null)?.close();
  db = null;
}
const dbBytes = () => ['', '-wal'].reduce((n, s) => n + (existsSync(dbPath + s) ? statSync(dbPath + s).size : 0), 0);

function runCrawler(run: number, killAt: number | null): Promise<{ killed: boolean; firstProgressSeconds: number | null; summary: string }> {
  return new Promise((resolveRun, reject) => {
    const child: ChildProcess = spawn(process.execPath, crawlArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    const spawnedAt = performance.now();
    const startFetched = fetchedSoFar();
    let firstProgress: number | null = null;
    let killed = false;
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    let last = { t: elapsed(), fetched: startFetched };
    // Time to resume, to within 50 ms: poll the database until the first new page is committed.
    const fast = setInterval(() => {
      if (firstProgress !== null) return clearInterval(fast);
      if (fetchedSoFar() > startFetched) {
        firstProgress = (performance.now() - spawnedAt) / 1000;
        clearInterval(fast);
      }
    }, 50);
    const timer = setInterval(() => {
      const fetched = fetchedSoFar();
      const t = elapsed();
      if (firstProgress === null && fetched > startFetched) firstProgress = (performance.now() - spawnedAt) / 1000;
      const s: Sample = {
        t, run, fetched,
        pagesPerSecond: (fetched - last.fetched) / (t - last.t),
        rssBytes: rssOf(child.pid!),
        cpuSeconds: cpuSecondsOf(child.pid!),
        dbBytes: dbBytes(),
        load1: loadavg()[0]!,
      };
      samples.push(s);
      last = { t, fetched };
      if (!flags.json) {
        process.stderr.write(`  ${t.toFixed(0)} s  run ${run}  ${fetched} pages  ${s.pagesPerSecond.toFixed(0)}/s  rss ${(s.rssBytes / 2 ** 20).toFixed(0)} MiB  db ${(s.dbBytes / 2 ** 20).toFixed(0)} MiB  load ${s.load1.toFixed(2)}\n`);
      }
      if (killAt !== null && !killed && fetched >= killAt) {
        killed = true;
        killedAt = performance.timeOrigin + performance.now();
        child.kill('SIGKILL');
      }
    }, sampleMs);
    child.once('exit', (code, signal) => {
      clearInterval(timer);
      clearInterval(fast);
      if (signal === 'SIGKILL' && killed) return resolveRun({ killed, firstProgressSeconds: firstProgress, summary: out });
      if (code === 0) return resolveRun({ killed, firstProgressSeconds: firstProgress, summary: out });
      reject(new Error(`crawler exited with ${code ?? signal}: ${out}`));
    });
  });
}

let first;
let second;
let killedAtPages = 0;
let killedAt = Infinity; // epoch ms, the server log's clock
let committedAfterKill = 0;
try {
  first = await runCrawler(1, Math.floor(webPages * Number(flags['kill-at'])));
  killedAtPages = samples.at(-1)?.fetched ?? 0;
  closeDb();
  committedAfterKill = fetchedSoFar();
  second = await runCrawler(2, null);
} finally {
  closeDb();
  await server.stop();
}
const summary = JSON.parse(second.summary) as { pagesFetched: number; seconds: number; peakRssBytes: number; errors: Record<string, number> };
const totalSeconds = elapsed();

// ---- the server's log: politeness over every request, and pages served twice -------------
const requests: LoggedRequest[] = [];
const servedBefore = new Set<string>(); // pages served before the kill
const servedTimes = new Map<string, number>();
let twice = 0;
let twiceAcrossKill = 0;
await readRequestLog(logPath, (q) => {
  requests.push({ t: q.t, tEnd: q.tEnd, host: q.host, connId: q.connId });
  if (q.path === '/robots.txt') return;
  const key = q.host + q.path;
  const n = (servedTimes.get(key) ?? 0) + 1;
  servedTimes.set(key, n);
  if (n === 2) {
    twice++;
    if (q.t >= killedAt && servedBefore.has(key)) twiceAcrossKill++;
  }
  if (q.t < killedAt) servedBefore.add(key);
});
const violations = politenessViolations(requests, new Map(), { w, c });

// ---- series -------------------------------------------------------------------------------
writeFileSync(
  csvPath,
  'seconds,run,pages_fetched,pages_per_second,rss_mib,crawler_cpu_seconds,db_mib,load1\n' +
    samples.map((s) => [s.t.toFixed(1), s.run, s.fetched, s.pagesPerSecond.toFixed(1), (s.rssBytes / 2 ** 20).toFixed(1), s.cpuSeconds.toFixed(1), (s.dbBytes / 2 ** 20).toFixed(1), s.load1.toFixed(2)].join(',')).join('\n') + '\n',
);
/** Median pages/s over the samples whose page count lies in [from, to) of the crawl. */
const total = summary.pagesFetched;
const rateBetween = (from: number, to: number) => {
  const xs = samples.filter((s) => s.fetched >= from * total && s.fetched < to * total && s.pagesPerSecond > 0).map((s) => s.pagesPerSecond).sort((a, b) => a - b);
  return xs.length ? xs[xs.length >> 1]! : NaN;
};
const rssBetween = (from: number, to: number) => {
  const xs = samples.filter((s) => s.fetched >= from * total && s.fetched < to * total).map((s) => s.rssBytes);
  return xs.length ? { min: Math.min(...xs), max: Math.max(...xs) } : { min: NaN, max: NaN };
};
const mib = (b: number) => Math.round(b / 2 ** 20);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const rates = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9].map((f) => ({ from: f, pagesPerSecond: round(rateBetween(f, f + 0.1)) }));
/** Crawler CPU ms per page fetched over [from, to): grows if storing gets slower as the database grows. */
const cpuPerPage = (from: number, to: number) => {
  const xs = samples.filter((s) => s.fetched >= from * total && s.fetched < to * total && Number.isFinite(s.cpuSeconds));
  let cpu = 0;
  let n = 0;
  for (let i = 1; i < xs.length; i++) {
    if (xs[i]!.run !== xs[i - 1]!.run) continue;
    cpu += xs[i]!.cpuSeconds - xs[i - 1]!.cpuSeconds;
    n += xs[i]!.fetched - xs[i - 1]!.fetched;
  }
  return n > 0 ? (cpu * 1000) / n : NaN;
};
const cpuByDecile = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8].map((f) => round(cpuPerPage(f, f + 0.1), 2));
const early = rateBetween(0.1, 0.4);
const late = rateBetween(0.6, 0.9);
const rssEarly = rssBetween(0.1, 0.4);
const rssLate = rssBetween(0.6, 0.9);
const result = {
  bench: 'soak',
  date: new Date().toISOString(),
  web: { pages: webPages, sites: server.info.sites, maxSitePages, latencyMaxMs: Number(flags.latency), timeFactor: Number(flags['time-factor']) },
  w, c, r: Number(flags.r),
  pagesFetched: total,
  seconds: round(totalSeconds),
  pagesPerSecondByDecile: rates,
  pagesPerSecond10to40: round(early),
  pagesPerSecond60to90: round(late),
  lateOverEarly: round(late / early, 3),
  crawlerCpuMsPerPageByDecile: cpuByDecile,
  rssMiB10to40: { min: mib(rssEarly.min), max: mib(rssEarly.max) },
  rssMiB60to90: { min: mib(rssLate.min), max: mib(rssLate.max) },
  peakRssMiB: mib(Math.max(...samples.map((s) => s.rssBytes).filter(Number.isFinite))),
  dbMiB: mib(samples.at(-1)?.dbBytes ?? 0),
  kill: { atPages: killedAtPages, committedPages: committedAfterKill, resumeSeconds: second.firstProgressSeconds === null ? null : round(second.firstProgressSeconds, 2) },
  requests: requests.length,
  pagesServedTwice: twice,
  pagesServedTwiceAcrossKill: twiceAcrossKill,
  politenessViolations: violations.length,
  errors: summary.errors,
  loadAverage: { start: load0.map((x) => round(x, 2)), end: loadavg().map((x) => round(x, 2)) },
  series: csvPath,
};
writeFileSync(join(outDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
if (flags.json) {
  process.stdout.write(JSON.stringify(result) + '\n');
} else {
  process.stdout.write(
    [
      `soak: ${total} pages of ${webPages} on ${result.web.sites} sites in ${result.seconds} s (w = ${w} ms, c = ${c}, r = ${result.r}, latency <= ${result.web.latencyMaxMs} ms x ${result.web.timeFactor})`,
      `  pages/s        10-40%: ${result.pagesPerSecond10to40}, 60-90%: ${result.pagesPerSecond60to90} (late/early ${result.lateOverEarly}); by decile ${rates.map((x) => x.pagesPerSecond).join(' ')}`,
      `  CPU ms/page    by decile (10-90%, without 50%): ${cpuByDecile.join(' ')} (crawler process)`,
      `  RSS            10-40%: ${result.rssMiB10to40.min}-${result.rssMiB10to40.max} MiB, 60-90%: ${result.rssMiB60to90.min}-${result.rssMiB60to90.max} MiB, peak ${result.peakRssMiB} MiB; database ${result.dbMiB} MiB`,
      `  kill at 50%    SIGKILL at ${killedAtPages} pages (${committedAfterKill} committed); resumed fetching ${result.kill.resumeSeconds} s after restart (polled every 50 ms)`,
      `  server log     ${requests.length} requests, ${twice} pages served twice (${twiceAcrossKill} of them once before and once after the kill), ${violations.length} politeness violations${violations.length ? ': ' + violations.slice(0, 3).join('; ') : ''}`,
      `  load average   ${load0[0]!.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; series in ${csvPath}`,
    ].join('\n') + '\n',
  );
}
