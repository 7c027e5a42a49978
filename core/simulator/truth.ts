import type { CsrGraph } from '../ranking/csr.js';
import { DEFAULT_DAMPING, pagerank } from '../ranking/pagerank.js';
import { hash, unit } from '../random.js';
import type { SimGraph } from './sim-graph.js';

const S_HISTORY = 51;

/** Nodes reachable from the seeds: what a complete crawl of the graph fetches. */
export function reachable(g: CsrGraph, seeds: readonly number[]): Uint8Array {
  const seen = new Uint8Array(g.n);
  const queue = new Int32Array(g.n);
  let tail = 0;
  for (const s of seeds) {
    if (seen[s]) continue;
    seen[s] = 1;
    queue[tail++] = s;
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    for (let k = g.offsets[v]!; k < g.offsets[v + 1]!; k++) {
      const t = g.targets[k]!;
      if (!seen[t]) {
        seen[t] = 1;
        queue[tail++] = t;
      }
    }
  }
  return seen;
}

/** PageRank of the subgraph induced by `keep` (value 0 for nodes outside it; the rest sum to 1). */
export function inducedPageRank(g: CsrGraph, keep: Uint8Array, damping = DEFAULT_DAMPING): Float64Array {
  const local = new Int32Array(g.n).fill(-1);
  let m = 0;
  for (let v = 0; v < g.n; v++) if (keep[v]) local[v] = m++;
  const offsets = new Uint32Array(m + 1);
  let e = 0;
  for (let v = 0; v < g.n; v++) {
    if (!keep[v]) continue;
    for (let k = g.offsets[v]!; k < g.offsets[v + 1]!; k++) if (keep[g.targets[k]!]) e++;
  }
  const targets = new Uint32Array(e);
  e = 0;
  for (let v = 0; v < g.n; v++) {
    if (!keep[v]) continue;
    for (let k = g.offsets[v]!; k < g.offsets[v + 1]!; k++) {
      const t = g.targets[k]!;
      if (keep[t]) targets[e++] = local[t]!;
    }
    offsets[local[v]! + 1] = e;
  }
  const { ranks } = pagerank({ n: m, offsets, targets }, { damping });
  const out = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) if (local[v]! >= 0) out[v] = ranks[local[v]!]!;
  return out;
}

/** Values by URL for the nodes with a value (> 0 or kept). */
export function byUrl(g: SimGraph, values: Float64Array, keep: Uint8Array): Map<string, number> {
  const out = new Map<string, number>();
  for (let v = 0; v < g.n; v++) if (keep[v]) out.set(g.urls[v]!, values[v]!);
  return out;
}

/**
 * A previous crawl derived from the graph (issue 5, the thesis's May/September experiment):
 * a random share of the pages (seeded) with the PageRank they have in the graph they form
 * on their own, i.e. what the earlier crawl would have computed.
 */
export function deriveHistory(g: SimGraph, share: number, seed: number): Map<string, number> {
  const keep = new Uint8Array(g.n);
  for (let v = 0; v < g.n; v++) keep[v] = unit(hash(seed, v, S_HISTORY)) < share ? 1 : 0;
  return byUrl(g, inducedPageRank(g.graph, keep), keep);
}
