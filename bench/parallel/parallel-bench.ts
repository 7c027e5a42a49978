/**
 * bench/parallel (issue 25): the parallel crawler (`crawlbench crawl --parts K`, K workers over
 * NATS JetStream) on bench/throughput's web, for K = 1, 2, 4 and four assignments: a host hash
 * (site model), a URL hash (page model), a METIS site partition and a Zoltan PHG page
 * (hypergraph) partition of an earlier crawl. It measures what the thesis's tables predict, the
 * link exchange (messages and URL bytes), beside partition-eval's prediction for the same
 * assignment on the earlier crawl's graph, and what the exchange costs: pages/s, CPU seconds and
 * peak RSS per worker, messages and bytes per page.
 *
 * Everything goes through the CLI as a user runs it: a fresh `crawlbench testweb --graph DIR
 * --bind-per-site` serves the web (every site its own 127.2.x.y address); a single-process
 * `crawlbench crawl` is the earlier crawl; `crawlbench export-graph` writes its site graph
 * (gpmetis) and page hypergraph (crawlbench's Zoltan PHG driver, found as `partition` finds it);
 * each parallel crawl is `crawlbench crawl --parts K --model M --assign A --predict-from
 * EARLIER --json`. Every node process of a crawl preloads usage-dir-probe.js, which writes its
 * exact CPU seconds and peak RSS at exit; nats-server's are sampled from /proc while it runs.
 * A partitioner that is missing skips its rows and says why.
 *
 *   npm run bench:parallel [-- --pages 2000 --sites 40 --k 1,2,4 --keep --json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Sqlite from '../../core/store/sqlite.js';
import { findGpmetis, findZoltan, runZoltan } from '../../core/graph/tools.js';
import { ProcSampler } from './proc-sampler.js';
import { buildWeb, pageUrl, writeGraphDir } from '../throughput/web-graph.js';

const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    sites: { type: 'string', default: '40' },
    k: { type: 'string', default: '1,2,4' },
    keep: { type: 'boolean' },
    json: { type: 'boolean' },
  },
});
const SITES = Number(flags.sites);
const PER_SITE = Math.max(1, Math.round(Number(flags.pages) / SITES));
const KS = flags.k.split(',').map(Number);
if (!Number.isInteger(SITES) || SITES < 1 || KS.some((k) => !Number.isInteger(k) || k < 1)) throw new Error('--sites and --k take positive integers');
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const cli = join(root, 'bin', 'crawlbench.js');
const probe = pathToFileURL(join(here, 'usage-dir-probe.js')).href;
/** The crawl settings of every crawl here, bench/throughput's (no politeness wait on loopback). */
const CRAWL_FLAGS = ['--w', '0', '--c', '100', '--r', '16', '--max-crawl-delay', '0', '--robots-retry', '1s', '--quiet', '--json'];

interface Usage {
  pid: number;
  argv: string[];
  cpuSeconds: number;
  peakRssBytes: number;
}
interface Row {
  k: number;
  assignment: string;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  workers: { parts: string; cpuSeconds: number; peakRssBytes: number }[];
  coordinator: { cpuSeconds: number; peakRssBytes: number } | null;
  broker: { cpuSeconds: number; peakRssBytes: number } | null;
  messagesPerPage: number;
  wireBytesPerPage: number;
  measured: { messages: number; volume: number; wireBytes: number };
  predicted: { messages: number; volume: number } | null;
  fetchedTwice: number;
  sameAsEarlier: boolean;
  loadAvg: number;
}
interface Summary {
  merge: { pagesFetched: number; fetchedTwice: number; workers: { part: number; pagesFetched: number; seconds: number }[] };
  measured: { messages: number; volume: number; wireBytes: number };
  prediction: { messages: number; volume: number } | null;
  seconds: number;
}

const say = (s: string) => {
  if (!flags.json) process.stderr.write(s + '\n');
};
const work = mkdtempSync(join(tmpdir(), 'bench-parallel-'));
const web = buildWeb(SITES, PER_SITE);
const graphDir = join(work, 'graph');
writeGraphDir(web, graphDir);
say(`web: ${SITES} sites x ${PER_SITE} pages = ${web.links.length} pages, ${web.linkCount} links; work dir ${work}`);

const server = spawn(process.execPath, [cli, 'testweb', '--graph', graphDir, '--bind-per-site'], { stdio: ['ignore', 'pipe', 'inherit'] });
// Whatever happens to the bench, its test web does not outlive it.
process.once('exit', () => server.kill('SIGTERM'));
const port = (JSON.parse(await firstLine(server)) as { port: number }).port;
const seeds = join(work, 'seeds.txt');
writeFileSync(seeds, web.hosts.map((_, s) => pageUrl(web, s * PER_SITE, port)).join('\n') + '\n');

const earlier = join(work, 'earlier.db');
const earlierRow = await runSingle();
say(`earlier crawl (one process, K = 1): ${earlierRow.pages} pages in ${earlierRow.seconds.toFixed(1)} s`);
const truth = fetchedUrls(earlier);

