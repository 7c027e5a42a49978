/**
 * bench/export (issue 16): how fast crawlbench exports a large crawl with content, and in how
 * much memory. Makes a crawl of N pages with stored bodies (make-crawl.ts: realistic sizes,
 * 30% gzip-encoded, 10% duplicate bodies, redirects, 404s, robots.txt), then runs
 * `crawlbench export` once per format in its own process and reports, per format: seconds,
 * rows (pages, or WARC fetches) per second, MB/s written (and for WARC, MB/s of stored content
 * read), and the process's peak RSS against the 500 MB target.
 *
 *   npm run bench:export [-- --pages 1000000 --dir DIR --keep --only warc,warc+cdx,jsonl,csv,parquet,links --json]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeContentCrawl } from './make-crawl.js';

const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000000' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    only: { type: 'string', default: 'warc,jsonl,csv,parquet,links' },
    json: { type: 'boolean' },
  },
});

const BIN = fileURLToPath(new URL('../../../bin/crawlbench.js', import.meta.url));
const RSS_TARGET = 500 * 1024 * 1024;
const pages = Number(flags.pages);
const dir = flags.dir ?? mkdtempSync(join(tmpdir(), 'crawlbench-export-bench-'));
mkdirSync(dir, { recursive: true });
const db = join(dir, `bench-${pages}.db`);
const say = (s: string) => process.stderr.write(s + '\n');

let contentBytes = 0;
if (existsSync(db) && flags.keep) {
  say(`using ${db}`);
} else {
  const t = performance.now();
  say(`making a crawl of ${pages} pages with content in ${db} ...`);
  contentBytes = makeContentCrawl(db, pages).contentBytes;
  say(`  made in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
contentBytes ||= dirBytes(`${db}.content`);

interface Run {
  name: string;
  args: string[];
}
const runs: Run[] = [
  { name: 'warc', args: ['--format', 'warc', '--out', join(dir, 'warc')] },
  { name: 'warc+cdx', args: ['--format', 'warc', '--cdx', '--out', join(dir, 'warc-cdx')] },
  { name: 'jsonl', args: ['--format', 'jsonl', '--out', join(dir, 'pages.jsonl')] },
  { name: 'csv', args: ['--format', 'csv', '--out', join(dir, 'pages.csv')] },
  { name: 'parquet', args: ['--format', 'parquet', '--out', join(dir, 'pages.parquet')] },
  { name: 'links', args: ['--format', 'parquet', '--what', 'links', '--out', join(dir, 'links.parquet')] },
].filter((r) => flags.only!.split(',').includes(r.name));

const results = runs.map((r) => {
  say(`export ${r.name} ...`);
  const p = spawnSync(process.execPath, [BIN, 'export', db, ...r.args, '--force', '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (p.status !== 0) throw new Error(`export ${r.name} failed: ${p.stderr}`);
  const s = JSON.parse(p.stdout) as { seconds: number; rows: number | null; responses: number | null; revisits: number | null; files: Array<{ bytes: number }>; peakRssBytes: number };
  const written = s.files.reduce((n, f) => n + f.bytes, 0);
  const rows = s.rows ?? (s.responses ?? 0) + (s.revisits ?? 0);
  const out = {
    format: r.name, seconds: s.seconds, rows, rowsPerSecond: rows / s.seconds, writtenMB: written / 1e6, writtenMBps: written / 1e6 / s.seconds,
    readMBps: r.name.startsWith('warc') ? contentBytes / 1e6 / s.seconds : null, peakRssMiB: s.peakRssBytes / 2 ** 20, rssTargetMet: s.peakRssBytes <= RSS_TARGET,
    revisits: s.revisits, load: loadavg()[0],
  };
  say(`  ${out.rows} rows in ${out.seconds.toFixed(1)} s: ${out.rowsPerSecond.toFixed(0)}/s, ${out.writtenMBps.toFixed(1)} MB/s written` +
    `${out.readMBps ? `, ${out.readMBps.toFixed(1)} MB/s of content read` : ''}, peak RSS ${out.peakRssMiB.toFixed(0)} MiB`);
  return out;
});

if (flags.json) process.stdout.write(JSON.stringify({ pages, contentMB: contentBytes / 1e6, results }, null, 2) + '\n');
else {
  process.stdout.write(`\nexport of ${pages} pages (${(contentBytes / 1e9).toFixed(2)} GB of stored content)\n`);
  process.stdout.write('format    seconds   rows/s    MB/s out  MB/s in   peak RSS  <=500MB\n');
  for (const r of results) {
    process.stdout.write(`${r.format.padEnd(9)} ${r.seconds.toFixed(1).padStart(7)} ${r.rowsPerSecond.toFixed(0).padStart(8)} ${r.writtenMBps.toFixed(1).padStart(10)} ${(r.readMBps?.toFixed(1) ?? '-').padStart(8)} ${r.peakRssMiB.toFixed(0).padStart(7)} MiB  ${r.rssTargetMet ? 'met' : 'NOT met'}\n`);
  }
}
if (!flags.keep && !flags.dir) rmSync(dir, { recursive: true, force: true });

function dirBytes(d: string): number {
  let n = 0;
  for (const f of readdirSync(d)) n += statSync(join(d, f)).size;
  return n;
}
