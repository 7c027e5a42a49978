import Sqlite from '../../core/store/sqlite.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir, loadGraphDir } from '../../core/testweb/graph-files.js';
import { defaultSeeds, loadSimGraph, type SimGraph } from '../../core/simulator/sim-graph.js';
import { Simulation } from '../../core/simulator/simulation.js';
import { canonicalize } from '../../core/url/canonical.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();
const graphDir = join(dir, 'graph');
let g: SimGraph;
let port: number;

/**
 * The simulator must replay exactly what the crawler does: the same graph served by the
 * test web and crawled for real (latency off, r = 1, w = 0, c = 1) and simulated (latency
 * off, same settings) must fetch the same pages in the same order. Both use the one
 * scheduler and the one policy registry; ties break by page id, given in discovery order
 * by both.
 */
describe('the simulator and the real crawler fetch in the same order', async () => {
  // Made while the suite is read, not in a beforeAll: an afterAll registered there never runs,
  // and the server stayed open in the fork for the files after this one.
  await exportGraphDir(generateWeb({ seed: 11, sites: 14, pages: 450, latency: false }), graphDir);
  g = loadSimGraph(graphDir);
  ({ port } = await serve(loadGraphDir(graphDir)));

  for (const policy of ['breadth-first', 'opic', 'larger-sites-first']) {
    it(policy, async () => {
      const seeds = defaultSeeds(g);
      const db = join(dir, `${policy}.db`);
      const seedUrls = seeds.map((v) => g.urls[v]!.replace(/^http:\/\/([^/]+)/, `http://$1:${port}`));
      await crawl(db, testSettings(seedUrls, { policy, r: 1, w: 0, c: 1, maxDepth: 1000, maxDynamicDepth: 1000 }));
      const conn = new Sqlite(db, { readonly: true });
      const crawled = (conn.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL ORDER BY fetch_seq').pluck().all() as string[]).map((u) =>
        u.replace(`:${port}/`, '/'),
      );
      conn.close();

      const sim = new Simulation(g, { policy, r: 1, w: 0, c: 1, bandwidth: Infinity, network: { latency: false, seed: 1 }, seeds }).run();
      const simulated = Array.from(sim.order, (v) => canonicalize(g.urls[v]!)!);

      expect(crawled.length).toBeGreaterThan(400);
      expect(simulated.length).toBe(crawled.length);
      const firstDifference = simulated.findIndex((u, i) => u !== crawled[i]);
      expect(firstDifference).toBe(-1);
    }, 60_000);
  }

  it('differs between policies (so the comparison above says something)', () => {
    const seeds = defaultSeeds(g);
    const run = (policy: string) =>
      Array.from(new Simulation(g, { policy, r: 1, w: 0, c: 1, bandwidth: Infinity, network: { latency: false, seed: 1 }, seeds }).run().order);
    const bfs = run('breadth-first');
    expect(run('opic')).not.toEqual(bfs);
    expect(run('larger-sites-first')).not.toEqual(bfs);
  });
});
