import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csrFromEdges } from '../../core/ranking/csr.js';
import { pagerank } from '../../core/ranking/pagerank.js';
import { tmpDir } from '../helpers/tmp.js';
import { rng } from './fixtures.js';
import { run } from '../helpers/run.js';
import { PYTHON, describeWith } from '../references.js';

const dir = tmpDir('crawlbench-pagerank-');
const d = 0.85;
const exact = { tolerance: 1e-15, maxIterations: 10_000 };

function graph(n: number, edges: Array<[number, number]>) {
  return csrFromEdges(
    n,
    edges.map((e) => e[0]),
    edges.map((e) => e[1]),
  );
}

describe('pagerank on graphs solvable by hand', () => {
  it('two pages linking to each other share the rank', () => {
    const r = pagerank(graph(2, [[0, 1], [1, 0]]), exact).ranks;
    expect(r[0]).toBeCloseTo(0.5, 14);
    expect(r[1]).toBeCloseTo(0.5, 14);
  });

  it('a page linking to a dangling page: a = (1-d)/2 + d*b/2, b = (1-d)/2 + d*(a + b/2)', () => {
    const r = pagerank(graph(2, [[0, 1]]), exact).ranks;
    // With a + b = 1: a = (1-d)/2 + d(1-a)/2, so a = 1 / (2 + d).
    expect(r[0]).toBeCloseTo(1 / (2 + d), 14);
    expect(r[1]).toBeCloseTo(1 - 1 / (2 + d), 14);
  });

  it('a cycle of three is uniform', () => {
    const r = pagerank(graph(3, [[0, 1], [1, 2], [2, 0]]), exact).ranks;
    for (const v of r) expect(v).toBeCloseTo(1 / 3, 14);
  });

  it('a -> b, a -> c, b -> c, c -> a, by substitution', () => {
    const r = pagerank(graph(3, [[0, 1], [0, 2], [1, 2], [2, 0]]), exact).ranks;
    const t = (1 - d) / 3;
    const a = (t * (1 + d + d * d)) / (1 - (d * d) / 2 - (d * d * d) / 2);
    const b = t + (d * a) / 2;
    const c = t + d * (a / 2 + b);
    expect(a + b + c).toBeCloseTo(1, 14);
    expect(r[0]).toBeCloseTo(a, 14);
    expect(r[1]).toBeCloseTo(b, 14);
    expect(r[2]).toBeCloseTo(c, 14);
  });

  it('damping 0 gives the uniform vector; no edges at all too; an empty graph gives nothing', () => {
    for (const v of pagerank(graph(3, [[0, 1], [0, 2]]), { damping: 0 }).ranks) expect(v).toBeCloseTo(1 / 3, 15);
    for (const v of pagerank(graph(4, []), exact).ranks) expect(v).toBeCloseTo(1 / 4, 15);
    expect(pagerank(graph(0, [])).ranks.length).toBe(0);
  });

  it('rejects damping outside [0, 1] and tolerance <= 0', () => {
    expect(() => pagerank(graph(1, []), { damping: 1.2 })).toThrow(/damping/);
    expect(() => pagerank(graph(1, []), { tolerance: 0 })).toThrow(/tolerance/);
  });
});

describe('inner loops', () => {
  it('the wasm and JavaScript kernels give the same ranks, bit for bit', () => {
    const random = rng(11);
    const edges: Array<[number, number]> = [];
    for (let i = 0; i < 100_000; i++) edges.push([Math.floor(random() * 8000), Math.floor(random() ** 3 * 8000)]);
    const g = graph(8000, edges);
    const w = pagerank(g, { kernel: 'wasm', tolerance: 1e-13 });
    const j = pagerank(g, { kernel: 'js', tolerance: 1e-13 });
    expect(w.kernel).toBe('wasm');
    expect(j.kernel).toBe('js');
    expect(pagerank(g).kernel).toBe('wasm'); // the default where wasm runs, for this many links
    expect(pagerank(graph(3, [[0, 1]])).kernel).toBe('js'); // and JS for small graphs
    expect(w.iterations).toBe(j.iterations);
    expect(Buffer.from(w.ranks.buffer).equals(Buffer.from(j.ranks.buffer))).toBe(true);
  });
});

