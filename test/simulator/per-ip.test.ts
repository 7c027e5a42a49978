import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../core/simulator/simulate.js';
import { loadSimGraph, type SimGraph } from '../../core/simulator/sim-graph.js';
import { Simulation, type SimulationOptions, type SimulationResult } from '../../core/simulator/simulation.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const PAGES = 4;

/** Sites of PAGES pages each (home links to the rest), with the addresses the source records. */
function graph(hosts: string[], addresses?: Array<string | null>): SimGraph {
  const n = hosts.length * PAGES;
  const urls = hosts.flatMap((h) => Array.from({ length: PAGES }, (_, k) => `http://${h}/${k === 0 ? '' : `p${k}`}`));
  const offsets = new Uint32Array(n + 1);
  const targets: number[] = [];
  for (let v = 0; v < n; v++) {
    if (v % PAGES === 0) for (let k = 1; k < PAGES; k++) targets.push(v + k);
    offsets[v + 1] = targets.length;
  }
  return {
    source: 'hand',
    n,
    urls,
    graph: { n, offsets, targets: Uint32Array.from(targets) },
    siteOf: Int32Array.from({ length: n }, (_, v) => Math.floor(v / PAGES)),
    sites: hosts,
    sizes: new Float64Array(n).fill(10_000),
    measured: null,
    addresses,
  };
}

// Every connection lasts 250 ms: 50 ms connect, 100 ms to the first byte, 10,000 B at 100,000 B/s.
const CONNECTION_MS = 250;
const W = 1000;

function run(g: SimGraph, o: Partial<SimulationOptions>): SimulationResult {
  const seeds = g.sites.map((_, s) => s * PAGES);
  return new Simulation(g, {
    policy: 'breadth-first', r: 10, w: W, c: 1, bandwidth: Infinity, network: { latency: true, seed: 1 }, seeds,
    servers: () => ({ connectMs: 50, latencyMs: 100, bytesPerSec: 100_000, keepAliveMax: 100 }),
    ...o,
  }).run();
}

/** With c = 1 each fetch is one connection: [end - 250 ms, end], by site. */
function connections(g: SimGraph, r: SimulationResult): Array<{ site: string; start: number; end: number }> {
  return Array.from(r.order, (v, i) => ({ site: g.sites[g.siteOf[v]!]!, start: r.times[i]! - CONNECTION_MS, end: r.times[i]! }));
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

describe('simulator: politeness per IP address', () => {
  // a.test and b.test share an address; c.test has its own.
  const shared = graph(['a.test', 'b.test', 'c.test'], ['10.0.0.1', '10.0.0.1', '10.0.0.2']);

  it('perIp on: two sites on one address are never connected at the same time, and are w apart', () => {
    const r = run(shared, { perIp: true });
    expect(r.pagesFetched).toBe(3 * PAGES);
    const onShared = connections(shared, r)
      .filter((x) => x.site !== 'c.test')
      .sort((x, y) => x.start - y.start);
    expect(onShared.map((x) => x.site)).toContain('b.test');
    for (let i = 1; i < onShared.length; i++) expect(onShared[i]!.start - onShared[i - 1]!.end).toBeGreaterThanOrEqual(W);
    // The site on its own address goes on in parallel with them.
    const c = connections(shared, r).filter((x) => x.site === 'c.test');
    expect(c.some((x) => onShared.some((y) => overlap(x, y)))).toBe(true);
  });

  it('perIp off: the same two sites are fetched at the same time', () => {
    const r = run(shared, { perIp: false });
    expect(r.pagesFetched).toBe(3 * PAGES);
    const all = connections(shared, r);
    const a = all.filter((x) => x.site === 'a.test');
    const b = all.filter((x) => x.site === 'b.test');
    expect(a.some((x) => b.some((y) => overlap(x, y)))).toBe(true);
    // Per site only: both sites' first pages end together, and the crawl is shorter.
    expect(a[0]!.end).toBe(b[0]!.end);
    expect(r.durationMs).toBeLessThan(run(shared, { perIp: true }).durationMs);
  });

  it('with no addresses recorded (a dataset folder) each host is its own address: perIp changes nothing', () => {
    const bare = graph(['a.test', 'b.test', 'c.test']);
    const on = run(bare, { perIp: true });
    const off = run(bare, { perIp: false });
    expect(Array.from(on.order)).toEqual(Array.from(off.order));
    expect(Array.from(on.times)).toEqual(Array.from(off.times));
  });
});

describe('simulate: the addresses a crawl database recorded', async () => {
  const dir = tmpDir();
  const site = (host: string) => ({
    host,
    pages: Array.from({ length: 6 }, (_, i) => ({ path: i === 0 ? '/' : `/p${i}.html`, links: i === 0 ? [1, 2, 3, 4, 5].map((k) => `/p${k}.html`) : ['/'] })),
  });
  // The test helpers resolve every host to 127.0.0.1: three sites on one address.
  const { port } = await serve(handWeb([site('a.test'), site('b.test'), site('c.test')]));
  const seeds = ['a', 'b', 'c'].map((h) => `http://${h}.test:${port}/`);
  const options = { policies: ['breadth-first'], r: 8, w: 1000, c: 1, bandwidth: Infinity, latency: false };

  it('a --per-ip crawl records one address for its three sites; simulate --per-ip then takes them one at a time', async () => {
    const db = join(dir, 'per-ip.db');
    await crawl(db, testSettings(seeds, { perIp: true }));
    expect(loadSimGraph(db).addresses).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    const on = simulate({ graph: db, ...options, perIp: true });
    const off = simulate({ graph: db, ...options });
    expect(on.addresses).toBe(1);
    expect(off.addresses).toBeNull();
    expect(on.policies[0]!.pagesFetched).toBe(18);
    expect(off.policies[0]!.pagesFetched).toBe(18);
    // Without latency a connection takes no time: the crawl is the waits between connections,
    // w apart per site (six connections) without perIp, per address (eighteen) with it.
    expect(off.policies[0]!.simulatedSeconds).toBeCloseTo(5, 6);
    expect(on.policies[0]!.simulatedSeconds).toBeCloseTo(17, 6);
  });

  it('a crawl made without --per-ip records no address: each site is its own, and --per-ip changes nothing', async () => {
    const db = join(dir, 'no-per-ip.db');
    await crawl(db, testSettings(seeds));
    expect(loadSimGraph(db).addresses).toEqual([null, null, null]);
    const on = simulate({ graph: db, ...options, perIp: true });
    const off = simulate({ graph: db, ...options });
    expect(on.addresses).toBe(3);
    expect(on.policies[0]!.simulatedSeconds).toBe(off.policies[0]!.simulatedSeconds);
  });
});
