/**
 * docs/results.md's reproduced tables and figures, regenerated (issue 27):
 *
 *   npm run results [-- --out DIR] [-- --from DIR]
 *
 * Runs `crawlbench reproduce --paper all` at its default scale into DIR (default
 * bench/out/reproduce; up to 45 minutes on 2 cores), or with --from reads an earlier run's
 * DIR/summary.json instead; copies the run's CSV and SVG files into docs/reproduce/, and rewrites
 * every generated block of docs/results.md (between its `<!-- reproduce: ... -->` markers) from
 * the summary, so that every number there comes from a command the block prints. The analysis
 * around the blocks is left as written.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ReproduceSummary } from '../core/reproduce/output.js';
import { regenerate } from '../core/reproduce/results-doc.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: flags } = parseArgs({ options: { out: { type: 'string' }, from: { type: 'string' } } });
const runDir = resolve(flags.from ?? flags.out ?? join(root, 'bench', 'out', 'reproduce'));
const doc = join(root, 'docs', 'results.md');
const files = join(root, 'docs', 'reproduce');

if (flags.from === undefined) {
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'crawlbench.js'), 'reproduce', '--paper', 'all', '--out', runDir], { stdio: 'inherit' });
    child.on('close', done);
  });
  if (code !== 0) {
    process.stderr.write(`crawlbench reproduce exited with ${code}: docs/results.md left as it was\n`);
    process.exit(1);
  }
}

const summaryFile = join(runDir, 'summary.json');
if (!existsSync(summaryFile)) {
  process.stderr.write(`no ${summaryFile}: run npm run results without --from first\n`);
  process.exit(1);
}
const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as ReproduceSummary;

// The figures and tables the blocks link to, as the run wrote them (CSV and SVG; PNGs stay out of the repository).
rmSync(files, { recursive: true, force: true });
for (const step of summary.steps) {
  const to = join(files, step.dir);
  mkdirSync(to, { recursive: true });
  const from = join(runDir, step.dir);
  const ids = new Set(step.items.map((i) => i.id));
  for (const f of readdirSync(from)) {
    const m = /^(.+)\.(csv|svg)$/.exec(f);
    if (m && ids.has(m[1]!)) copyFileSync(join(from, f), join(to, f));
  }
}

const { doc: text, added } = regenerate(readFileSync(doc, 'utf8'), summary, 'reproduce');
writeFileSync(doc, text);
process.stdout.write(`docs/results.md: ${summary.steps.length} steps regenerated from ${summaryFile}${added.length ? `; new blocks added at the end of the section: ${added.join(', ')}` : ''}\n`);