describe('weighted pagerank (the site graph)', () => {
  it('an edge of weight k equals k parallel unweighted edges', () => {
    const weighted = { ...graph(3, [[0, 1], [0, 2], [1, 0], [2, 0]]), weights: Float64Array.of(3, 1, 1, 1) };
    const parallel = graph(3, [[0, 1], [0, 1], [0, 1], [0, 2], [1, 0], [2, 0]]);
    const a = pagerank(weighted, exact).ranks;
    const b = pagerank(parallel, exact).ranks;
    for (let i = 0; i < 3; i++) expect(a[i]).toBeCloseTo(b[i]!, 14);
    expect(a[1]! / a[2]!).toBeGreaterThan(1.5); // the heavier link carries more rank
  });

  it('all weights 1 is the unweighted computation; zero out-weight counts as dangling', () => {
    const random = rng(7);
    const edges: Array<[number, number]> = [];
    for (let i = 0; i < 3000; i++) edges.push([Math.floor(random() * 500), Math.floor(random() * 500)]);
    const g = graph(500, edges);
    const a = pagerank(g, exact).ranks;
    const b = pagerank({ ...g, weights: new Float64Array(g.targets.length).fill(1) }, exact).ranks;
    for (let i = 0; i < 500; i++) expect(b[i]).toBeCloseTo(a[i]!, 14);
    const zero = pagerank({ ...graph(2, [[0, 1]]), weights: Float64Array.of(0) }, exact).ranks;
    expect(zero[0]).toBeCloseTo(0.5, 14);
  });
});

/** Debian's python (the one with networkx). */
const python = (code: string) => run(PYTHON, ['-c', code]);

describeWith(['networkx'], 'pagerank against networkx', () => {
  it('matches nx.pagerank on a 6,000-node graph with dangling and isolated nodes', async () => {
    // Heavy-tailed in-degree (targets drawn with a power bias), ~15% dangling, some isolated.
    const n = 6000;
    const random = rng(42);
    const edges = new Set<number>();
    for (let v = 0; v < n; v++) {
      if (random() < 0.15) continue;
      if (v % 97 === 0) continue; // isolated unless something links to it
      const deg = 1 + Math.floor(-8 * Math.log(1 - random()));
      for (let k = 0; k < deg; k++) {
        const t = Math.floor(n * random() ** 2.5);
        if (t !== v) edges.add(v * n + t); // no self-loops, no duplicates: as in a crawl graph
      }
    }
    const list = [...edges].map((key) => [Math.floor(key / n), key % n] as [number, number]);
    const file = join(dir, 'edges.txt');
    writeFileSync(file, list.map(([a, b]) => `${a} ${b}`).join('\n') + '\n');
    const g = graph(n, list);
    const touched = new Set(list.flat());
    let dangling = 0;
    for (let v = 0; v < n; v++) if (g.offsets[v + 1] === g.offsets[v]) dangling++;
    expect(dangling).toBeGreaterThan(500);
    expect(n - touched.size).toBeGreaterThan(5); // isolated nodes
    const ours = pagerank(g, { damping: 0.85, tolerance: 1e-14, maxIterations: 10_000 }).ranks;

    const nx = await python(
      [
        'import json, networkx as nx',
        'G = nx.DiGraph()',
        `G.add_nodes_from(range(${n}))`, // nodes without edges must be added explicitly
        `G.add_edges_from(tuple(map(int, l.split())) for l in open(${JSON.stringify(file)}) if l.strip())`,
        'pr = nx.pagerank(G, alpha=0.85, tol=1e-12, max_iter=1000)',
        `print(json.dumps([pr[i] for i in range(${n})]))`,
      ].join('\n'),
    );
    expect(nx.stderr).toBe('');
    expect(nx.code).toBe(0);
    const theirs = JSON.parse(nx.stdout) as number[];
    expect(theirs.length).toBe(n);
    for (let v = 0; v < n; v++) {
      expect(Math.abs(ours[v]! - theirs[v]!)).toBeLessThan(1e-6);
      // networkx stops at L1 < n * tol = 6e-9; measured worst relative gap is ~2e-8.
      expect(Math.abs(ours[v]! - theirs[v]!) / theirs[v]!).toBeLessThan(1e-6);
    }
  });
});
