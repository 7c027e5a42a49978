/**
 * The thesis's four models of a crawl's link graph (docs/design.md section 6), built on the fly
 * from a LinkGraph so that no model is ever held whole: a writer or an evaluation walks a
 * vertex's neighbours, or the nets, one at a time.
 *
 * - page graph: a vertex per page, weights (bytes, 1); an undirected edge between two pages
 *   linked in either direction, its cost the total URL length of those links (each link costs
 *   its target's URL);
 * - site graph: a vertex per site, weights (total bytes, pages); an edge between two sites, its
 *   cost the total URL length of all links between them; links inside a site dropped;
 * - page hypergraph: a vertex per page, a net per page holding the page and every page it
 *   links to; nets of a single pin (pages without out-links) dropped;
 * - site hypergraph: a vertex per site, a net per page holding its site and the sites it links
 *   to; nets inside one site (a single pin) dropped.
 */
import { CrawlError, ErrorCodes } from '../errors.js';
import type { LinkGraph } from './link-graph.js';

import type { GraphModel } from './report.js';

export { MODELS, type GraphModel } from './report.js';

export const isSiteModel = (m: GraphModel): boolean => m === 'site' || m === 'site-hypergraph';
export const isHypergraph = (m: GraphModel): boolean => m === 'page-hypergraph' || m === 'site-hypergraph';

/** Pages or sites: what a vertex of the model is. */
export function vertexCount(g: LinkGraph, m: GraphModel): number {
  return isSiteModel(m) ? g.sites.length : g.n;
}

export function vertexNoun(m: GraphModel): 'page' | 'site' {
  return isSiteModel(m) ? 'site' : 'page';
}

export interface VertexWeights {
  /** Bytes stored by each vertex: its page's size, or its site's total. */
  bytes: Float64Array;
  /** Pages of each vertex (1 for a page). */
  pages: Float64Array;
}

export function vertexWeights(g: LinkGraph, m: GraphModel): VertexWeights {
  if (!isSiteModel(m)) return { bytes: g.sizes, pages: new Float64Array(g.n).fill(1) };
  const bytes = new Float64Array(g.sites.length);
  const pages = new Float64Array(g.sites.length);
  for (let v = 0; v < g.n; v++) {
    bytes[g.siteOf[v]!]! += g.sizes[v]!;
    pages[g.siteOf[v]!]!++;
  }
  return { bytes, pages };
}

/** A weighted graph (undirected, or directed for directedModel), walked one vertex at a time. */
export interface Adjacency {
  readonly n: number;
  /** Calls visit once per distinct neighbour v != u, with the total cost of the links between them. */
  neighbours(u: number, visit: (v: number, cost: number) => void): void;
}

/**
 * Sums costs per neighbour: a stamp per vertex says whether it was already seen for this u,
 * so one vertex's neighbours are merged in time proportional to its degree.
 */
class NeighbourMerger {
  private readonly stamp: Int32Array;
  private readonly cost: Float64Array;
  private order = new Uint32Array(64);
  private count = 0;
  private owner = -1;
  /** A new number per begin(), so that a second walk over the same vertex starts clean. */
  private epoch = 0;
  constructor(n: number) {
    this.stamp = new Int32Array(n);
    this.cost = new Float64Array(n);
  }
  begin(u: number): void {
    this.owner = u;
    this.count = 0;
    if (++this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
  }
  add(v: number, c: number): void {
    if (v === this.owner) return;
    if (this.stamp[v] !== this.epoch) {
      this.stamp[v] = this.epoch;
      this.cost[v] = 0;
      if (this.count === this.order.length) {
        const grown = new Uint32Array(this.order.length * 2);
        grown.set(this.order);
        this.order = grown;
      }
      this.order[this.count++] = v;
    }
    this.cost[v]! += c;
  }
  flush(visit: (v: number, cost: number) => void): void {
    for (let i = 0; i < this.count; i++) visit(this.order[i]!, this.cost[this.order[i]!]!);
  }
}

/** Transpose of a CSR (the in-links), in source order within each target. */
function transpose(n: number, offsets: Uint32Array, targets: Uint32Array): { offsets: Uint32Array; sources: Uint32Array } {
  const inOffsets = new Uint32Array(n + 1);
  for (let i = 0; i < targets.length; i++) inOffsets[targets[i]! + 1]!++;
  for (let v = 0; v < n; v++) inOffsets[v + 1]! += inOffsets[v]!;
  const cursor = inOffsets.slice(0, n);
  const sources = new Uint32Array(targets.length);
  for (let u = 0; u < n; u++) for (let i = offsets[u]!; i < offsets[u + 1]!; i++) sources[cursor[targets[i]!]!++] = u;
  return { offsets: inOffsets, sources };
}

/** The page graph: out-links cost their target's URL, in-links (from v to u) cost u's URL. */
export function pageGraph(g: LinkGraph): Adjacency {
  const inLinks = transpose(g.n, g.offsets, g.targets);
  const merger = new NeighbourMerger(g.n);
  return {
    n: g.n,
    neighbours(u, visit) {
      merger.begin(u);
      for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) merger.add(g.targets[i]!, g.urlBytes[g.targets[i]!]!);
      for (let i = inLinks.offsets[u]!; i < inLinks.offsets[u + 1]!; i++) merger.add(inLinks.sources[i]!, g.urlBytes[u]!);
      merger.flush(visit);
    },
  };
}

