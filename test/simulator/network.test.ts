import { describe, expect, it } from 'vitest';
import { pageSize, serverModel } from '../../core/simulator/network.js';
import { SharedLink } from '../../core/simulator/shared-link.js';
import type { SimGraph } from '../../core/simulator/sim-graph.js';
import { Simulation, type SimulationOptions } from '../../core/simulator/simulation.js';

/** A graph given by hand: sites of pages with sizes; page 0 of each site links to the others. */
function handGraph(sites: Array<{ host: string; sizes: number[] }>): SimGraph {
  const urls: string[] = [];
  const siteOf: number[] = [];
  const sizes: number[] = [];
  const src: number[] = [];
  const dst: number[] = [];
  sites.forEach((s, si) => {
    const first = urls.length;
    s.sizes.forEach((size, k) => {
      urls.push(`http://${s.host}/${k === 0 ? '' : `p${k}`}`);
      siteOf.push(si);
      sizes.push(size);
      if (k > 0) {
        src.push(first);
        dst.push(first + k);
      }
    });
  });
  const n = urls.length;
  const offsets = new Uint32Array(n + 1);
  for (const a of src) offsets[a + 1]!++;
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  return {
    source: 'hand',
    n,
    urls,
    graph: { n, offsets, targets: Uint32Array.from(dst) },
    siteOf: Int32Array.from(siteOf),
    sites: sites.map((s) => s.host),
    sizes: Float64Array.from(sizes),
    measured: null,
  };
}

const server = (connectMs: number, latencyMs: number, bytesPerSec: number, keepAliveMax = 100) => ({ connectMs, latencyMs, bytesPerSec, keepAliveMax });

function simulate(g: SimGraph, o: Partial<SimulationOptions>) {
  const seeds = g.sites.map((_, s) => g.siteOf.indexOf(s));
  return new Simulation(g, { policy: 'breadth-first', r: 10, w: 0, c: 1, bandwidth: Infinity, network: { latency: true, seed: 1 }, seeds, ...o }).run();
}

