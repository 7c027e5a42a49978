import { describe, expect, it } from 'vitest';
import { seriesCsvLines } from '../../core/cli/simulate-series.js';
import type { SimGraph } from '../../core/simulator/sim-graph.js';
import type { SimulateReport } from '../../core/simulator/report.js';
import { evaluateRun } from '../../core/simulator/simulate.js';
import { Simulation } from '../../core/simulator/simulation.js';

/** Pages by URL with their links; a page's site is its host. */
function graphOf(pages: Record<string, string[]>): SimGraph {
  const urls = Object.keys(pages);
  const hosts = [...new Set(urls.map((u) => new URL(u).host))];
  const offsets = new Uint32Array(urls.length + 1);
  const targets: number[] = [];
  urls.forEach((u, v) => {
    for (const t of pages[u]!) targets.push(urls.indexOf(t));
    offsets[v + 1] = targets.length;
  });
  return {
    source: 'hand', n: urls.length, urls,
    graph: { n: urls.length, offsets, targets: Uint32Array.from(targets) },
    siteOf: Int32Array.from(urls.map((u) => hosts.indexOf(new URL(u).host))),
    sites: hosts, sizes: null, measured: null,
  };
}

/**
 * a.test's home page links to its two other pages; b.test and c.test have one page each. Every
 * page is a seed (known from the start, discovered in this order); every fetch takes 100 ms
 * (no connect time, 100 ms to the answer, unlimited rate); r = 2 robots, c = 1, w = 1 s,
 * batches of K = 10 pages.
 */
const g = graphOf({
  'http://a.test/': ['http://a.test/1', 'http://a.test/2'],
  'http://a.test/1': [],
  'http://a.test/2': [],
  'http://b.test/': [],
  'http://c.test/': [],
});

function run() {
  return new Simulation(g, {
    policy: 'breadth-first', r: 2, w: 1000, c: 1, bandwidth: Infinity, batch: 10,
    network: { latency: true, seed: 1 }, seeds: [0, 1, 2, 3, 4],
    servers: () => ({ connectMs: 0, latencyMs: 100, bytesPerSec: Infinity, keepAliveMax: 100 }),
  }).run();
}

describe("the simulator's batches and active robots (Castillo §4.4, Figures 4.9-4.11)", () => {
  it('reports each batch: its pages by site, when it was formed and ended, and the robots active during it', () => {
    const r = run();
    // By hand. The first page known forms batch 1 alone (nothing was queued); the scheduler
    // admits the next batch when its queue runs below K/10, so at the first take (page a.test/
    // out) the other four become batch 2. t = 0: robots on a.test/ and b.test/ (2 active).
    // t = 100: both done; c.test/ starts (1 active); a.test waits w until 1,100.
    // t = 200: c.test/ done (0). a.test/1 from 1,100 to 1,200, a.test/2 from 2,200 to 2,300.
    expect(Array.from(r.order)).toEqual([0, 3, 4, 1, 2]);
    expect(Array.from(r.times)).toEqual([100, 100, 200, 1200, 2300]);
    expect(r.batches).toEqual([
      {
        index: 1, pages: 1, fetched: 1, sites: 1, pagesPerSite: [{ pages: 1, sites: 1 }],
        formedSeconds: 0, endSeconds: 0.1,
        // Two robots from the start until 100 ms, when one is left (c.test/ took a.test/'s place).
        activeRobots: { t: [0, 0.1], active: [2, 1] }, meanActiveRobots: 2,
      },
      {
        index: 2, pages: 4, fetched: 4, sites: 3,
        // b.test and c.test with 1 page each, a.test with 2 (Figure 4.9's distribution).
        pagesPerSite: [{ pages: 1, sites: 2 }, { pages: 2, sites: 1 }],
        formedSeconds: 0, endSeconds: 2.3,
        activeRobots: { t: [0, 0.1, 0.2, 1.1, 1.2, 2.2, 2.3], active: [2, 1, 0, 1, 0, 1, 0] },
        // Robot-ms: 2 x 100 + 1 x 100 + 1 x 100 + 1 x 100 = 500 over 2,300 ms.
        meanActiveRobots: 500 / 2300,
      },
    ]);
    // The page fetched halfway (the 3rd of 5, c.test/) is batch 2's.
    expect(r.middleBatch).toBe(2);
  });

  it('has no batches without --batch', () => {
    const r = new Simulation(g, {
      policy: 'breadth-first', r: 2, w: 1000, c: 1, bandwidth: Infinity,
      network: { latency: true, seed: 1 }, seeds: [0],
      servers: () => ({ connectMs: 0, latencyMs: 100, bytesPerSec: Infinity, keepAliveMax: 100 }),
    }).run();
    expect(r.batches).toBeNull();
    expect(r.middleBatch).toBeNull();
  });

  it('writes the series as --series-csv does, one row a point', () => {
    const outcome = evaluateRun(run(), new Float64Array(g.n).fill(1 / g.n), 10);
    const lines = seriesCsvLines({ policies: [outcome] } as unknown as SimulateReport);
    expect(lines[0]).toBe('series,policy,batch,x,y');
    expect(lines).toContain('middle_batch,breadth-first,2,,');
    expect(lines).toContain('batch_pages,breadth-first,2,0,4');
    expect(lines).toContain('batch_retrieval,breadth-first,2,0,2.3');
    expect(lines.filter((l) => l.startsWith('batch_pages_per_site,breadth-first,2,'))).toEqual([
      'batch_pages_per_site,breadth-first,2,1,2',
      'batch_pages_per_site,breadth-first,2,2,1',
    ]);
    expect(lines.filter((l) => l.startsWith('batch_active_robots,breadth-first,2,')).map((l) => l.split(',').slice(3).join(','))).toEqual([
      '0,2', '0.1,1', '0.2,0', '1.1,1', '1.2,0', '2.2,1', '2.3,0',
    ]);
    // The whole crawl's robots: 2 from the start, 1 at 100 ms, none at 200 ms, ... (ms in the report, s here).
    expect(lines.filter((l) => l.startsWith('active_robots,')).length).toBeGreaterThan(0);
  });
});
