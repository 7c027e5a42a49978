import { typedNumber } from './eval-measure-flags.js';
import type { CompareReport } from '../compare/report.js';
import { CompareRequestSchema } from '../compare/request-schema.js';
import { checkWith } from '../config/request-words.js';
import { badOption } from '../errors.js';
import { defineCommand } from './command.js';
import { checkOutputTarget } from '../store/output-guard.js';

const USAGE = `crawlbench compare A.db B.db [--json] [--out DIR] [--force] [--top N] [--host HOST]

Compares crawl B (usually the later one) with crawl A: settings side by side; the pages and
sites in each and in both (a page is in a crawl when it was fetched with status 200); per
site growth, added, removed and changed pages; status and content changes of common pages;
new and vanished links; how PageRank moved (Kendall's tau-b, Spearman's rho, top-k overlap,
risers and fallers, the share of B's PageRank held by pages A had); both crawls' cumulative
PageRank curves and throughput timelines. Reads both crawls as of one moment each and
writes into neither (PageRank is computed in memory when a crawl has no stored run).
  --json           print the whole report as one JSON object on stdout
  --out DIR        also write every table as a CSV file into DIR (refused if DIR exists)
  --force          replace an existing --out DIR
  --top N          risers, fallers, sites and added, removed, changed pages listed (default 20)
  --host HOST      per-page figures (sets, changes, links, PageRank) for this host only
  --quiet          no progress on stderr`;

const OPTIONS = {
  json: { type: 'boolean' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  top: { type: 'string' },
  host: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

export const compareCommand = defineCommand({
  name: 'compare',
  summary: 'compare two crawls: pages, sites, changes, links, PageRank, curves',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length !== 2) throw badOption('arguments', `two crawl databases expected (A.db B.db), got ${positionals.length}`);
    const [a, b] = positionals as [string, string];
    // The flags as the compare schema's input (compare/request-schema.ts, the API's and the view's): its refusal, at the flag.
    const checked = checkWith(CompareRequestSchema, { top: typedNumber(flags.top), host: flags.host }, 'compare');
    if (!checked.ok) throw badOption(`--${checked.refusals[0]!.field}`, checked.refusals[0]!.problem);
    const { top, host } = checked.value;
    // Before the comparison: a folder under a file (a stack trace after minutes of work before), or one of the crawls.
    if (flags.out) checkOutputTarget('--out', flags.out, [a, b], false, true);
    const quiet = !!flags.quiet;
    // Loaded when run, not at start-up (the command table imports every command's file).
    const [{ compareCrawls }, { writeReportFiles }] = await Promise.all([import('../compare/compare.js'), import('../compare/report-files.js')]);
    const report = await compareCrawls(a, b, {
      top,
      host,
      progress: (step, f) => {
        if (!quiet) process.stderr.write(`compare: ${step} (${Math.round(f * 100)}%)\n`);
      },
    });
    if (flags.out) writeReportFiles(report, flags.out, !!flags.force);
    process.stdout.write(flags.json ? JSON.stringify(report) + '\n' : reportText(report, top) + '\n');
    return 0;
  },
});

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '–');
const num = (x: number) => (Number.isFinite(x) ? x.toLocaleString('en-US') : '–');
const fix = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** The report for people: the headline figures, then the largest sites. */
export function reportText(r: CompareReport, top: number): string {
  const p = r.pagerank;
  const lines = [
    `A: ${r.a.path} (${r.a.policy}, ${r.a.state})`,
    `B: ${r.b.path} (${r.b.policy}, ${r.b.state})`,
    ...r.warnings.map((w) => `warning: ${w}`),
    ...r.notes.map((n) => `note: ${n}`),
    '',
    `pages${r.host ? ` of ${r.host}` : ''}: A ${num(r.pages.inA)}, B ${num(r.pages.inB)}; only A ${num(r.pages.onlyA)}, only B ${num(r.pages.onlyB)}, both ${num(r.pages.both)} (Jaccard ${fix(r.pages.jaccard)})`,
    `sites: A ${num(r.sites.inA)}, B ${num(r.sites.inB)}; only A ${num(r.sites.onlyA)}, only B ${num(r.sites.onlyB)}, both ${num(r.sites.both)} (Jaccard ${fix(r.sites.jaccard)})`,
    `common pages: ${num(r.common.pages)}, content changed ${num(r.common.contentChanged)}, size changed ${num(r.common.sizeChanged)}, http in one and https in the other ${num(r.common.acrossSchemes)}; not modified (304) in A ${num(r.common.notModifiedA)}, in B ${num(r.common.notModifiedB)}`,
    `links out of common pages: A ${num(r.links.linksA)}, B ${num(r.links.linksB)}; new ${num(r.links.added)} (${pct(r.links.newShare)} of B's), vanished ${num(r.links.vanished)}`,
    `PageRank (${p.sourceA} / ${p.sourceB}): tau-b ${fix(p.kendallTauB)}, rho ${fix(p.spearmanRho)}, top-100 overlap ${pct(p.topK[0]!.overlap)}, top-1000 overlap ${pct(p.topK[1]!.overlap)}`,
    `B's pages that A had: ${pct(p.pagesShareInA)}, holding ${pct(p.pageRankShareInA)} of B's PageRank`,
    `average cumulative PageRank: A ${fix(p.averageCumulativeA)}, B ${fix(p.averageCumulativeB)}`,
    '',
    'status changes of pages in both:',
    ...r.statusChanges.filter((s) => s.from !== s.to).slice(0, 10).map((s) => `  ${s.from} -> ${s.to}: ${num(s.pages)}`),
    '',
    `sites (largest ${Math.min(top, r.perSite.length)}): pages A, B, added, removed, changed`,
    ...r.perSite.slice(0, top).map((s) => `  ${s.site}: ${num(s.pagesA)}, ${num(s.pagesB)}, +${num(s.added)}, -${num(s.removed)}, ~${num(s.changed)}`),
  ];
  if (p.risers.length > 0) lines.push('', 'biggest risers:', ...p.risers.slice(0, 5).map((m) => `  ${m.url} (x${fix(2 ** m.change, 2)})`));
  if (p.fallers.length > 0) lines.push('biggest fallers:', ...p.fallers.slice(0, 5).map((m) => `  ${m.url} (x${fix(2 ** m.change, 2)})`));
  return lines.join('\n');
}
