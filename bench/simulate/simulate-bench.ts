/**
 * bench/simulate: how fast the simulator replays one policy over a million pages (issue 5
 * target: under 60 s per policy, batch-pagerank excepted, memory under 2 GB).
 *
 *   npm run bench:simulate [-- --pages N --sites N --policy P[,P...] --json]
 *
 * The graph is exported once by the test web's generator into bench/out/sim-<pages>/ (a
 * national-shaped web: many tiny sites, a few huge ones) and loaded like any dataset folder.
 * Each policy runs with the crawler's defaults (r = 256, w = 15 s, c = 1, latency on,
 * unlimited bandwidth) over the whole graph; printed: load time, wall time per policy,
 * simulated crawl time, pages, and the process's peak RSS after each run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration, historyFor, prepare, runOne } from '../../core/simulator/simulate.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000000' },
    sites: { type: 'string', default: '20000' },
    policy: { type: 'string', default: 'breadth-first,opic,larger-sites-first,backlink-count,batch-pagerank' },
    json: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const sites = Number(values.sites);
const policies = values.policy!.split(',');
const say = (s: string) => {
  if (!values.json) console.log(s);
};
const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

const dir = join('bench', 'out', `sim-${pages}-${sites}`);
if (!existsSync(join(dir, 'links.tsv.gz'))) {
  const t = performance.now();
  const web = generateWeb({ seed: 1, sites, pages, latency: false });
  await exportGraphDir(web, dir);
  say(`generated ${web.pageCount} pages, ${web.linkCount} links on ${web.sites.length} sites into ${dir} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const t0 = performance.now();
const p = prepare({ graph: dir });
const loadSeconds = (performance.now() - t0) / 1000;
say(`loaded ${p.g.n} pages, ${p.g.graph.targets.length} links, ${p.g.sites.length} sites (${p.reachableCount} reachable) and their PageRank in ${loadSeconds.toFixed(1)} s; peak RSS ${peakMiB()} MiB`);

// The historical policies run against an earlier crawl derived from the graph (55% of its pages).
const { history, historySource } = historyFor(policies, { networkSeed: 1 }, p);
const rows: Array<{ policy: string; wallSeconds: number; pages: number; simulated: string; peakRssMiB: number }> = [];
for (const policy of policies) {
  const res = runOne(p, policy, { r: 256, w: 15_000, c: 1, bandwidth: Infinity, latency: true, networkSeed: 1 }, history, historySource);
  const row = {
    policy,
    wallSeconds: Math.round(res.wallMs / 100) / 10,
    pages: res.pagesFetched,
    simulated: formatDuration(res.durationMs / 1000),
    peakRssMiB: peakMiB(),
  };
  rows.push(row);
  say(`  ${policy.padEnd(20)} ${String(row.wallSeconds).padStart(6)} s wall   ${row.pages} pages   ${row.simulated} simulated   peak RSS ${row.peakRssMiB} MiB`);
}
if (values.json) console.log(JSON.stringify({ graph: dir, pages: p.g.n, links: p.g.graph.targets.length, sites: p.g.sites.length, loadSeconds, rows }));
