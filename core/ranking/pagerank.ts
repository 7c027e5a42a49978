import type { CsrGraph } from './csr.js';

export interface PageRankOptions {
  /** Damping d (design.md section 4: 0.85 by default; Cho et al. used 0.9). */
  damping?: number;
  /** Stop when the L1 change between iterations falls below this. */
  tolerance?: number;
  maxIterations?: number;
  /** Starting vector (e.g. the previous batch's result); normalised, length n. */
  start?: Float64Array;
}

export interface PageRankResult {
  ranks: Float64Array;
  iterations: number;
  delta: number;
  damping: number;
  tolerance: number;
}

/**
 * PageRank by power iteration: R(u) = (1-d)/N + d * (sum over v->u of R(v)/outdeg(v)
 * + D/N), where D is the rank held by dangling pages (no out-links), spread uniformly.
 * Ranks sum to 1. Push-style over the out-link CSR, so no transpose is needed.
 */
export function pagerank(g: CsrGraph, opts: PageRankOptions = {}): PageRankResult {
  const d = opts.damping ?? 0.85;
  const tolerance = opts.tolerance ?? 1e-10;
  const maxIterations = opts.maxIterations ?? 200;
  if (!(d >= 0 && d <= 1)) throw new RangeError(`damping must be in [0, 1], got ${d}`);
  const n = g.n;
  const { offsets, targets } = g;
  let rank = new Float64Array(n);
  let next = new Float64Array(n);
  if (n === 0) return { ranks: rank, iterations: 0, delta: 0, damping: d, tolerance };
  if (opts.start && opts.start.length === n) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += opts.start[i]!;
    for (let i = 0; i < n; i++) rank[i] = sum > 0 ? opts.start[i]! / sum : 1 / n;
  } else rank.fill(1 / n);
  let iterations = 0;
  let delta = Infinity;
  while (iterations < maxIterations && delta > tolerance) {
    next.fill(0);
    let dangling = 0;
    for (let v = 0; v < n; v++) {
      const start = offsets[v]!;
      const end = offsets[v + 1]!;
      const r = rank[v]!;
      if (end === start) {
        dangling += r;
        continue;
      }
      const share = r / (end - start);
      for (let e = start; e < end; e++) next[targets[e]!]! += share;
    }
    const base = (1 - d) / n + (d * dangling) / n;
    delta = 0;
    for (let u = 0; u < n; u++) {
      const value = base + d * next[u]!;
      delta += Math.abs(value - rank[u]!);
      next[u] = value;
    }
    [rank, next] = [next, rank];
    iterations++;
  }
  return { ranks: rank, iterations, delta, damping: d, tolerance };
}
