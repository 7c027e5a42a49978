import { badOption } from '../errors.js';
import { checkParts, hashAssignment, readPartVector } from '../graph/assignment.js';
import { evaluateAssignment, type PartitionMetrics } from '../graph/evaluate.js';
import { checkHasLinks } from '../graph/export-graph.js';
import { linkCount } from '../graph/link-graph.js';
import { vertexCount, vertexNoun } from '../graph/models.js';
import { HASH_STATEMENT } from '../graph/partition.js';
import { intFlag } from './args.js';
import { defineCommand } from './command.js';
import { GRAPH_OPTIONS, GRAPH_USAGE, loadGraphFlag, modelFlag, sizesLine } from './graph-flags.js';

const USAGE = `crawlbench partition-eval --graph SOURCE --model M --parts K --assign hash|FILE [--json]

Scores an assignment of pages or sites to K processors with the thesis's metrics (docs/design.md
section 6), counted on pages and links whatever the model: storage and request imbalance
((Wmax - Wavg) / Wavg, bytes and pages), communication volume (bytes of the URLs of links that
cross parts), messages (distinct (page, remote part) pairs: the connectivity - 1 cut), the
share of links inside one part, and the sites split across parts.
  --model M              page, site, page-hypergraph or site-hypergraph: whose vertices FILE assigns
  --parts K              processors (2 .. the model's vertex count)
  --assign hash|FILE     FILE: one 0-based part per line for each vertex in the order of the id map
                         (as gpmetis, the Zoltan driver and KaHyPar write them); hash: ${HASH_STATEMENT}
${GRAPH_USAGE}
  --json                 print one JSON object on stdout`;

const OPTIONS = {
  ...GRAPH_OPTIONS,
  model: { type: 'string' },
  parts: { type: 'string' },
  assign: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const partitionEvalCommand = defineCommand({
  name: 'partition-eval',
  summary: 'score an assignment of pages or sites to K processors: imbalance, volume, messages',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}"`);
    const model = modelFlag(flags);
    const k = intFlag(flags, 'parts', 0);
    if (k === undefined) throw badOption('--parts', 'required: the number of processors K');
    if (!flags.assign) throw badOption('--assign', 'required: hash, or a file with one 0-based part per line');
    const g = loadGraphFlag(flags);
    try {
      checkHasLinks(g);
      checkParts(g, model, k);
      const vector = flags.assign === 'hash' ? hashAssignment(g, model, k) : readPartVector(flags.assign, vertexCount(g, model), k);
      const metrics = evaluateAssignment(g, model, k, vector);
      const out = { source: g.source, model, assign: flags.assign, peakRssBytes: process.resourceUsage().maxRSS * 1024, ...(flags.assign === 'hash' ? { hash: HASH_STATEMENT } : {}), pages: g.n, links: linkCount(g), sites: g.sites.length, ...metrics };
      if (flags.json) process.stdout.write(JSON.stringify(out) + '\n');
      else {
        const head = `${model} model of ${g.source} (${g.n} pages, ${linkCount(g)} links, ${g.sites.length} sites; ${vertexCount(g, model)} ${vertexNoun(model)}s assigned), K = ${k}`;
        const how = flags.assign === 'hash' ? `hash: ${HASH_STATEMENT}` : flags.assign;
        process.stdout.write([head, `  assignment            ${how}`, `  ${sizesLine(g)}`, ...metricLines(metrics, g.sites.length)].join('\n') + '\n');
      }
    } finally {
      g.close();
    }
    return 0;
  },
});

export function metricLines(r: PartitionMetrics, sites: number): string[] {
  return [
    `  storage imbalance     ${r.storageImbalance.toFixed(3)} %  ((Wmax - Wavg) / Wavg of the bytes per part)`,
    `  request imbalance     ${r.requestImbalance.toFixed(3)} %  (of the pages per part)`,
    `  communication volume  ${r.volume} bytes  (URLs of the links that cross parts)`,
    `  messages              ${r.messages}  (distinct (page, remote part) pairs)`,
    `  links inside a part   ${(r.linksInside * 100).toFixed(2)} %`,
    `  sites split           ${r.sitesSplit} of ${sites}`,
  ];
}
