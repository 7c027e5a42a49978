import { badOption } from '../errors.js';
import { formatSeconds } from '../reproduce/report.js';
import { reproduce } from '../reproduce/runner.js';
import { SCALES } from '../reproduce/scale.js';
import { PAPERS, type Paper } from '../reproduce/steps.js';
import { choiceFlag, listFlag } from './args.js';
import { defineCommand } from './command.js';

const USAGE = `crawlbench reproduce --paper castillo|cho|cao|turk|all [--graph SOURCE ...] --out DIR [options]

Runs the four papers' experiments as the papers set them up (docs/design.md section 8) and writes
each table and figure into DIR as CSV and as an SVG chart, the paper's own numbers beside
crawlbench's, and DIR/report.md naming every setting and where it differs from the paper
(DIR/summary.json holds the same as data). Each step calls what simulate, partition and crawl
call, and the report prints the command that gives the same numbers on its own:
  castillo   Table 4.1 (w = 15 s, c = 1, r = 1; Kendall's tau on a 5,000-page sample and over
             all pages), Figure 4.7 (r = 1, 64, 256), Table 4.2 and Figure 4.8 (speed-ups)
  cho        Graphs 1-5: Crawl & Stop (with Threshold) on IB (G = 100), IR (d = 0.9, G = 13) and
             one site of about 1,100 pages (G = 5), its histogram of backlinks
  cao        Figure 4 (HTTP/1.0, keep-alive, pipelining as connections grow) and Figure 7 (the
             four strategies on Zipf qualities), crawls of the test web on loopback
  turk       Tables 6.2-6.5 (gpmetis, Zoltan PHG and hashing at the page and site levels)
  --paper P[,P...]       the papers, or all (repeatable); all prints each step's time
  --graph SOURCE         a dataset folder or crawl database for castillo, cho and turk
                         (repeatable: each in DIR/NAME); default: the generated national web of
                         the scale (made once into the cache folder, reproduce/NAME)
  --out DIR              where the files go (made if absent)
  --scale default|small  default: simulations on a 1M-page national web of 20,000 sites, Türk's
                         tables on 100,000 pages with one run per partitioner and K, Cao's crawls
                         on a 20,000-page test web (up to 45 minutes on 2 cores); small: a few
                         thousand pages each, for a first look and the tests`;

const OPTIONS = {
  paper: { type: 'string', multiple: true },
  graph: { type: 'string', multiple: true },
  out: { type: 'string' },
  scale: { type: 'string' },
} as const;

export const reproduceCommand = defineCommand({
  name: 'reproduce',
  summary: "run the four papers' experiments as they set them up: tables and figures beside the papers' numbers",
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}"`);
    const names = listFlag(flags, 'paper');
    if (names.length === 0) throw badOption('--paper', `required: ${PAPERS.join(', ')} or all`);
    for (const n of names) if (n !== 'all' && !(PAPERS as readonly string[]).includes(n)) throw badOption('--paper', `"${n}" is not one of ${PAPERS.join(', ')}, all`);
    const papers: Paper[] = names.includes('all') ? [...PAPERS] : PAPERS.filter((p) => names.includes(p));
    if (!flags.out) throw badOption('--out', 'required: the folder the tables, figures and report go to');
    const scale = SCALES[choiceFlag(flags, 'scale', ['default', 'small'] as const) ?? 'default'];
    const timing = names.includes('all') || papers.length > 1;
    const summary = await reproduce({
      papers, graphs: flags.graph ?? [], outDir: flags.out, scale,
      log: (msg) => process.stderr.write(msg + '\n'),
      onStep: (paper, step, seconds, cpu) => {
        if (timing) process.stdout.write(`${paper} ${step}: ${formatSeconds(seconds)}${cpu === undefined ? '' : ` (CPU ${formatSeconds(cpu)})`}\n`);
      },
    });
    const files = summary.steps.reduce((n, s) => n + s.items.length, 0);
    const cpu = summary.cpuSeconds === undefined ? '' : ` (CPU ${formatSeconds(summary.cpuSeconds)})`;
    process.stdout.write(`${summary.steps.length} steps, ${files} tables and figures in ${formatSeconds(summary.seconds)}${cpu}; the report: ${flags.out}/report.md\n`);
    return 0;
  },
});
