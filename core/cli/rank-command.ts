import { badOption } from '../errors.js';
import { DEFAULT_DAMPING, DEFAULT_TOLERANCE } from '../ranking/pagerank.js';
import { rankCrawl, type RankRunSummary } from '../ranking/rank-crawl.js';
import { CrawlStore } from '../store/crawl-store.js';
import { rangeFlag } from './args.js';
import { defineCommand } from './command.js';

const USAGE = `crawlbench rank DB [--damping D] [--tolerance T] [--site] [--json]

Computes the PageRank of the crawl's link graph (every known page a node, every link an
edge) and stores it in the database as a new run; eval and the historical policies use
the latest run. Prints iterations, times and the top 10 pages.
  --damping D      damping factor in [0, 1] (default ${DEFAULT_DAMPING})
  --tolerance T    stop when the L1 change of an iteration is below T (default ${DEFAULT_TOLERANCE})
  --site           also rank the site graph (links between sites, weighted by count)
  --json           print one JSON object on stdout`;

const OPTIONS = {
  damping: { type: 'string' },
  tolerance: { type: 'string' },
  site: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const rankCommand = defineCommand({
  name: 'rank',
  summary: "compute and store the PageRank of a crawl's pages (and sites)",
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    const db = onePositional(positionals);
    const damping = rangeFlag(flags, 'damping', (x) => x >= 0 && x <= 1, 'a number in [0, 1]') ?? DEFAULT_DAMPING;
    const tolerance = rangeFlag(flags, 'tolerance', (x) => x > 0, 'a number > 0') ?? DEFAULT_TOLERANCE;
    // Opened for writing: stores the run, and migrates an older crawl file first.
    const store = CrawlStore.open(db);
    let result: ReturnType<typeof rankCrawl>;
    try {
      result = rankCrawl(store.db, { damping, tolerance, site: !!flags.site });
    } finally {
      store.close();
    }
    if (flags.json) process.stdout.write(JSON.stringify({ db, ...result }) + '\n');
    else {
      const parts = [runText('pages', result.page)];
      if (result.site) parts.push(runText('sites', result.site));
      process.stdout.write(parts.join('\n\n') + '\n');
    }
    return 0;
  },
});

/** The single DB argument of rank and eval. */
export function onePositional(positionals: string[]): string {
  if (positionals.length === 0) throw badOption('DB', 'required (the crawl database file)');
  if (positionals.length > 1) throw badOption('arguments', `one database expected, got ${positionals.length}: ${positionals.join(' ')}`);
  return positionals[0]!;
}

function runText(label: string, r: RankRunSummary): string {
  const lines = [
    `PageRank of ${label}: run ${r.runId}, ${r.nodes} nodes, ${r.edges} edges`,
    `  damping ${r.damping}, ${r.iterations} iterations (L1 change ${r.delta.toExponential(2)} < ${r.tolerance})`,
    `  time: load ${r.loadSeconds.toFixed(2)} s, compute ${r.computeSeconds.toFixed(2)} s, store ${r.storeSeconds.toFixed(2)} s`,
    `  top ${r.top.length}:`,
    ...r.top.map((t, i) => `  ${String(i + 1).padStart(4)}  ${t.value.toExponential(4)}  ${t.name}`),
  ];
  return lines.join('\n');
}
