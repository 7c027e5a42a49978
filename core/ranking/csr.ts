/**
 * A directed graph in compressed sparse rows: the out-links of node v are
 * targets[offsets[v] .. offsets[v+1]). Typed arrays keep a 10-million-link graph in
 * about 50 MB and make the PageRank loop a tight scan.
 */
export interface CsrGraph {
  readonly n: number;
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
  /** Optional weight of each edge (parallel to targets); absent means every edge weighs 1. */
  readonly weights?: Float64Array;
}

/** Builds CSR from parallel arrays of edges (duplicates kept; self-loops kept). */
export function csrFromEdges(n: number, src: ArrayLike<number>, dst: ArrayLike<number>): CsrGraph {
  const m = src.length;
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < m; i++) offsets[src[i]! + 1]!++;
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  const fill = offsets.slice(0, n);
  const targets = new Uint32Array(m);
  for (let i = 0; i < m; i++) targets[fill[src[i]!]!++] = dst[i]!;
  return { n, offsets, targets };
}

export function outDegree(g: CsrGraph, v: number): number {
  return g.offsets[v + 1]! - g.offsets[v]!;
}
