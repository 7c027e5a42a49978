import { checkWith } from '../config/request-words.js';
import { formatBytes } from '../config/units.js';
import { badOption } from '../errors.js';
import { checkExport, exportGraph, type ExportResult } from '../graph/export-graph.js';
import { linkCount } from '../graph/link-graph.js';
import { vertexNoun } from '../graph/models.js';
import { GraphExportRequestSchema } from '../graph/request-schema.js';
import { unitName } from '../graph/weight-units.js';
import { defineCommand } from './command.js';
import { checkOutputTarget } from '../store/output-guard.js';
import { GRAPH_OPTIONS, GRAPH_USAGE, loadGraphFlag, sizesLine } from './graph-flags.js';

const USAGE = `crawlbench export-graph --graph SOURCE --model M --format F --out PATH [--force]

Writes a crawl's link graph for a partitioner (docs/design.md section 6), with an id map beside it
(PATH.ids.tsv: vertex id, URL or site, pages, size in bytes and in the unit written). A link
costs the length in bytes of its target's URL (what one processor sends another).
  --model M              page: a vertex per page, weights (size, 1), an edge between pages linked
                         either way costing the URLs of those links; site: a vertex per site,
                         weights (size, pages), links inside a site dropped; page-hypergraph: a net
                         per page holding it and the pages it links to; site-hypergraph: a net
                         per page holding its site and the sites it links to (one-pin nets dropped)
  --format F             metis (graph models: gpmetis, graphchk), hmetis (hypergraphs: KaHyPar,
                         hMETIS; one vertex weight, the size), patoh (hypergraphs: net costs and
                         two cell weights), edgelist (TSV Source/Target/Weight: networkx, Gephi),
                         graphml (networkx, Gephi). Edge lists and GraphML of a hypergraph model
                         hold the directed links its nets come from. Sizes are in KB (rounded up,
                         at least 1), or a coarser unit when KB would overflow METIS's 32 bits
  --out PATH             the graph file; its id map is PATH.ids.tsv
  --force                write over PATH and its id map if they exist
${GRAPH_USAGE}
  --json                 print one JSON object on stdout`;

const OPTIONS = {
  ...GRAPH_OPTIONS,
  model: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const exportGraphCommand = defineCommand({
  name: 'export-graph',
  summary: 'write a crawl\'s page or site graph or hypergraph for METIS, KaHyPar, PaToH, networkx or Gephi',
  usage: USAGE,
  options: OPTIONS,
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}"`);
    // --model and --format are the graph export request's fields (the API's and the Partition view's schema).
    const checked = checkWith(GraphExportRequestSchema, { model: flags.model, format: flags.format }, 'a graph export request');
    if (!checked.ok) throw badOption(`--${checked.refusals[0]!.field}`, checked.refusals[0]!.problem);
    const { model, format } = checked.value;
    if (!flags.out) throw badOption('--out', 'required: the file to write');
    const req = { model, format, out: flags.out, force: flags.force ?? false };
    // Not the graph it reads, a crawl database, or a device, even with --force.
    for (const out of [req.out, `${req.out}.ids.tsv`]) checkOutputTarget('--out', out, flags.graph ? [flags.graph] : [], true);
    checkExport(req); // before the graph is read: an existing output is refused at once
    const g = loadGraphFlag(flags);
    try {
      const result = exportGraph(g, req);
      const peak = process.resourceUsage().maxRSS * 1024;
      if (flags.json) process.stdout.write(JSON.stringify({ source: g.source, pages: g.n, links: linkCount(g), sites: g.sites.length, sizesKnown: g.sizesKnown, defaultSize: g.defaultSize, peakRssBytes: peak, ...result }) + '\n');
      else process.stdout.write(exportText(result, `${g.source}: ${g.n} pages, ${linkCount(g)} links, ${g.sites.length} sites; ${sizesLine(g)}`, peak) + '\n');
    } finally {
      g.close();
    }
    return 0;
  },
});

function exportText(r: ExportResult, source: string, peakRss: number): string {
  const noun = vertexNoun(r.model);
  const what = r.format === 'hmetis' || r.format === 'patoh' ? 'nets' : r.format === 'metis' || r.model === 'page' || r.model === 'site' ? 'edges' : 'links';
  const lines = [
    `wrote the ${r.model} model in ${r.format} format: ${r.out} (${r.vertices} ${noun}s, ${r.edges} ${what}${r.pins !== undefined ? `, ${r.pins} pins` : ''}; ${formatBytes(r.fileBytes)})`,
    `  id map          ${r.idMap} (vertex id 1..${r.vertices} -> ${noun === 'page' ? 'URL' : 'site'})`,
    `  source          ${source}`,
  ];
  if (r.format === 'metis' || r.format === 'hmetis' || r.format === 'patoh') {
    const second = r.format === 'hmetis' ? '' : `, then ${noun === 'page' ? '1 per page' : 'the pages of the site'}`;
    lines.push(`  vertex weights  size in ${unitName(r.sizeUnit)} (${r.sizeUnit} bytes, rounded up, at least 1)${second}`);
    lines.push(r.format === 'metis' ? `  edge weights    total length in ${unitName(r.costUnit)} of the URLs of the links between the two, both directions` : '  net costs       1 (a cut net is a message: cutsize = connectivity - 1)');
  } else lines.push(`  weights         edge weight = total URL length in bytes; the id map's size_${unitName(r.sizeUnit)} is the size in ${r.sizeUnit}-byte units`);
  lines.push(`  time            ${r.seconds.toFixed(1)} s, peak RSS ${formatBytes(peakRss)}`);
  return lines.join('\n');
}
