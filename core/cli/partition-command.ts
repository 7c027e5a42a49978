import { decimal } from '../config/units.js';
import { checkCsvTargets, writeLines } from './eval-measure-flags.js';
import { checkWith } from '../config/request-words.js';
import { badOption } from '../errors.js';
import { MODELS } from '../graph/models.js';
import { HASH_STATEMENT, partition, type PartitionReport } from '../graph/partition.js';
import { PartitionRequestSchema } from '../graph/request-schema.js';
import { listFlag } from './args.js';
import { defineCommand } from './command.js';
import { GRAPH_OPTIONS, GRAPH_USAGE, loadGraphFlag, sizesLine } from './graph-flags.js';
import { partitionCsv, partitionTables } from './partition-tables.js';

const ZOLTAN_PACKAGES = 'apt-get install gcc libtrilinos-zoltan-dev libopenmpi-dev';

const USAGE = `crawlbench partition --graph SOURCE --model M [--model M ...] --parts 2,4,...,256 [options]

Partitions a crawl's link graph among K processors as the thesis does (docs/design.md section 6)
and prints its tables: gpmetis on the page and site graphs (GP (gpmetis): -ptype=kway, 5%
imbalance on both weights, objective the edge cut = communication volume), Zoltan's PHG on the
page and site hypergraphs (HP (Zoltan PHG): connectivity-1 = messages, 5% imbalance, one vertex
weight: the size), KaHyPar beside it where it is installed (HP (KaHyPar): km1, epsilon 0.05),
and hashing (${HASH_STATEMENT}). Each partitioner runs once per seed 1..N; the tables give the
mean and the best run, every column named by the partitioner that made it. A missing
partitioner leaves its columns empty and says how to get it; crawlbench compiles its Zoltan
driver on first use (Debian: ${ZOLTAN_PACKAGES}).
  --model M[,M...]       page, site, page-hypergraph, site-hypergraph, or all (repeatable)
  --parts K[,K...]       numbers of processors: a list, and "..." continues a doubling or even
                         step: 2,4,...,256 = 2 4 8 16 32 64 128 256
  --runs N               seeds per partitioner and K (default 8)
  --kahypar PATH         the KaHyPar program (default: CRAWLBENCH_KAHYPAR, then KaHyPar on PATH,
                         then CACHE/kahypar/bin/KaHyPar; its presets are looked for in
                         ../config beside it). CACHE: CRAWLBENCH_CACHE or ~/.cache/crawlbench
${GRAPH_USAGE}
  --csv FILE             one row per level, model, method and K: mean and best of every metric
  --json                 print one JSON object on stdout`;

const OPTIONS = {
  ...GRAPH_OPTIONS,
  model: { type: 'string', multiple: true },
  parts: { type: 'string' },
  runs: { type: 'string' },
  kahypar: { type: 'string' },
  csv: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const partitionCommand = defineCommand({
  name: 'partition',
  summary: 'partition a crawl among K processors with METIS and Zoltan PHG (and KaHyPar) against hashing (the thesis\'s tables)',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}"`);
    const { models, parts, runs } = checkedPartitionFlags(flags);
    checkCsvTargets(flags);
    const g = loadGraphFlag(flags);
    // Ctrl-C (or a kill) cancels: the partitioner under way is killed with us, not orphaned.
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let report: PartitionReport;
    try {
      report = await partition(g, { models, parts, runs, kahypar: flags.kahypar, signal: controller.signal, onProgress: (p) => process.stderr.write(`[${p.done}/${p.total}] ${p.step}\n`) });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      g.close();
    }
    for (const t of report.tools) if (t.missing) process.stderr.write(`crawlbench partition: ${t.missing}\n`);
    if (flags.csv !== undefined) writeLines('--csv', flags.csv, partitionCsv(report));
    if (flags.json) process.stdout.write(JSON.stringify(report) + '\n');
    else process.stdout.write(reportHead(report, sizesLine(g)) + '\n\n' + partitionTables(report) + '\n');
    return 0;
  },
});

/** The flags as the partition schema's input (graph/request-schema.ts, the form's and the API's): its refusal, at the flag. */
function checkedPartitionFlags(flags: { model?: string | string[]; parts?: string; runs?: string }) {
  const names = listFlag(flags, 'model');
  if (!flags.parts) throw badOption('--parts', 'required: numbers of processors, e.g. 2,4,...,256');
  const input = {
    models: names.includes('all') ? [...MODELS] : names,
    parts: parseParts(flags.parts),
    runs: flags.runs === undefined ? 8 : decimal(flags.runs),
  };
  const checked = checkWith(PartitionRequestSchema, input, 'partition');
  if (checked.ok) return checked.value;
  const first = checked.refusals[0]!;
  throw badOption(first.field === 'models' ? '--model' : `--${first.field}`, first.problem);
}

/** "2,4,...,256": a list where "..." continues the step of the two numbers before it (doubling or even). */
export function parseParts(text: string): number[] {
  const tokens = text.split(',').map((t) => t.trim()).filter(Boolean);
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '...' || t === '…') {
      const [a, b] = out.slice(-2);
      const end = decimal(tokens[i + 1] ?? '');
      if (a === undefined || b === undefined || !Number.isInteger(end)) throw badOption('--parts', `"..." needs two numbers before it and one after (2,4,...,256)`);
      const next = b === a * 2 ? (x: number) => x * 2 : (x: number) => x + (b - a);
      if (b <= a) throw badOption('--parts', `"..." after ${a},${b} would not grow`);
      for (let x = next(b); x < end; x = next(x)) out.push(x);
      continue;
    }
    const k = decimal(t);
    if (!Number.isInteger(k)) throw badOption('--parts', `"${t}" is not a whole number of processors`);
    out.push(k);
  }
  if (out.length === 0) throw badOption('--parts', 'no number of processors given');
  return [...new Set(out)].sort((x, y) => x - y);
}

function reportHead(r: PartitionReport, sizes: string): string {
  const tools = r.tools.map((t) => `${t.name}: ${t.path ?? 'missing (see the line above)'}`).join('; ');
  const hypergraphs = r.models.some((m) => m.endsWith('hypergraph'));
  const graphs = r.models.some((m) => !m.endsWith('hypergraph'));
  return [
    `partition of ${r.source}: ${r.pages} pages, ${r.links} links, ${r.sites} sites; models ${r.models.join(', ')}; K = ${r.parts.join(', ')}`,
    `  ${sizes}`,
    ...(graphs ? [`  GP (gpmetis) = gpmetis -ptype=kway -ubvec="1.05 1.05" on the graph models (vertex weights: size, pages; edge costs: URL bytes)`] : []),
    ...(hypergraphs ? [`  HP (Zoltan PHG) = Zoltan's PHG (crawlbench-phg: PHG_CUT_OBJECTIVE=CONNECTIVITY, IMBALANCE_TOL=1.05, SEED=seed) on the hypergraph models (vertex weight: size)`] : []),
    ...(r.rows.some((x) => x.partitioner === 'KaHyPar') ? [`  HP (KaHyPar) = KaHyPar -o km1 -m direct -e 0.05 on the hypergraph models (vertex weight: size)`] : []),
    `  hash = ${r.hash}`,
    `  ${r.runs} run${r.runs > 1 ? 's (seeds 1..' + r.runs + ') per partitioner: mean, best run in brackets (GP: lowest volume; HP: fewest messages)' : ' (seed 1)'}; every metric counted on pages and links`,
    `  tools: ${tools}; ${r.seconds.toFixed(1)} s`,
  ].join('\n');
}
