import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCrawl } from '../pagerank/generate-crawl.js';

/**
 * The graph exports of a large synthetic crawl (issue 17: a 5M-page, 50M-link crawl exports
 * with peak RSS at most 2 GB): each model in its partitioner's format, and GraphML with every
 * URL, written by `crawlbench export-graph` in a child process of its own, whose time and peak
 * RSS (its own process.resourceUsage(), all threads) are printed; then partition-eval of the
 * hash baseline. The crawl is generated once into bench/out/ by bench/pagerank/generate-crawl.ts
 * (in a child process, so its memory does not count) and reused; each output is removed after
 * it is measured (the page graph in METIS is about a gigabyte).
 *
 *   npm run bench:graph [-- --pages N --links M --only page-metis,site-metis --fresh --json]
 */
const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '5000000' },
    links: { type: 'string', default: '50000000' },
    only: { type: 'string' },
    fresh: { type: 'boolean' },
    json: { type: 'boolean' },
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
const bin = join(root, 'bin', 'crawlbench.js');
const outDir = join(root, 'bench', 'out', `graph-${pages}-${links}`);
mkdirSync(outDir, { recursive: true });
const dbPath = join(root, 'bench', 'out', `graph-${pages}-${links}.db`);
if (flags.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
if (!existsSync(dbPath)) {
  process.stderr.write(`generating ${dbPath} (once; reused afterwards)...\n`);
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--pages', String(pages), '--links', String(links), '--generate-only', dbPath], { stdio: 'inherit' });
  if (child.status !== 0) process.exit(child.status ?? 1);
}

interface Case {
  name: string;
  args: string[];
  out?: string;
}
const exportCase = (model: string, format: string): Case => {
  const out = join(outDir, `${model}.${format}`);
  return { name: `${model}-${format}`, args: ['export-graph', '--graph', dbPath, '--model', model, '--format', format, '--out', out, '--force', '--json'], out };
};
const CASES: Case[] = [
  exportCase('page', 'metis'),
  exportCase('site', 'metis'),
  exportCase('page-hypergraph', 'hmetis'),
  exportCase('site-hypergraph', 'hmetis'),
  exportCase('page-hypergraph', 'patoh'),
  exportCase('page', 'graphml'),
  { name: 'eval-page-hash-64', args: ['partition-eval', '--graph', dbPath, '--model', 'page', '--parts', '64', '--assign', 'hash', '--json'] },
];
const only = flags.only?.split(',');
const cases = only ? CASES.filter((c) => only.includes(c.name)) : CASES;

interface Result {
  name: string;
  seconds: number;
  peakRssMiB: number | null;
  fileMiB: number | null;
  vertices?: number;
  edges?: number;
  ok: boolean;
  error?: string;
}

/** Runs the CLI; its JSON says its own peak RSS (maxRSS of process.resourceUsage()). */
function run(c: Case): Promise<Result> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...c.args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.on('close', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (code !== 0) return done({ name: c.name, seconds, peakRssMiB: null, fileMiB: null, ok: false, error: stderr.trim().slice(-500) });
      const r = JSON.parse(stdout) as { peakRssBytes?: number; fileBytes?: number; vertices?: number; edges?: number };
      if (c.out) for (const p of [c.out, `${c.out}.ids.tsv`]) rmSync(p, { force: true });
      const mib = (b: number | undefined) => (b === undefined ? null : Math.round(b / 2 ** 20));
      done({ name: c.name, seconds, peakRssMiB: mib(r.peakRssBytes), fileMiB: mib(r.fileBytes), vertices: r.vertices, edges: r.edges, ok: true });
    });
  });
}

const results: Result[] = [];
for (const c of cases) {
  process.stderr.write(`${c.name}...\n`);
  const r = await run(c);
  results.push(r);
  process.stderr.write(`  ${r.ok ? `${r.seconds.toFixed(1)} s, peak RSS ${r.peakRssMiB} MiB` : `failed: ${r.error}`}\n`);
}
const load = loadavg()[0]!.toFixed(2);
if (flags.json) process.stdout.write(JSON.stringify({ pages, links, db: dbPath, load, results }) + '\n');
else {
  const lines = [`graph exports of a generated crawl: ${pages} pages, ${links} links (${dbPath}); load average ${load}`, '', '  case                      seconds   peak RSS   file      vertices        edges/nets'];
  for (const r of results) {
    const cells = [r.name.padEnd(24), r.seconds.toFixed(1).padStart(9), (r.peakRssMiB === null ? '-' : `${r.peakRssMiB} MiB`).padStart(10), (r.fileMiB === null ? '-' : `${r.fileMiB} MiB`).padStart(9), String(r.vertices ?? '-').padStart(12), String(r.edges ?? '-').padStart(14)];
    lines.push('  ' + cells.join(' ') + (r.ok ? (r.peakRssMiB !== null && r.peakRssMiB > 2048 ? '   over the 2 GB target' : '') : `   FAILED: ${r.error}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
}
