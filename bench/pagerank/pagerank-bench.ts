import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCrawlGraph } from '../../core/ranking/crawl-graph.js';
import { DEFAULT_TOLERANCE, pagerank } from '../../core/ranking/pagerank.js';
import { loadSiteGraph } from '../../core/ranking/site-graph.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { generateCrawl } from './generate-crawl.js';

/**
 * PageRank of a large synthetic crawl, timed in phases: load from SQLite, compute, and the
 * site graph. Targets (issue 3): compute <= 10 ms per million links per iteration, load +
 * compute < 10 s, peak memory < 1 GB. The database is generated once into bench/out/ by a
 * child process (so its memory does not count) and reused afterwards.
 *
 *   npm run bench:pagerank [-- --pages N --links M --tolerance T --kernel js|wasm --threads N (links loading) --fresh --json]
 */
const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000000' },
    links: { type: 'string', default: '10000000' },
    tolerance: { type: 'string', default: String(DEFAULT_TOLERANCE) },
    damping: { type: 'string', default: '0.85' },
    fresh: { type: 'boolean' },
    json: { type: 'boolean' },
    kernel: { type: 'string', default: 'auto' },
    threads: { type: 'string' },
    'generate-only': { type: 'string' },
  },
});
const pages = Number(flags.pages);
const links = Number(flags.links);

if (flags['generate-only']) {
  const out = flags['generate-only'];
  const tmp = `${out}.partial`;
  rmSync(tmp, { force: true });
  const g = generateCrawl(tmp, pages, links);
  renameSync(tmp, out); // only a complete database is ever reused
  process.stderr.write(`generated ${g.pages} pages, ${g.links} links, ${g.sites} sites in ${g.seconds.toFixed(1)} s\n`);
  process.exit(0);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = join(root, 'bench', 'out');
mkdirSync(outDir, { recursive: true });
const dbPath = join(outDir, `pagerank-${pages}-${links}.db`);
if (flags.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
if (!existsSync(dbPath)) {
  process.stderr.write(`generating ${dbPath} (once; reused afterwards)...\n`);
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--pages', String(pages), '--links', String(links), '--generate-only', dbPath], {
    stdio: 'inherit',
  });
  if (child.status !== 0) process.exit(child.status ?? 1);
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
let peakRss = process.memoryUsage().rss;
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const vmHwm = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
};

// CPU time beside wall time: on a shared machine the gap between them is time spent waiting.
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
};
const reader = CrawlReader.open(dbPath);
let cpu = process.cpuUsage();
let t = performance.now();
const cg = loadCrawlGraph(reader, { threads: flags.threads === undefined ? undefined : Number(flags.threads) });
const loadMs = performance.now() - t;
const loadCpu = cpuSeconds(cpu);
sample();
cpu = process.cpuUsage();
t = performance.now();
const pr = pagerank(cg.graph, { damping: Number(flags.damping), tolerance: Number(flags.tolerance), kernel: flags.kernel as 'auto' | 'js' | 'wasm' });
const computeMs = performance.now() - t;
const computeCpu = cpuSeconds(cpu);
sample();
const edges = cg.graph.targets.length;
t = performance.now();
const sg = loadSiteGraph(reader);
const siteLoadMs = performance.now() - t;
t = performance.now();
const spr = pagerank(sg.graph, { damping: Number(flags.damping), tolerance: Number(flags.tolerance) });
const siteComputeMs = performance.now() - t;
sample();
reader.close();

const result = {
  db: dbPath,
  nodes: cg.graph.n,
  edges,
  loadSeconds: +(loadMs / 1000).toFixed(3),
  loadCpuSeconds: +loadCpu.toFixed(3),
  computeSeconds: +(computeMs / 1000).toFixed(3),
  computeCpuSeconds: +computeCpu.toFixed(3),
  kernel: pr.kernel,
  loadAverage: +loadavg()[0]!.toFixed(2),
  cpus: cpus().length,
  totalSeconds: +((loadMs + computeMs) / 1000).toFixed(3),
  iterations: pr.iterations,
  tolerance: pr.tolerance,
  finalDelta: pr.delta,
  msPerMillionLinksPerIteration: +(computeMs / (edges / 1e6) / Math.max(1, pr.iterations)).toFixed(3),
  site: { nodes: sg.graph.n, edges: sg.graph.targets.length, loadSeconds: +(siteLoadMs / 1000).toFixed(3), computeSeconds: +(siteComputeMs / 1000).toFixed(3), iterations: spr.iterations },
  peakRssMiB: mb(peakRss),
  vmHwmMiB: mb(vmHwm()),
  heapUsedMiB: mb(process.memoryUsage().heapUsed),
};
const targets = {
  msPerMillionLinksPerIteration: result.msPerMillionLinksPerIteration <= 10,
  totalUnder10s: result.totalSeconds < 10,
  memoryUnder1GB: result.vmHwmMiB < 1024,
};

if (flags.json) process.stdout.write(JSON.stringify({ ...result, targetsMet: targets }) + '\n');
else {
  const ok = (b: boolean) => (b ? 'ok' : 'MISSED');
  process.stdout.write(
    [
      `pagerank bench: ${result.nodes} pages, ${result.edges} links (${dbPath})`,
      `  machine             ${result.cpus} CPUs, load average ${result.loadAverage} (wall times include waiting for a CPU)`,
      `  load from SQLite    ${result.loadSeconds.toFixed(2)} s  (CPU ${result.loadCpuSeconds.toFixed(2)} s)`,
      `  compute             ${result.computeSeconds.toFixed(2)} s  (CPU ${result.computeCpuSeconds.toFixed(2)} s; ${pr.kernel} kernel; ${result.iterations} iterations to L1 delta ${pr.delta.toExponential(2)} < ${pr.tolerance})`,
      `  per iteration       ${result.msPerMillionLinksPerIteration.toFixed(2)} ms per million links  [target <= 10: ${ok(targets.msPerMillionLinksPerIteration)}]`,
      `  load + compute      ${result.totalSeconds.toFixed(2)} s  [target < 10 s: ${ok(targets.totalUnder10s)}]`,
      `  site graph          ${result.site.nodes} sites, ${result.site.edges} site pairs: load ${result.site.loadSeconds.toFixed(2)} s, compute ${result.site.computeSeconds.toFixed(2)} s (${result.site.iterations} it.)`,
      `  peak RSS            ${result.peakRssMiB} MiB sampled, VmHWM ${result.vmHwmMiB} MiB  [target < 1 GB: ${ok(targets.memoryUnder1GB)}]`,
    ].join('\n') + '\n',
  );
}
