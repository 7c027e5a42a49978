/**
 * bench/server-load (issue 24): does `crawlbench serve` keep answering while it exports a large
 * crawl? Two checkouts of crawlbench (before and after a change, each built) serve the same
 * workspace of two crawls: bench/export's crawl of 1M pages with stored content, and
 * bench/sites' crawl of 50,000 sites and 3M pages (read indexes built, as a finished crawl has
 * them). Each run is a fresh `node --import loop-monitor.js CHECKOUT/bin/crawlbench.js serve
 * --dir WORKSPACE`; over HTTP (POST /api/call with the token) it starts an export of the 1M-page
 * crawl and, while it runs, asks listSites of the 50,000-site crawl (the Sites view's first page:
 * 50 sites by pages fetched) every --interval ms, timing each answer, until listExports says
 * the export ended. The preloaded loop-monitor.js measures the server thread's event-loop delay
 * (perf_hooks.monitorEventLoopDelay, resolution 10 ms) over the same window, so the server code
 * measured is each checkout's own, unchanged. Runs are interleaved (before, after, before,
 * after, ...), each on a fresh server.
 *
 * Prints per run and per checkout (median and range over the runs): the export's seconds,
 * listSites latency median / p95 / max and count, event-loop delay p50 / p99 / max, beside the
 * targets: a Sites page within 200 ms, event-loop delay p99 < 50 ms and max < 200 ms.
 *
 *   npm run bench:server-load -- [--before DIR] [--after DIR] [--rounds 3] [--formats warc,jsonl]
 *       [--pages 1000000 --sites 50000 --site-pages 3000000] [--interval 250] [--dir DIR]
 *       [--baseline S] [--quiet] [--keep] [--json]
 *
 * To tell the export's share of the delay from the Sites view's own: --baseline S first asks
 * listSites every --interval ms for S seconds with no export (its latencies and the loop's
 * delay reported apart), and --quiet asks nothing while the export runs (the loop's delay is
 * then the export's and the listExports polls', one a second).
 *
 * A checkout is a folder holding crawlbench with dist/ built (tsc, and vite build for the
 * renderer); --after defaults to this repository, and without --before only it runs. The crawls are made once under
 * bench/out/server-load/made (kept with --keep, and then reused) with the store of the checkout
 * of lowest schema (core-redirect.js: a newer schema is refused by an older crawlbench);
 * each checkout's workspace (bench/out/server-load/ws-LABEL) holds a copy of both databases
 * migrated by that checkout's own store, and links to the one content folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    formats: { type: 'string', default: 'warc' },
    pages: { type: 'string', default: '1000000' },
    sites: { type: 'string', default: '50000' },
    'site-pages': { type: 'string', default: '3000000' },
    interval: { type: 'string', default: '250' },
    baseline: { type: 'string', default: '0' },
    quiet: { type: 'boolean' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});
if (flags.help) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]!.replace(/^\/\*\*\n?/, '').replace(/^ \* ?/gm, '') + '\n');
  process.exit(0);
}

const here = dirname(fileURLToPath(import.meta.url)); // dist/bench/server-load
const repo = resolve(here, '../../..');
const out = resolve(flags.dir ?? join(repo, 'bench', 'out', 'server-load'));
const PAGES = Number(flags.pages);
const SITES = Number(flags.sites);
const SITE_PAGES = Number(flags['site-pages']);
const INTERVAL = Number(flags.interval);
const BASELINE_S = Number(flags.baseline);
const ROUNDS = Number(flags.rounds);
const FORMATS = flags.formats!.split(',') as Array<'warc' | 'jsonl' | 'csv' | 'parquet'>;
const SITES_QUERY = { offset: 0, limit: 50, sort: 'pages_fetched', descending: true };
const TARGET = { sitesMs: 200, p99Ms: 50, maxMs: 200 };
const say = (s: string) => process.stderr.write(s + '\n');

interface Checkout {
  label: 'before' | 'after';
  dir: string;
  schema: number;
  commit: string;
  ws: string;
}

async function checkout(label: Checkout['label'], dirArg: string): Promise<Checkout> {
  const dir = resolve(dirArg);
  const bin = join(dir, 'bin', 'crawlbench.js');
  const migrations = join(dir, 'dist', 'core', 'store', 'migrations', 'index.js');
  if (!existsSync(bin) || !existsSync(migrations)) throw new Error(`--${label} ${dir}: no crawlbench with dist/ built there`);
  const { SCHEMA_VERSION } = (await import(pathToFileURL(migrations).href)) as { SCHEMA_VERSION: number };
  const git = spawnSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' });
  const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout.trim() !== '';
  return { label, dir, schema: SCHEMA_VERSION, commit: (git.stdout.trim().slice(0, 70) || '?') + (dirty ? ' (+ changes)' : ''), ws: join(out, `ws-${label}`) };
}

// ---- the crawls ---------------------------------------------------------------------------

interface Made {
  pages: number;
  sites: number;
  sitePages: number;
  contentBytes: number;
  schema: number;
  sitesSchema: number;
  madeAt: string;
}

function makeCrawls(maker: Checkout): Made {
  const made = join(out, 'made');
  const file = join(made, 'made.json');
  if (flags.keep && existsSync(file)) {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Made;
    if (m.pages === PAGES && m.sites === SITES && m.sitePages === SITE_PAGES && m.schema <= maker.schema) {
      say(`using the crawls in ${made} (made ${m.madeAt}, schema ${m.schema})`);
      return m;
    }
  }
  rmSync(made, { recursive: true, force: true });
  mkdirSync(made, { recursive: true });
  say(`making the crawls in ${made} with the store of ${maker.dir} (schema ${maker.schema}) ...`);
  const p = spawnSync(process.execPath, ['--import', pathToFileURL(join(here, 'core-redirect.js')).href, join(here, 'make-crawls.js'), made, String(PAGES), String(SITES), String(SITE_PAGES)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CB_CORE_FROM: pathToFileURL(join(repo, 'dist', 'core')).href + '/', CB_CORE_TO: pathToFileURL(join(maker.dir, 'dist', 'core')).href + '/' },
  });
  if (p.status !== 0) throw new Error(`making the crawls failed (${p.status ?? p.signal})`);
  return JSON.parse(readFileSync(file, 'utf8')) as Made;
}

/** WS/export.db and WS/sites.db: copies of the made crawls in the checkout's schema; export.db.content links to the made one. */
function workspace(c: Checkout, made: Made): void {
  const stamp = join(c.ws, 'workspace.json');
  const want = JSON.stringify({ madeAt: made.madeAt, schema: c.schema });
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  if (made.schema > c.schema || made.sitesSchema > c.schema) throw new Error(`the crawls have schema ${made.schema}; ${c.dir} knows up to ${c.schema}`);
  rmSync(c.ws, { recursive: true, force: true });
  mkdirSync(c.ws, { recursive: true });
  say(`workspace ${c.ws}: copying the crawls${made.schema < c.schema ? `, migrating them to schema ${c.schema} with ${c.label}'s store` : ''} ...`);
  for (const db of ['export.db', 'sites.db']) copyFileSync(join(out, 'made', db), join(c.ws, db));
  symlinkSync(join(out, 'made', 'export.db.content'), join(c.ws, 'export.db.content'), 'dir');
  if (made.schema < c.schema || made.sitesSchema < c.schema) {
    const store = pathToFileURL(join(c.dir, 'dist', 'core', 'store', 'crawl-store.js')).href;
    const code = `const { CrawlStore } = await import(${JSON.stringify(store)}); for (const p of process.argv.slice(1)) CrawlStore.open(p).close();`;
    const p = spawnSync(process.execPath, ['--input-type=module', '-e', code, join(c.ws, 'export.db'), join(c.ws, 'sites.db')], { stdio: 'inherit' });
    if (p.status !== 0) throw new Error(`migrating ${c.ws} failed`);
  }
  writeFileSync(stamp, want);
}

// ---- one run ------------------------------------------------------------------------------

interface LoopDelay {
  mark: number;
  seconds: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  maxRssBytes: number;
  /** Gaps of over 50 ms in the thread's 10 ms ticks, with its own CPU time over each (loop-monitor.ts). */
  stalls: Array<{ at: number; ms: number; cpuMs: number | null }>;
}
/** The server's loop beside an idle Node process's over the same window: what the machine did to any thread. */
interface Window {
  loop: LoopDelay;
  idle: LoopDelay;
}
interface Asks {
  count: number;
  median: number;
  p95: number;
  max: number;
  over200: number;
}
interface Run {
  label: string;
  round: number;
  format: string;
  exportSeconds: number;
  exportRows: number;
  exportMB: number;
  exportState: string;
  idleSitesMs: number;
  sites: Asks;
  loop: LoopDelay;
  idle: LoopDelay;
  baseline: ({ sites: Asks } & Window) | null;
  serverMaxRssMiB: number;
  load: number;
}

async function serve(c: Checkout, monitorFile: string): Promise<{ child: ChildProcess; origin: string; token: string; stderr: string[] }> {
  const child = spawn(process.execPath, ['--import', pathToFileURL(join(here, 'loop-monitor.js')).href, join(c.dir, 'bin', 'crawlbench.js'), 'serve', '--dir', c.ws, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CB_LOOP_MONITOR_OUT: monitorFile },
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
  const url = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`crawlbench serve exited with ${code}: ${stderr.join('\n')}`)));
  });
  const u = new URL(url);
  return { child, origin: u.origin, token: u.searchParams.get('token')!, stderr };
}

