import { describe, expect, it } from 'vitest';
import { pagerank } from '../../core/ranking/pagerank.js';
import type { SimGraph } from '../../core/simulator/sim-graph.js';
import { defaultSeeds } from '../../core/simulator/sim-graph.js';
import { deriveHistory, inducedPageRank, reachable } from '../../core/simulator/truth.js';

/** a/ -> a/x -> a/y; b/long/page (no home page) -> a/; c/ isolated from the rest. */
function small(): SimGraph {
  const urls = ['http://a.test/', 'http://a.test/x', 'http://a.test/y', 'http://b.test/long/page', 'http://b.test/p', 'http://c.test/'];
  const edges = [[0, 1], [1, 2], [3, 0], [4, 3]];
  const n = urls.length;
  const offsets = new Uint32Array(n + 1);
  for (const [a] of edges) offsets[a! + 1]!++;
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  return {
    source: 'small', n, urls,
    graph: { n, offsets, targets: Uint32Array.from(edges.map((e) => e[1]!)) },
    siteOf: Int32Array.from([0, 0, 0, 1, 1, 2]), sites: ['a.test', 'b.test', 'c.test'], sizes: null, measured: null,
  };
}

describe('simulator truth and history', () => {
  it("seeds each site at its home page, or its shortest URL", () => {
    expect(defaultSeeds(small())).toEqual([0, 4, 5]);
  });

  it('the truth is the PageRank of the part reachable from the seeds', () => {
    const g = small();
    const keep = reachable(g.graph, [0]);
    expect(Array.from(keep)).toEqual([1, 1, 1, 0, 0, 0]);
    const pr = inducedPageRank(g.graph, keep);
    expect(pr[3]).toBe(0);
    expect(pr[0]! + pr[1]! + pr[2]!).toBeCloseTo(1, 12);
    const all = inducedPageRank(g.graph, new Uint8Array(g.n).fill(1));
    const direct = pagerank(g.graph).ranks;
    for (let v = 0; v < g.n; v++) expect(all[v]).toBeCloseTo(direct[v]!, 12);
  });

  it('a derived earlier crawl keeps about the given share of pages, with the PageRank of what it kept', () => {
    const n = 20_000;
    const urls = Array.from({ length: n }, (_, i) => `http://s${i % 50}.test/p${i}`);
    const offsets = new Uint32Array(n + 1);
    const targets = new Uint32Array(n * 2);
    for (let v = 0; v < n; v++) {
      targets[2 * v] = (v * 7 + 1) % n;
      targets[2 * v + 1] = (v * 13 + 5) % n;
      offsets[v + 1] = 2 * v + 2;
    }
    const g: SimGraph = { source: 'x', n, urls, graph: { n, offsets, targets }, siteOf: Int32Array.from(urls, (_, i) => i % 50), sites: [], sizes: null, measured: null };
    const history = deriveHistory(g, 0.55, 3);
    expect(history.size / n).toBeGreaterThan(0.53);
    expect(history.size / n).toBeLessThan(0.57);
    let sum = 0;
    for (const v of history.values()) sum += v;
    expect(sum).toBeCloseTo(1, 9);
    expect([...deriveHistory(g, 0.55, 3).keys()]).toEqual([...history.keys()]); // reproducible
    expect(deriveHistory(g, 0.55, 4).size).not.toBe(history.size);
  });
});