describe('network model, cases worked out by hand', () => {
  it('one site, one page: connect + latency + size / rate', () => {
    const g = handGraph([{ host: 'a.test', sizes: [10_000] }]);
    const run = simulate(g, { servers: () => server(50, 100, 100_000) });
    // 50 ms connect, 100 ms to the first byte, 10,000 B at 100,000 B/s = 100 ms.
    expect(Array.from(run.times)).toEqual([250]);
    expect(run.durationMs).toBe(250);
  });

  it('keep-alive: c requests back to back over one connection; c = 1 waits w between connections', () => {
    const g = handGraph([{ host: 'a.test', sizes: [10_000, 10_000] }]);
    const both = [0, 1]; // both pages known from the start, so one connection can take both
    const keepAlive = simulate(g, { c: 2, seeds: both, servers: () => server(50, 100, 100_000) });
    expect(Array.from(keepAlive.times)).toEqual([250, 450]);
    expect(keepAlive.connections).toBe(1);
    const oneByOne = simulate(g, { c: 1, w: 1000, seeds: both, servers: () => server(50, 100, 100_000) });
    // Page 2: w = 1 s after the first connection ended at 250 ms, then 50 + 100 + 100 ms.
    expect(Array.from(oneByOne.times)).toEqual([250, 1500]);
    expect(oneByOne.connections).toBe(2);
    // Only what the crawler has seen: with one seed, the second page is unknown when the
    // first connection opens, so even c = 2 needs a second connection.
    const discovered = simulate(g, { c: 2, servers: () => server(50, 100, 100_000) });
    expect(Array.from(discovered.times)).toEqual([250, 500]);
  });

  it("a server's keep-alive limit ends the connection early; the rest waits w", () => {
    const g = handGraph([{ host: 'a.test', sizes: [1000, 1000, 1000] }]);
    const run = simulate(g, { c: 10, w: 500, servers: () => server(0, 100, Infinity, 1) });
    // One request per connection whatever c says: 100 ms each, 500 ms apart.
    expect(Array.from(run.times)).toEqual([100, 700, 1300]);
  });

  it('bandwidth saturation: two transfers share B equally', () => {
    const g = handGraph([
      { host: 'a.test', sizes: [10_000] },
      { host: 'b.test', sizes: [10_000] },
    ]);
    const free = simulate(g, { servers: () => server(50, 100, 100_000) });
    expect(Array.from(free.times)).toEqual([250, 250]);
    const shared = simulate(g, { bandwidth: 100_000, servers: () => server(50, 100, 100_000) });
    // Both transfers start at 150 ms and get 50,000 B/s each: 200 ms.
    expect(Array.from(shared.times)).toEqual([350, 350]);
  });

  it('when one transfer ends the other gets the whole link', () => {
    const g = handGraph([
      { host: 'a.test', sizes: [10_000] },
      { host: 'b.test', sizes: [30_000] },
    ]);
    const run = simulate(g, { bandwidth: 100_000, servers: () => server(50, 100, 1_000_000) });
    // 150-350 ms: 50,000 B/s each (a done, b has 20,000 B left); then b alone at 100,000 B/s: 200 ms.
    expect(run.times[0]).toBeCloseTo(350, 6);
    expect(run.times[1]).toBeCloseTo(550, 6);
  });

  it("a slow server keeps its own rate and leaves the rest of the link to the others (max-min fair)", () => {
    const link = new SharedLink(100_000);
    const done: Array<[string, number]> = [];
    let now = 0;
    link.start(0, 20_000, 20_000, () => done.push(['slow', now]));
    link.start(0, 20_000, 1_000_000, () => done.push(['fast', now]));
    while (link.nextCompletion() < Infinity) {
      now = link.nextCompletion();
      link.completeNext(now);
    }
    // slow: 20,000 B/s -> 1,000 ms; fast: the other 80,000 B/s -> 250 ms.
    expect(done.map(([n]) => n)).toEqual(['fast', 'slow']);
    expect(done[0]![1]).toBeCloseTo(250, 6);
    expect(done[1]![1]).toBeCloseTo(1000, 6);
  });

  it('records the connections open over time', () => {
    const g = handGraph([
      { host: 'a.test', sizes: [1000] },
      { host: 'b.test', sizes: [1000] },
      { host: 'c.test', sizes: [1000] },
    ]);
    const run = simulate(g, { r: 2, servers: () => server(0, 100, Infinity) });
    expect(Array.from(run.times)).toEqual([100, 100, 200]);
    expect(Math.max(...run.openSeries.open)).toBe(2);
    // Two connections for 100 ms, then one for 100 ms: 1.5 on average.
    expect(run.meanOpen).toBeCloseTo(1.5, 6);
  });
});

describe('drawn network', () => {
  it('matches the thesis: 90% of pages under 1.5 s, 95% under 3 s, latency usually above transfer time', () => {
    const o = { latency: true, seed: 7 };
    let under15 = 0;
    let under3 = 0;
    let latencyWins = 0;
    const n = 50_000;
    for (let i = 0; i < n; i++) {
      const s = serverModel(o, i % 5000);
      const transfer = (pageSize(o, i) / s.bytesPerSec) * 1000;
      const total = s.latencyMs + transfer;
      if (total < 1500) under15++;
      if (total < 3000) under3++;
      if (s.latencyMs > transfer) latencyWins++;
    }
    expect(under15 / n).toBeGreaterThan(0.87);
    expect(under15 / n).toBeLessThan(0.93);
    expect(under3 / n).toBeGreaterThan(0.94);
    expect(under3 / n).toBeLessThan(0.98);
    expect(latencyWins / n).toBeGreaterThan(0.5);
  });

  it('is reproducible from its seed, and latency off means no time at all', () => {
    expect(serverModel({ latency: true, seed: 3 }, 12)).toEqual(serverModel({ latency: true, seed: 3 }, 12));
    expect(serverModel({ latency: true, seed: 3 }, 12)).not.toEqual(serverModel({ latency: true, seed: 4 }, 12));
    const off = serverModel({ latency: false, seed: 3 }, 12);
    expect([off.connectMs, off.latencyMs, off.bytesPerSec]).toEqual([0, 0, Infinity]);
  });
});