async function call<T>(origin: string, token: string, name: string, data: unknown[]): Promise<T> {
  const res = await fetch(`${origin}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 'call', id: 1, name, data }),
  });
  const body = (await res.json()) as { kind: string; data?: T; error?: { message: string } };
  if (res.status !== 200 || body.kind !== 'result') throw new Error(`${name}: ${res.status} ${JSON.stringify(body.error ?? body)}`);
  return body.data as T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An idle Node process with the same monitor, started beside each server: its loop's delay
 * and stalls over the same windows are the machine's (other work on the shared cores), not
 * the server's.
 */
function idleWatcher(file: string): ChildProcess {
  rmSync(file, { force: true });
  return spawn(process.execPath, ['--import', pathToFileURL(join(here, 'loop-monitor.js')).href, '-e', 'setInterval(() => {}, 2 ** 30)'], {
    stdio: 'ignore',
    env: { ...process.env, CB_LOOP_MONITOR_OUT: file },
  });
}

/** Ends a window of both monitors (SIGUSR2 to the server and the idle process) and reads their lines `mark`. */
async function endWindow(server: ChildProcess, idle: ChildProcess, files: { server: string; idle: string }, mark: number): Promise<Window> {
  server.kill('SIGUSR2');
  idle.kill('SIGUSR2');
  return { loop: await loopLine(files.server, mark), idle: await loopLine(files.idle, mark) };
}

/** The monitor's line `mark`, once written (after a SIGUSR2 or the exit). */
async function loopLine(file: string, mark: number): Promise<LoopDelay> {
  for (let i = 0; i < 600; i++) {
    if (existsSync(file)) {
      const line = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LoopDelay).find((l) => l.mark === mark);
      if (line) return line;
    }
    await sleep(50);
  }
  throw new Error(`${file}: no line ${mark}`);
}

async function run(c: Checkout, format: Run['format'], round: number): Promise<Run> {
  rmSync(join(c.ws, 'exports'), { recursive: true, force: true });
  const monitorFile = join(out, `loop-${c.label}.ndjson`);
  const files = { server: monitorFile, idle: join(out, `loop-${c.label}-idle.ndjson`) };
  rmSync(monitorFile, { force: true });
  const load = loadavg()[0]!;
  const s = await serve(c, monitorFile);
  const watcher = idleWatcher(files.idle);
  try {
    const crawls = await call<Array<{ id: string }>>(s.origin, s.token, 'listCrawls', []);
    for (const id of ['export', 'sites']) if (!crawls.some((x) => x.id === id)) throw new Error(`${c.label}: serve does not list crawl ${id} (${crawls.map((x) => x.id).join(', ')})`);
    // The Sites page with nothing else to do (this also reads the file into the page cache).
    const idle: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      await call(s.origin, s.token, 'listSites', ['sites', SITES_QUERY]);
      idle.push(performance.now() - t);
      await sleep(Math.max(0, INTERVAL - idle.at(-1)!));
    }
    await endWindow(s.child, watcher, files, 0); // mark 0: start-up and the idle asks
    let mark = 1;
    let baseline: Run['baseline'] = null;
    if (BASELINE_S > 0) {
      // The Sites view's asks with no export: what listSites alone does to the loop.
      const lat: number[] = [];
      const end = performance.now() + BASELINE_S * 1000;
      while (performance.now() < end) {
        const t = performance.now();
        await call(s.origin, s.token, 'listSites', ['sites', SITES_QUERY]);
        lat.push(performance.now() - t);
        await sleep(Math.max(0, INTERVAL - lat.at(-1)!));
      }
      baseline = { sites: asks(lat), ...(await endWindow(s.child, watcher, files, mark++)) };
    }
    const { exportId } = await call<{ exportId: string }>(s.origin, s.token, 'startExport', ['export', format === 'warc' ? { format } : { format, what: 'pages' }]);
    let job: { state: string; startedAt: string; endedAt: string | null; done: number; bytesWritten: number; error: unknown } | undefined;
    const latencies: number[] = [];
    let running = !flags.quiet;
    const asker = (async () => {
      while (running) {
        const t = performance.now();
        await call(s.origin, s.token, 'listSites', ['sites', SITES_QUERY]);
        const ms = performance.now() - t;
        if (running) latencies.push(ms);
        await sleep(Math.max(0, INTERVAL - ms));
      }
    })();
    for (;;) {
      await sleep(1000);
      job = (await call<Array<typeof job & { exportId: string }>>(s.origin, s.token, 'listExports', ['export'])).find((j) => j!.exportId === exportId);
      if (!job || job.state !== 'running') break;
    }
    running = false;
    const { loop, idle: idleLoop } = await endWindow(s.child, watcher, files, mark); // the export's window
    await asker;
    if (!job || job.state !== 'finished') throw new Error(`${c.label}: export ${exportId} ended ${job?.state}: ${JSON.stringify(job?.error)}`);
    const r: Run = {
      label: c.label, round, format,
      exportSeconds: (Date.parse(job.endedAt!) - Date.parse(job.startedAt)) / 1000,
      exportRows: job.done, exportMB: job.bytesWritten / 1e6, exportState: job.state,
      idleSitesMs: median(idle.slice(2)),
      sites: asks(latencies), loop, idle: idleLoop, baseline, serverMaxRssMiB: loop.maxRssBytes / 2 ** 20, load,
    };
    if (baseline) {
      say(`  ${c.label} no export: listSites ${baseline.sites.count}x median ${baseline.sites.median.toFixed(0)} / p95 ${baseline.sites.p95.toFixed(0)} / max ${baseline.sites.max.toFixed(0)} ms; ` +
        `loop p50 ${baseline.loop.p50.toFixed(1)} / p99 ${baseline.loop.p99.toFixed(1)} / max ${baseline.loop.max.toFixed(1)} ms; ${stallText(baseline)}`);
    }
    say(`  ${c.label} ${format}: export ${r.exportSeconds.toFixed(1)} s; listSites ${r.sites.count}x median ${r.sites.median.toFixed(0)} / p95 ${r.sites.p95.toFixed(0)} / max ${r.sites.max.toFixed(0)} ms (idle ${r.idleSitesMs.toFixed(0)}); ` +
      `loop p50 ${loop.p50.toFixed(1)} / p99 ${loop.p99.toFixed(1)} / max ${loop.max.toFixed(1)} ms; ${stallText(r)}; server max RSS ${r.serverMaxRssMiB.toFixed(0)} MiB; load ${load.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
    return r;
  } finally {
    watcher.kill('SIGTERM');
    await new Promise<void>((ok) => {
      if (s.child.exitCode !== null || s.child.signalCode !== null) return ok();
      s.child.once('exit', () => ok());
      s.child.kill('SIGTERM');
    });
    rmSync(join(c.ws, 'exports'), { recursive: true, force: true });
  }
}

/** The server's stalls (its own CPU time in them) beside the idle process's, over one window. */
function stallText(w: Window): string {
  const own = w.loop.stalls.reduce((n, x) => n + (x.cpuMs ?? 0), 0);
  const worst = [...w.loop.stalls].sort((a, b) => b.ms - a.ms)[0];
  return `stalls over 50 ms: server ${w.loop.stalls.length} (${own} ms of them on its own CPU${worst ? `; longest ${worst.ms.toFixed(0)} ms, ${worst.cpuMs ?? '?'} ms own CPU` : ''}), ` +
    `idle process ${w.idle.stalls.length} (its loop p99 ${w.idle.p99.toFixed(1)} / max ${w.idle.max.toFixed(1)} ms)`;
}

function asks(latencies: number[]): Asks {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) ?? NaN, over200: sorted.filter((x) => x > TARGET.sitesMs).length };
}

