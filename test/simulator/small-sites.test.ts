import { describe, expect, it } from 'vitest';
import type { SmallSiteWait } from '../../core/scheduler/site-wait.js';
import type { SimGraph } from '../../core/simulator/sim-graph.js';
import { Simulation } from '../../core/simulator/simulation.js';

/** Two sites whose home pages link to all their pages: small.test (4 pages) and big.test (120). */
function graph(): SimGraph {
  const sizes = [4, 120];
  const hosts = ['small.test', 'big.test'];
  const urls: string[] = [];
  const siteOf: number[] = [];
  const targets: number[] = [];
  const offsets = [0];
  sizes.forEach((size, s) => {
    const home = urls.length;
    for (let k = 0; k < size; k++) {
      urls.push(`http://${hosts[s]}/${k === 0 ? '' : `p${k}`}`);
      siteOf.push(s);
      if (k === 0) for (let j = 1; j < size; j++) targets.push(home + j);
      offsets.push(targets.length);
    }
  });
  const n = urls.length;
  return {
    source: 'hand', n, urls,
    graph: { n, offsets: Uint32Array.from(offsets), targets: Uint32Array.from(targets) },
    siteOf: Int32Array.from(siteOf), sites: hosts, sizes: new Float64Array(n).fill(10_000), measured: null,
  };
}

const W = 1000;
const W_SMALL = 15_000;
// Every connection lasts 250 ms (50 ms connect, 100 ms to the first byte, 10,000 B at 100,000 B/s).
const CONNECTION_MS = 250;

/** The waits between one site's connections (c = 1: a connection per page). */
function gaps(smallSites: SmallSiteWait | null): Map<string, number[]> {
  const g = graph();
  const r = new Simulation(g, {
    policy: 'breadth-first', r: 10, w: W, c: 1, bandwidth: Infinity, network: { latency: true, seed: 1 }, seeds: [0, 4],
    servers: () => ({ connectMs: 50, latencyMs: 100, bytesPerSec: 100_000, keepAliveMax: 100 }),
    smallSites,
  }).run();
  expect(r.pagesFetched).toBe(124);
  const ends = new Map<string, number[]>();
  r.order.forEach((v, i) => {
    const site = g.sites[g.siteOf[v]!]!;
    ends.set(site, [...(ends.get(site) ?? []), r.times[i]!]);
  });
  const out = new Map<string, number[]>();
  for (const [site, t] of ends) out.set(site, t.slice(1).map((x, i) => Math.round(x - CONNECTION_MS - t[i]!)));
  return out;
}

describe('simulator: w for small sites (--w-small, --small-site)', () => {
  it('a site under --small-site pages waits w-small between connections, a larger one w', () => {
    const g = gaps({ wSmall: W_SMALL, smallSite: 100 });
    expect(new Set(g.get('small.test'))).toEqual(new Set([W_SMALL]));
    expect(new Set(g.get('big.test'))).toEqual(new Set([W]));
  });

  it("without them every site waits w; a site's size in the history crawl comes first", () => {
    expect(new Set(gaps(null).get('small.test'))).toEqual(new Set([W]));
    // The history crawl knew 500 pages of small.test: it is not small, though 4 are known now.
    const g = gaps({ wSmall: W_SMALL, smallSite: 100, historySizes: new Map([['small.test', 500], ['big.test', 50]]) });
    expect(new Set(g.get('small.test'))).toEqual(new Set([W]));
    expect(new Set(g.get('big.test'))).toEqual(new Set([W_SMALL]));
  });
});