const skipped: string[] = [];
const assignments = await prepareAssignments();
// K = 1 is the earlier crawl itself: one process, no broker (crawl --parts takes at least 2).
const rows: Row[] = KS.includes(1) ? [earlierRow] : [];
for (const k of KS.filter((k) => k > 1)) {
  for (const a of assignments) {
    const assign = a.vector ? await a.vector(k) : 'hash';
    say(`\n== K = ${k}, ${a.name}`);
    const row = await runParallel(k, a.name, a.model, assign);
    rows.push(row);
    say(`   ${row.pages} pages in ${row.seconds.toFixed(1)} s, ${row.messagesPerPage.toFixed(2)} messages/page, measured ${row.measured.messages} messages / ${row.measured.volume} B, predicted ${row.predicted ? `${row.predicted.messages} / ${row.predicted.volume} B` : '-'}`);
  }
}
server.kill('SIGTERM');
await exited(server);

const report = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, web: { sites: SITES, perSite: PER_SITE, pages: web.links.length, links: web.linkCount }, skipped, rows };
if (flags.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
else printTables();
if (!flags.keep) rmSync(work, { recursive: true, force: true });
process.exitCode = rows.every((r) => r.sameAsEarlier) ? 0 : 1;

interface AssignmentPlan {
  name: string;
  model: 'site' | 'page';
  /** The part vector for K (a file of an earlier-crawl graph), or nothing for a hash. */
  vector?: (k: number) => Promise<string>;
}

/** The four assignments; the partitions are computed on the earlier crawl's graphs, once per K. */
async function prepareAssignments(): Promise<AssignmentPlan[]> {
  const plans: AssignmentPlan[] = [{ name: 'host hash', model: 'site' }, { name: 'URL hash', model: 'page' }];
  const gpmetis = findGpmetis();
  if (!gpmetis.path) skipped.push(`METIS site partition: ${gpmetis.missing}`);
  else {
    const graph = join(work, 'sites.metis');
    await exportGraph('site', 'metis', graph);
    plans.push({
      name: 'METIS sites', model: 'site',
      vector: async (k) => {
        const r = await runProgram(gpmetis.path!, ['-ptype=kway', '-ubvec=1.05 1.05', '-seed=1', graph, String(k)]);
        if (r.code !== 0) throw new Error(`gpmetis failed: ${r.stdout}${r.stderr}`);
        return `${graph}.part.${k}`;
      },
    });
  }
  const zoltan = findZoltan();
  if (!zoltan.path) skipped.push(`Zoltan PHG page partition: ${zoltan.missing}`);
  else {
    const hgr = join(work, 'pages.hgr');
    await exportGraph('page-hypergraph', 'hmetis', hgr);
    plans.push({ name: 'Zoltan PHG pages', model: 'page', vector: (k) => runZoltan(zoltan, hgr, k, 1) });
  }
  for (const s of skipped) say(`skipped: ${s}`);
  return plans;
}

async function exportGraph(model: string, format: string, out: string): Promise<void> {
  const r = await cb(['export-graph', '--graph', earlier, '--model', model, '--format', format, '--out', out]);
  if (r.code !== 0) throw new Error(`export-graph --model ${model} failed: ${r.stderr}`);
}

/** The earlier crawl: one process, its usage by the same probe as the workers'. */
async function runSingle(): Promise<Row> {
  const usageDir = join(work, 'k1-usage');
  mkdirSync(usageDir);
  const load = loadavg()[0]!;
  const r = await cb(['crawl', '--db', earlier, '--seeds', seeds, ...CRAWL_FLAGS], probeEnv(usageDir));
  if (r.code !== 0) throw new Error(`the earlier crawl failed: ${r.stderr}`);
  const s = JSON.parse(lastLine(r.stdout)) as { pagesFetched: number; seconds: number };
  const u = readUsages(usageDir).find((x) => x.argv[0] === 'crawl');
  const none = { messages: 0, volume: 0, wireBytes: 0 };
  return {
    k: 1, assignment: 'one process', pages: s.pagesFetched, seconds: s.seconds, pagesPerSecond: s.pagesFetched / s.seconds,
    workers: u ? [{ parts: '0', cpuSeconds: u.cpuSeconds, peakRssBytes: u.peakRssBytes }] : [], coordinator: null, broker: null,
    messagesPerPage: 0, wireBytesPerPage: 0, measured: none, predicted: { messages: 0, volume: 0 }, fetchedTwice: 0, sameAsEarlier: true, loadAvg: load,
  };
}

function probeEnv(usageDir: string): Record<string, string> {
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${probe}`.trim(), BENCH_USAGE_DIR: usageDir };
}

function readUsages(usageDir: string): Usage[] {
  return readdirSync(usageDir).map((f) => JSON.parse(readFileSync(join(usageDir, f), 'utf8')) as Usage);
}

/** One parallel crawl; its summary, each process's usage, and nats-server's sampled from /proc. */
async function runParallel(k: number, name: string, model: string, assign: string): Promise<Row> {
  const slug = `k${k}-${name.replace(/\W+/g, '-')}`;
  const usageDir = join(work, `${slug}-usage`);
  mkdirSync(usageDir);
  const db = join(work, `${slug}.db`);
  const broker = new ProcSampler(join(work, `${slug}.parts`, 'coordinator.json'));
  const load = loadavg()[0]!;
  const r = await cb(['crawl', '--db', db, '--seeds', seeds, ...CRAWL_FLAGS, '--parts', String(k), '--model', model, '--assign', assign, '--predict-from', earlier], probeEnv(usageDir));
  broker.stop();
  if (r.code !== 0) throw new Error(`K = ${k}, ${name}: the crawl failed (exit ${r.code}): ${r.stderr}`);
  const s = JSON.parse(lastLine(r.stdout)) as Summary;
  const usages = readUsages(usageDir);
  const workers = usages.filter((u) => u.argv[0] === 'worker').map((u) => ({ parts: u.argv[u.argv.indexOf('--parts-to-take') + 1] ?? '?', cpuSeconds: u.cpuSeconds, peakRssBytes: u.peakRssBytes }));
  workers.sort((a, b) => a.parts.localeCompare(b.parts));
  const coord = usages.find((u) => u.argv[0] === 'crawl');
  // The crawl's time: the slowest worker's (from its first fetch to its last), not the broker's start or the merge.
  const seconds = Math.max(...s.merge.workers.map((w) => w.seconds));
  const pages = s.merge.pagesFetched;
  return {
    k, assignment: name, pages, seconds, pagesPerSecond: pages / seconds, workers,
    coordinator: coord ? { cpuSeconds: coord.cpuSeconds, peakRssBytes: coord.peakRssBytes } : null,
    broker: broker.result(),
    messagesPerPage: s.measured.messages / pages, wireBytesPerPage: s.measured.wireBytes / pages,
    measured: s.measured, predicted: s.prediction ? { messages: s.prediction.messages, volume: s.prediction.volume } : null,
    fetchedTwice: s.merge.fetchedTwice, sameAsEarlier: sameList(fetchedUrls(db), truth), loadAvg: load,
  };
}

function printTables(): void {
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i < 2 ? c.padEnd(i === 0 ? 3 : 17) : c.padStart(10))).join(' '));
  console.log(`\nParallel crawl of ${web.links.length} pages / ${SITES} sites (${web.linkCount} links) on loopback, ${report.date}, ${cpus().length} CPUs; K = 1: the earlier crawl, one process without a broker`);
  line(['K', 'assignment', 'pages/s', 'seconds', 'worker CPU s', 'worker RSS MiB', 'coord CPU', 'nats CPU', 'nats MiB', 'load 1m']);
  for (const r of rows) {
    line([String(r.k), r.assignment, r.pagesPerSecond.toFixed(0), r.seconds.toFixed(1), r.workers.map((w) => w.cpuSeconds.toFixed(1)).join('/'), r.workers.map((w) => mib(w.peakRssBytes)).join('/'),
      r.coordinator ? r.coordinator.cpuSeconds.toFixed(1) : '-', r.broker ? r.broker.cpuSeconds.toFixed(1) : '-', r.broker ? mib(r.broker.peakRssBytes) : '-', r.loadAvg.toFixed(2)]);
  }
  console.log('\nThe exchange: measured against partition-eval\'s prediction on the earlier crawl\'s graph');
  line(['K', 'assignment', 'msgs/page', 'wire B/page', 'messages', 'predicted', 'URL bytes', 'predicted', 'agree', 'same URLs']);
  for (const r of rows) {
    const agree = r.predicted ? (r.predicted.messages === r.measured.messages && r.predicted.volume === r.measured.volume ? 'yes' : 'NO') : '-';
    line([String(r.k), r.assignment, r.messagesPerPage.toFixed(3), r.wireBytesPerPage.toFixed(1), String(r.measured.messages), String(r.predicted?.messages ?? '-'), String(r.measured.volume), String(r.predicted?.volume ?? '-'), agree, r.sameAsEarlier ? 'yes' : 'NO']);
  }
  for (const s of skipped) console.log(`skipped: ${s}`);
  console.log('K = 1 is one process (crawl without --parts): every page is its own, nothing crosses parts, so nothing is exchanged.');
}

/** The fetched URLs of a crawl, sorted. */
function fetchedUrls(db: string): string[] {
  const d = new Sqlite(db, { readonly: true });
  try {
    return d.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL ORDER BY url').pluck().all() as string[];
  } finally {
    d.close();
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function lastLine(s: string): string {
  return s.trim().split('\n').at(-1) ?? 'null';
}

function cb(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProgram(process.execPath, [cli, ...args], env);
}

function runProgram(program: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((res, rej) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      res(l);
    });
    child.once('exit', (code) => rej(new Error(`testweb exited (${code}) before it was ready`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) res(child.exitCode);
    else child.once('exit', (code) => res(code));
  });
}
