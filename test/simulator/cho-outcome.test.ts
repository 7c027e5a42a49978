import { describe, expect, it } from 'vitest';
import { choOutcome, simMeasure } from '../../core/simulator/sim-measure.js';
import type { SimGraph } from '../../core/simulator/sim-graph.js';
import { evaluateRun } from '../../core/simulator/simulate.js';
import { Simulation } from '../../core/simulator/simulation.js';
import { inducedPageRank, reachable } from '../../core/simulator/truth.js';

// One site: / links to /1, /2 and /1/3; /1 and /2 link to /1/3; /x is not reachable.
// Backlinks from reachable pages: / 0, /1 1, /2 1, /1/3 3, /x 0.
const URLS = ['http://a.test/', 'http://a.test/1', 'http://a.test/2', 'http://a.test/1/3', 'http://a.test/x'];
const OUT = [[1, 2, 3], [3], [3], [], [0]];
function graph(): SimGraph {
  const offsets = [0];
  const targets: number[] = [];
  for (const out of OUT) {
    targets.push(...out);
    offsets.push(targets.length);
  }
  const n = URLS.length;
  return {
    source: 'hand', n, urls: URLS,
    graph: { n, offsets: Uint32Array.from(offsets), targets: Uint32Array.from(targets) },
    siteOf: new Int32Array(n), sites: ['a.test'], sizes: new Float64Array(n).fill(1000), measured: null,
  };
}

describe("simulator: Cho et al.'s models for every ordering", () => {
  const g = graph();
  const truth = inducedPageRank(g.graph, reachable(g.graph, [0]));
  const p = { g, seeds: [0], truth };
  const run = new Simulation(g, {
    policy: 'breadth-first', r: 1, w: 0, c: 1, bandwidth: Infinity, network: { latency: false, seed: 1 }, seeds: [0],
  }).run();

  it('backlinks over the reachable graph; hot pages on the raw scale; Crawl & Stop with and without threshold by hand', () => {
    expect(Array.from(run.order)).toEqual([0, 1, 2, 3]); // breadth-first
    const m = simMeasure(p, { measure: 'backlinks', threshold: 1 });
    expect(Array.from(m.values)).toEqual([0, 1, 1, 3, 0]);
    expect(m.hotTotal).toBe(3);
    const cho = choOutcome(run.order, m, 100);
    // Hot pages /1, /2, /1/3: none after 1 page (25%), one after 2, two after 3.
    expect(cho.threshold).toEqual({ g: 1, hotPages: 3, fetched: [{ percent: 10, share: 0 }, { percent: 25, share: 0 }, { percent: 50, share: 1 / 3 }, { percent: 75, share: 2 / 3 }] });
    // Crawl & Stop: K = 1 takes / (0) where the top page has 3: 0; K = 2 (50%): /1 shares the second place: 1/2.
    expect(cho.crawlAndStop.map((c) => c.share)).toEqual([0, 0, 0, 0, 0.5]);
    expect(cho.curve.map((c) => c.hotFetched)).toEqual([0, 1 / 3, 2 / 3, 1]);
  });

  it("the paper's G = 100 for backlinks by default, and each ordering's outcome carries the curves and the sampled tau", () => {
    const m = simMeasure(p, { measure: 'backlinks' });
    expect(m.g).toBe(100);
    const outcome = evaluateRun(run, truth, 50, simMeasure(p, { measure: 'ir' }));
    expect(outcome.cho!.threshold.g).toBe(13); // IR with d = 0.9 summing to N
    expect(outcome.kendallTauSampled).toEqual({ size: 4, seed: 1, tau: outcome.kendallTau });
    expect(outcome.cho!.curve).toHaveLength(4);
    const ir = simMeasure(p, { measure: 'ir' });
    expect(ir.values.reduce((a, b) => a + b, 0)).toBeCloseTo(4, 9); // the 4 reachable pages
    // --tau-sample: a sample of 2 of the 4 pages, seeded.
    const sampled = evaluateRun(run, truth, 50, simMeasure(p, { measure: 'ir', tauSample: 2 }));
    expect(sampled.kendallTauSampled.size).toBe(2);
  });

  it('similarity needs page text: a dataset folder is refused in words', () => {
    expect(() => simMeasure({ ...p, g: { ...g, source: '.' } }, { measure: 'similarity', query: 'x' })).toThrow(/crawl database/);
  });
});