function median(xs: number[]): number {
  return quantile([...xs].sort((a, b) => a - b), 0.5);
}
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo]! + (sorted[Math.ceil(i)]! - sorted[lo]!) * (i - lo);
}

// ---- main ---------------------------------------------------------------------------------

const checkouts: Checkout[] = [];
if (flags.before) checkouts.push(await checkout('before', flags.before));
checkouts.push(await checkout('after', flags.after ?? repo));
for (const c of checkouts) say(`${c.label}: ${c.dir} (${c.commit}; schema ${c.schema})`);
mkdirSync(out, { recursive: true });
const made = makeCrawls(checkouts.reduce((a, b) => (b.schema < a.schema ? b : a)));
for (const c of checkouts) workspace(c, made);

const runs: Run[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const format of FORMATS) {
    for (const c of checkouts) {
      say(`round ${round}/${ROUNDS}, ${format}, ${c.label} ...`);
      runs.push(await run(c, format, round));
    }
  }
}

// One row a window: each run's export, and its baseline (no export) when asked for.
interface Row {
  label: string;
  round: number;
  what: string;
  exportSeconds: number | null;
  sites: Asks;
  loop: LoopDelay;
  idle: LoopDelay;
  rssMiB: number;
  load: number;
}
const rows: Row[] = runs.flatMap((r) => [
  ...(r.baseline ? [{ label: r.label, round: r.round, what: 'no export', exportSeconds: null, sites: r.baseline.sites, loop: r.baseline.loop, idle: r.baseline.idle, rssMiB: NaN, load: r.load }] : []),
  { label: r.label, round: r.round, what: `${r.format}${flags.quiet ? ' (no asks)' : ''}`, exportSeconds: r.exportSeconds, sites: r.sites, loop: r.loop, idle: r.idle, rssMiB: r.serverMaxRssMiB, load: r.load },
]);
/** A window's stalls: how many, and the server thread's own CPU ms in them. */
const ownCpu = (l: LoopDelay) => l.stalls.reduce((n, x) => n + (x.cpuMs ?? 0), 0);
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const range = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
const summary = [...new Set(rows.map((r) => r.what))].flatMap((what) =>
  checkouts.map((c) => {
    const rs = rows.filter((r) => r.what === what && r.label === c.label);
    const asked = rs.every((r) => r.sites.count > 0);
    return {
      label: c.label, what, runs: rs.length,
      exportSeconds: median(rs.map((r) => r.exportSeconds ?? NaN)),
      sitesMedian: median(rs.map((r) => r.sites.median)), sitesP95: median(rs.map((r) => r.sites.p95)), sitesMax: Math.max(...rs.map((r) => r.sites.max)),
      loopP50: median(rs.map((r) => r.loop.p50)), loopP99: median(rs.map((r) => r.loop.p99)), loopMax: Math.max(...rs.map((r) => r.loop.max)),
      targets: {
        sitesWithin200: asked ? rs.every((r) => r.sites.max <= TARGET.sitesMs) : null,
        loopP99Under50: rs.every((r) => r.loop.p99 < TARGET.p99Ms),
        loopMaxUnder200: rs.every((r) => r.loop.max < TARGET.maxMs),
      },
      text: {
        exportSeconds: range(rs.map((r) => r.exportSeconds ?? NaN), f1),
        sitesMedian: range(rs.map((r) => r.sites.median), f0), sitesP95: range(rs.map((r) => r.sites.p95), f0), sitesMax: range(rs.map((r) => r.sites.max), f0),
        sitesCount: range(rs.map((r) => r.sites.count), f0),
        loopP50: range(rs.map((r) => r.loop.p50), f1), loopP99: range(rs.map((r) => r.loop.p99), f1), loopMax: range(rs.map((r) => r.loop.max), f1),
        rss: range(rs.map((r) => r.rssMiB), f0),
        idleP99: range(rs.map((r) => r.idle.p99), f1), idleMax: range(rs.map((r) => r.idle.max), f1),
      },
    };
  }),
);

