import type { CsrGraph } from './csr.js';
import { jsKernel, wasmKernel, type ScatterKernel } from './scatter-kernel.js';

/** L1 change between iterations below which the iteration stops (98 iterations on the bench graph). */
export const DEFAULT_TOLERANCE = 1e-10;
export const DEFAULT_DAMPING = 0.85;
const WASM_MIN_LINKS = 1 << 16;

export interface PageRankOptions {
  /** Damping d (docs/design.md section 4.1: 0.85 by default; Cho et al. used 0.9). */
  damping?: number;
  /** Stop when the L1 change between iterations falls below this. */
  tolerance?: number;
  /** Default 1000: enough for damping close to 1, where convergence is slow. */
  maxIterations?: number;
  /** Starting vector (e.g. the previous batch's result); normalised, length n. */
  start?: Float64Array;
  /** Inner loop: wasm where it runs (default 'auto'), or plain JavaScript; same results. */
  kernel?: 'auto' | 'js' | 'wasm';
  /** Called after each iteration with the L1 change (progress for a caller that reports it). */
  onIteration?: (iterations: number, delta: number) => void;
}

export interface PageRankResult {
  ranks: Float64Array;
  iterations: number;
  delta: number;
  damping: number;
  tolerance: number;
  /** Which inner loop ran. */
  kernel: ScatterKernel['kind'];
}

/**
 * PageRank by power iteration: R(u) = (1-d)/N + d * (sum over v->u of R(v)/outdeg(v)
 * + D/N), where D is the rank held by dangling pages (no out-links), spread uniformly.
 * Ranks sum to 1. Push-style over the out-link CSR, so no transpose is needed; the
 * scatter runs in WebAssembly when it can (scatter-kernel.ts).
 * With g.weights, v's rank is split in proportion to its edges' weights instead
 * (R(v)*w(v,u)/W(v), W = total out-weight; W = 0 counts as dangling): the site graph.
 */
export function pagerank(g: CsrGraph, opts: PageRankOptions = {}): PageRankResult {
  const d = opts.damping ?? DEFAULT_DAMPING;
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
  const maxIterations = opts.maxIterations ?? 1000;
  if (!(d >= 0 && d <= 1)) throw new RangeError(`damping must be in [0, 1], got ${d}`);
  if (!(tolerance > 0)) throw new RangeError(`tolerance must be > 0, got ${tolerance}`);
  const n = g.n;
  if (n === 0) return { ranks: new Float64Array(0), iterations: 0, delta: 0, damping: d, tolerance, kernel: 'js' };
  // Per-node multiplier computed once: 1/outdeg (or 1/out-weight); 0 marks a dangling node.
  const inv = g.weights ? inverseOutWeight(g, g.weights) : inverseOutDegree(g);
  return iterate(kernelFor(g, inv, opts), n, d, tolerance, maxIterations, opts.start, opts.onIteration);
}

/**
 * Small graphs stay in JS: below ~65k links the wasm set-up (memory, copies) is not repaid.
 * (Threads were tried for the scatter, each into its own partial vector: on a 2-CPU
 * machine the loop is memory-bound and gained at most 10%, and lost when CPUs were busy.)
 */
function kernelFor(g: CsrGraph, inv: Float64Array, opts: PageRankOptions): ScatterKernel {
  const kind = opts.kernel ?? 'auto';
  if (kind === 'js') return jsKernel(g, inv);
  if (kind === 'wasm' || g.targets.length >= WASM_MIN_LINKS) {
    const k = wasmKernel(g, inv);
    if (k) return k;
  }
  if (kind === 'wasm') throw new Error('pagerank: the wasm kernel is unavailable here');
  return jsKernel(g, inv);
}

function iterate(k: ScatterKernel, n: number, d: number, tolerance: number, maxIterations: number, start?: Float64Array, onIteration?: PageRankOptions['onIteration']): PageRankResult {
  if (start && start.length === n) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += start[i]!;
    for (let i = 0; i < n; i++) k.rank[i] = sum > 0 ? start[i]! / sum : 1 / n;
  } else k.rank.fill(1 / n);
  let iterations = 0;
  let delta = Infinity;
  while (iterations < maxIterations && delta > tolerance) {
    k.next.fill(0);
    const dangling = k.scatter();
    const base = (1 - d) / n + (d * dangling) / n;
    const { rank, next } = k;
    delta = 0;
    for (let u = 0; u < n; u++) {
      const value = base + d * next[u]!;
      delta += Math.abs(value - rank[u]!);
      next[u] = value;
    }
    k.swap();
    iterations++;
    onIteration?.(iterations, delta);
  }
  // A copy, so the result does not keep the kernel's memory (the whole graph, for wasm) alive.
  return { ranks: k.rank.slice(), iterations, delta, damping: d, tolerance, kernel: k.kind };
}

/**
 * How far an iteration is towards the tolerance, 0..1, on a log scale: the L1 change between
 * two rank vectors is at most 2 and falls about geometrically, so log(2/delta) grows about
 * linearly with the iterations done.
 */
export function iterationFraction(delta: number, tolerance: number): number {
  if (!(delta > tolerance)) return 1;
  return Math.min(1, Math.max(0, Math.log(2 / delta) / Math.log(2 / tolerance)));
}

function inverseOutDegree(g: CsrGraph): Float64Array {
  const inv = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) {
    const deg = g.offsets[v + 1]! - g.offsets[v]!;
    inv[v] = deg > 0 ? 1 / deg : 0;
  }
  return inv;
}

function inverseOutWeight(g: CsrGraph, weights: Float64Array): Float64Array {
  const inv = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) {
    let total = 0;
    for (let e = g.offsets[v]!; e < g.offsets[v + 1]!; e++) total += weights[e]!;
    inv[v] = total > 0 ? 1 / total : 0;
  }
  return inv;
}