/** The site graph: every link between two sites, entered at both ends with its target's URL length. */
export function siteGraph(g: LinkGraph): Adjacency {
  return siteLinks(g, true);
}

/**
 * Links between sites summed per ordered pair (both: per unordered pair, entered at both ends),
 * each costing its target's URL length.
 */
function siteLinks(g: LinkGraph, both: boolean): Adjacency {
  const S = g.sites.length;
  const offsets = new Uint32Array(S + 1);
  forEachCrossLink(g, (a, b) => {
    offsets[a + 1]!++;
    if (both) offsets[b + 1]!++;
  });
  for (let s = 0; s < S; s++) offsets[s + 1]! += offsets[s]!;
  const cursor = offsets.slice(0, S);
  const other = new Uint32Array(offsets[S]!);
  const cost = new Uint32Array(offsets[S]!);
  forEachCrossLink(g, (a, b, c) => {
    other[cursor[a]!] = b;
    cost[cursor[a]!++] = c;
    if (!both) return;
    other[cursor[b]!] = a;
    cost[cursor[b]!++] = c;
  });
  const merger = new NeighbourMerger(S);
  return {
    n: S,
    neighbours(u, visit) {
      merger.begin(u);
      for (let i = offsets[u]!; i < offsets[u + 1]!; i++) merger.add(other[i]!, cost[i]!);
      merger.flush(visit);
    },
  };
}

/**
 * The directed links a hypergraph model's nets come from, for the edge list and GraphML of a
 * hypergraph model: page to page (cost: the target's URL length), or site to site (the total
 * URL length of the links from one to the other; links inside a site dropped, as their nets are).
 */
export function directedModel(g: LinkGraph, m: GraphModel): Adjacency {
  if (isSiteModel(m)) return siteLinks(g, false);
  return {
    n: g.n,
    neighbours(u, visit) {
      for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) visit(g.targets[i]!, g.urlBytes[g.targets[i]!]!);
    },
  };
}

function forEachCrossLink(g: LinkGraph, fn: (siteA: number, siteB: number, cost: number) => void): void {
  for (let u = 0; u < g.n; u++) {
    const a = g.siteOf[u]!;
    for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) {
      const t = g.targets[i]!;
      const b = g.siteOf[t]!;
      if (a !== b) fn(a, b, g.urlBytes[t]!);
    }
  }
}

export function undirectedModel(g: LinkGraph, m: GraphModel): Adjacency {
  if (m === 'page') return pageGraph(g);
  if (m === 'site') return siteGraph(g);
  throw new CrawlError(ErrorCodes.BAD_OPTION, `--model: ${m} is a hypergraph, not a graph`);
}

/**
 * The nets of a hypergraph model, one at a time: `pins[0..count)` are vertex indexes (the
 * page's own page or site first), reused between calls. Nets of one pin are not visited.
 */
export function forEachNet(g: LinkGraph, m: GraphModel, visit: (pins: Uint32Array, count: number, page: number) => void): void {
  let pins = new Uint32Array(64);
  const room = (k: number) => {
    if (k > pins.length) pins = new Uint32Array(Math.max(k, pins.length * 2));
  };
  if (m === 'page-hypergraph') {
    for (let u = 0; u < g.n; u++) {
      const lo = g.offsets[u]!;
      const hi = g.offsets[u + 1]!;
      if (hi === lo) continue;
      room(hi - lo + 1);
      pins[0] = u;
      pins.set(g.targets.subarray(lo, hi), 1);
      visit(pins, hi - lo + 1, u);
    }
    return;
  }
  if (m !== 'site-hypergraph') throw new CrawlError(ErrorCodes.BAD_OPTION, `--model: ${m} is a graph, not a hypergraph`);
  const stamp = new Int32Array(g.sites.length).fill(-1);
  for (let u = 0; u < g.n; u++) {
    const lo = g.offsets[u]!;
    const hi = g.offsets[u + 1]!;
    if (hi === lo) continue;
    room(hi - lo + 1);
    const own = g.siteOf[u]!;
    pins[0] = own;
    stamp[own] = u;
    let count = 1;
    for (let i = lo; i < hi; i++) {
      const s = g.siteOf[g.targets[i]!]!;
      if (stamp[s] === u) continue;
      stamp[s] = u;
      pins[count++] = s;
    }
    if (count > 1) visit(pins, count, u);
  }
}