if (flags.json) {
  process.stdout.write(JSON.stringify({ checkouts, made, interval: INTERVAL, baselineSeconds: BASELINE_S, quiet: !!flags.quiet, query: SITES_QUERY, targets: TARGET, runs, summary }, null, 2) + '\n');
} else {
  const w = (s: string, n: number) => s.padStart(n);
  const met = (x: boolean | null) => (x === null ? 'no asks' : x ? 'met' : 'NOT met');
  console.log(`\nserve exporting ${made.pages.toLocaleString('en')} pages while the Sites view asks listSites of ${made.sites.toLocaleString('en')} sites (${made.sitePages.toLocaleString('en')} pages) every ${INTERVAL} ms`);
  for (const c of checkouts) console.log(`  ${c.label}: ${c.dir} (${c.commit})`);
  console.log('\nrun                          export s  listSites: n  median    p95    max ms   loop delay: p50    p99    max ms  stalls (own CPU ms)  idle process: p99    max  server RSS  load');
  for (const r of rows) {
    console.log(`${`${r.round} ${r.what} ${r.label}`.padEnd(28)} ${w(f1(r.exportSeconds ?? NaN), 9)} ${w(String(r.sites.count), 14)} ${w(f0(r.sites.median), 7)} ${w(f0(r.sites.p95), 6)} ${w(f0(r.sites.max), 6)}    ${w(f1(r.loop.p50), 14)} ${w(f1(r.loop.p99), 6)} ${w(f1(r.loop.max), 6)}  ` +
      `${w(`${r.loop.stalls.length} (${ownCpu(r.loop)})`, 19)}  ${w(f1(r.idle.p99), 17)} ${w(f1(r.idle.max), 6)}    ${w(f0(r.rssMiB), 6)} MiB ${w(f1(r.load), 5)}`);
  }
  console.log(`\nmedian (range) over the runs; targets: a Sites page within ${TARGET.sitesMs} ms, loop delay p99 < ${TARGET.p99Ms} ms, max < ${TARGET.maxMs} ms`);
  for (const s of summary) {
    console.log(`${s.what} ${s.label} (${s.runs} runs): export ${s.text.exportSeconds} s; listSites median ${s.text.sitesMedian}, p95 ${s.text.sitesP95}, max ${s.text.sitesMax} ms, ${s.text.sitesCount} asks ` +
      `[${met(s.targets.sitesWithin200)}]; loop delay p50 ${s.text.loopP50}, p99 ${s.text.loopP99} [${met(s.targets.loopP99Under50)}], max ${s.text.loopMax} ms [${met(s.targets.loopMaxUnder200)}]; an idle process meanwhile: loop p99 ${s.text.idleP99}, max ${s.text.idleMax} ms; server max RSS ${s.text.rss} MiB`);
  }
}
if (!flags.keep) for (const f of ['made', 'ws-before', 'ws-after', 'loop-before.ndjson', 'loop-after.ndjson', 'loop-before-idle.ndjson', 'loop-after-idle.ndjson']) rmSync(join(out, f), { recursive: true, force: true });
