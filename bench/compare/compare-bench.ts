/**
 * bench/compare (issue 15): two crawls of 1M pages and 10M links each, the second "months
 * later" (55% of URLs survive, a third of those changed, links drawn anew), compared by
 * `crawlbench compare` in its own process: prints wall time, the PageRank computations'
 * share of it (neither crawl has a stored run, so both are computed in memory, as for a
 * user's fresh crawls) and peak RSS (VmHWM). Targets: peak RSS <= 1.5 GB, at most 60 s
 * beyond the PageRank computation.
 *
 *   npm run bench:compare [-- --pages 1000000 --links 10000000 --keep --json]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCrawl } from '../pagerank/generate-crawl.js';

const { values: flags } = parseArgs({
  options: { pages: { type: 'string', default: '1000000' }, links: { type: 'string', default: '10000000' }, keep: { type: 'boolean' }, json: { type: 'boolean' } },
});
const pages = Number(flags.pages);
const links = Number(flags.links);
const dir = join(process.cwd(), 'bench', 'out', 'compare');
mkdirSync(dir, { recursive: true });
const a = join(dir, `a-${pages}.db`);
const b = join(dir, `b-${pages}.db`);
const say = (s: string) => process.stderr.write(s + '\n');

for (const [path, revision, seed] of [[a, undefined, 1], [b, { survive: 0.55, changed: 0.33, seed: 7 }, 2]] as const) {
  if (existsSync(path)) continue;
  const g = generateCrawl(path, pages, links, seed, revision);
  say(`generated ${path}: ${g.pages} pages, ${g.links} links, ${g.sites} sites in ${g.seconds.toFixed(1)} s`);
}

/** Runs compare in its own process; the progress lines on stderr time each step. */
function runCompare(): Promise<{ wall: number; steps: Array<[string, number]>; hwmKb: number; report: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--max-old-space-size=4096', 'bin/crawlbench.js', 'compare', a, b, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const steps: Array<[string, number]> = [];
    let out = '';
    let hwmKb = 0;
    const probe = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const m = /VmHWM:\s+(\d+)/.exec(status);
        if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
      } catch {
        /* ended */
      }
    }, 100);
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        const m = /^compare: (.+) \(\d+%\)$/.exec(line);
        if (m) steps.push([m[1]!, (performance.now() - t0) / 1000]);
      }
    });
    child.on('close', (code) => {
      clearInterval(probe);
      if (code !== 0) return reject(new Error(`compare exited ${code}`));
      resolve({ wall: (performance.now() - t0) / 1000, steps, hwmKb, report: JSON.parse(out) as Record<string, unknown> });
    });
  });
}

const r = await runCompare();
const at = (step: string) => r.steps.find(([s]) => s === step)?.[1] ?? NaN;
const pagerankSeconds = at('comparing PageRank') - at('PageRank of A');
const beyond = r.wall - pagerankSeconds;
const result = {
  pages,
  links,
  wallSeconds: r.wall,
  pagerankSeconds,
  secondsBeyondPageRank: beyond,
  peakRssMiB: r.hwmKb / 1024,
  steps: r.steps,
  pagesSets: r.report.pages,
  targets: { rssUnder1_5GB: r.hwmKb / 1024 <= 1536, within60sBeyondPageRank: beyond <= 60 },
};
if (flags.json) process.stdout.write(JSON.stringify(result) + '\n');
else {
  say(`compare of two ${pages.toLocaleString('en-US')}-page crawls: ${r.wall.toFixed(1)} s (PageRank ${pagerankSeconds.toFixed(1)} s, the rest ${beyond.toFixed(1)} s), peak RSS ${(r.hwmKb / 1024).toFixed(0)} MiB`);
  for (const [s, t] of r.steps) say(`  ${t.toFixed(1).padStart(6)} s  ${s}`);
  say(`targets: RSS <= 1.5 GB ${result.targets.rssUnder1_5GB ? 'met' : 'MISSED'}; <= 60 s beyond PageRank ${result.targets.within60sBeyondPageRank ? 'met' : 'MISSED'}`);
}
if (!flags.keep) rmSync(dir, { recursive: true, force: true });
