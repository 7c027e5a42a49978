/**
 * What export-graph, partition-eval and partition share: the graph source as `simulate --graph`
 * takes it, the page size for pages without one, and the model names.
 */
import { formatBytes } from '../config/units.js';
import { badOption } from '../errors.js';
import { DEFAULT_PAGE_BYTES, loadLinkGraph, type LinkGraph } from '../graph/link-graph.js';
import { MODELS, type GraphModel } from '../graph/models.js';
import { choiceFlag, sizeFlag } from './args.js';

export const GRAPH_OPTIONS = {
  graph: { type: 'string' },
  'default-size': { type: 'string' },
  'fetched-only': { type: 'boolean' },
} as const;

export const GRAPH_USAGE = `  --graph SOURCE         a crawl database (every page known to it, fetched or not) or a dataset
                         folder (pages.tsv.gz: id, URL and optionally the size in bytes;
                         links.tsv.gz), as simulate --graph takes it
  --default-size B       bytes of a page whose source records no size (default ${DEFAULT_PAGE_BYTES},
                         9.89 KB: the average page of the thesis's crawl)
  --fetched-only         a crawl: only its fetched pages and the links between them`;

interface GraphFlags {
  graph?: string;
  'default-size'?: string;
  'fetched-only'?: boolean;
}

export function loadGraphFlag(flags: GraphFlags): LinkGraph {
  if (!flags.graph) throw badOption('--graph', 'required: a crawl database or a dataset folder (pages.tsv.gz + links.tsv.gz)');
  const defaultSize = sizeFlag(flags, 'default-size');
  if (defaultSize !== undefined && defaultSize <= 0) throw badOption('--default-size', 'a page costs at least one byte');
  return loadLinkGraph(flags.graph, { defaultSize, fetchedOnly: flags['fetched-only'] ?? false });
}

export function modelFlag(flags: { model?: string }): GraphModel {
  const m = choiceFlag(flags, 'model', MODELS);
  if (m === undefined) throw badOption('--model', `required: ${MODELS.join(', ')}`);
  return m;
}

/** One line on where sizes come from. */
export function sizesLine(g: LinkGraph): string {
  if (g.sizesKnown === g.n) return `page sizes: recorded for all ${g.n} pages`;
  const what = g.sizesKnown === 0 ? `none recorded: every page counts` : `recorded for ${g.sizesKnown} of ${g.n} pages; the others count`;
  return `page sizes: ${what} ${g.defaultSize} bytes (${formatBytes(g.defaultSize)}; --default-size)`;
}
