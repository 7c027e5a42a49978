/**
 * The thesis's metrics of an assignment (docs/design.md section 6), always counted on pages and
 * links, whatever the model: a site model's assignment puts each page with its site. So the
 * four models are compared on the same figures.
 *
 * - storage and request imbalance: (Wmax - Wavg) / Wavg in %, W a part's bytes or pages;
 * - communication volume: the bytes of the URLs of the links that cross parts (a link costs its
 *   target's URL, which the source's processor sends the target's);
 * - messages: distinct (page, remote part) pairs, the connectivity - 1 cut of the page
 *   hypergraph: a page whose links reach three other parts sends three messages, however many
 *   URLs each carries;
 * - the share of links inside one part, and the sites whose pages are in more than one part.
 */
import type { LinkGraph } from './link-graph.js';
import { isSiteModel, type GraphModel } from './models.js';
import type { PartitionMetrics } from './report.js';

export type { PartitionMetrics } from './report.js';

/** Each page's part: the vertex's own (page models) or its site's (site models). */
export function pageParts(g: LinkGraph, m: GraphModel, parts: Uint32Array): Uint32Array {
  if (!isSiteModel(m)) return parts;
  const out = new Uint32Array(g.n);
  for (let v = 0; v < g.n; v++) out[v] = parts[g.siteOf[v]!]!;
  return out;
}

export function imbalance(weights: Float64Array): number {
  let max = 0;
  let sum = 0;
  for (const w of weights) {
    sum += w;
    if (w > max) max = w;
  }
  const avg = sum / weights.length;
  return avg > 0 ? ((max - avg) / avg) * 100 : 0;
}

export function evaluateAssignment(g: LinkGraph, m: GraphModel, k: number, parts: Uint32Array): PartitionMetrics {
  const part = pageParts(g, m, parts);
  const bytes = new Float64Array(k);
  const pages = new Float64Array(k);
  const stamp = new Int32Array(k).fill(-1);
  const firstPart = new Int32Array(g.sites.length).fill(-1);
  const split = new Uint8Array(g.sites.length);
  let volume = 0;
  let messages = 0;
  let inside = 0;
  for (let u = 0; u < g.n; u++) {
    const p = part[u]!;
    bytes[p]! += g.sizes[u]!;
    pages[p]!++;
    const s = g.siteOf[u]!;
    if (firstPart[s] === -1) firstPart[s] = p;
    else if (firstPart[s] !== p) split[s] = 1;
    for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) {
      const t = g.targets[i]!;
      const q = part[t]!;
      if (q === p) {
        inside++;
        continue;
      }
      volume += g.urlBytes[t]!;
      if (stamp[q] !== u) {
        stamp[q] = u;
        messages++;
      }
    }
  }
  const links = g.offsets[g.n]!;
  let sitesSplit = 0;
  for (const x of split) sitesSplit += x;
  return {
    parts: k,
    storageImbalance: imbalance(bytes),
    requestImbalance: imbalance(pages),
    volume,
    messages,
    linksInside: links > 0 ? inside / links : 1,
    sitesSplit,
  };
}
