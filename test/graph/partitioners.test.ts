/**
 * The files against the real tools: graphchk accepts every METIS file and gpmetis partitions
 * it, KaHyPar partitions every hMETIS file, networkx reads the GraphML and the edge lists back,
 * and byte sizes past 2^31 still give weights METIS accepts. Skipped only on a developer machine
 * without the tools; CI installs them (.ci/run), and under CI=true a missing tool fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePartVector } from '../../core/graph/assignment.js';
import { evaluateAssignment } from '../../core/graph/evaluate.js';
import { exportGraph } from '../../core/graph/export-graph.js';
import { loadLinkGraph, type LinkGraph } from '../../core/graph/link-graph.js';
import { vertexCount, type GraphModel } from '../../core/graph/models.js';
import { findGpmetis, findKahypar, runGpmetis, runKahypar } from '../../core/graph/tools.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { tmpDir } from '../helpers/tmp.js';
import { writeDataset } from './fixtures.js';

const KAHYPAR = process.env.CRAWLBENCH_KAHYPAR ?? '/var/cache/crawlbench/kahypar/bin/KaHyPar';
const haveTools = existsSync('/usr/bin/graphchk') && findGpmetis().path !== null && existsSync(KAHYPAR);
const skip = !haveTools && !process.env.CI;

const dir = tmpDir();
const web = join(dir, 'web');
let g: LinkGraph;

function graphchk(file: string): string {
  return execFileSync('graphchk', [file], { encoding: 'utf8' });
}

describe.skipIf(skip)('partitioners on the exported files', () => {
  beforeAll(async () => {
    await exportGraphDir(generateWeb({ seed: 17, sites: 8, pages: 400, latency: false }), web);
    g = loadLinkGraph(web);
  });

  for (const model of ['page', 'site'] as GraphModel[]) {
    it(`${model} graph: graphchk accepts it, gpmetis partitions it, and its cut is the volume partition-eval counts`, async () => {
      const file = join(dir, `${model}.graph`);
      exportGraph(g, { model, format: 'metis', out: file });
      expect(graphchk(file)).toMatch(/The format of the graph is correct/);
      const parts = await runGpmetis(findGpmetis(), file, 4, 1);
      const vector = parsePartVector(readFileSync(parts, 'utf8'), vertexCount(g, model), 4, parts);
      const m = evaluateAssignment(g, model, 4, vector);
      expect(new Set(vector).size).toBe(4);
      expect(m.volume).toBeGreaterThan(0);
      // gpmetis reports the edge cut: the sum of the costs of cut edges = the volume.
      const report = execFileSync('gpmetis', ['-ptype=kway', '-ubvec=1.05 1.05', '-seed=1', file, '4'], { encoding: 'utf8' });
      expect(Number(/Edgecut: (\d+)/.exec(report)![1])).toBe(m.volume);
    });
  }

  for (const model of ['page-hypergraph', 'site-hypergraph'] as GraphModel[]) {
    it(`${model}: KaHyPar partitions the hMETIS file (km1), and its km1 is the message count`, async () => {
      const file = join(dir, `${model}.hgr`);
      exportGraph(g, { model, format: 'hmetis', out: file });
      const parts = await runKahypar(findKahypar(KAHYPAR), file, 4, 1);
      const vector = parsePartVector(readFileSync(parts, 'utf8'), vertexCount(g, model), 4, parts);
      expect(new Set(vector).size).toBe(4);
      const m = evaluateAssignment(g, model, 4, vector);
      expect(m.messages).toBeGreaterThan(0);
      expect(m.messages).toBe(km1(readFileSync(file, 'utf8'), vector));
    }, 60_000);
  }

  it('byte sizes summing past 2^31 (and past 2^31 KB) still give weights graphchk and gpmetis accept', async () => {
    const pages = Array.from({ length: 60 }, (_, i): [string, number] => [`http://s${i % 3}.test/p${i}`, i % 2 ? 5e8 : 1e13]);
    const links = Array.from({ length: 59 }, (_, i): [number, number] => [i, i + 1]);
    const big = loadLinkGraph(writeDataset(join(dir, 'big'), { pages, links }));
    for (const model of ['page', 'site'] as GraphModel[]) {
      const file = join(dir, `big-${model}.graph`);
      const r = exportGraph(big, { model, format: 'metis', out: file });
      expect(r.sizeUnit).toBeGreaterThan(1024);
      expect(graphchk(file)).toMatch(/The format of the graph is correct/);
      expect(readFileSync(file, 'utf8')).toContain(`size in ${r.sizeUnit / 1024}KB (${r.sizeUnit} bytes`);
      const vector = parsePartVector(readFileSync(await runGpmetis(findGpmetis(), file, 2, 1), 'utf8'), vertexCount(big, model), 2, 'part');
      expect(vector.length).toBe(vertexCount(big, model));
      expect(readFileSync(`${file}.ids.tsv`, 'utf8').split('\n')[0]!.split('\t').at(-1)).toBe(`size_${r.sizeUnit / 1024}KB`);
    }
    // Only past 2^31 bytes: KB is enough.
    const mid = loadLinkGraph(writeDataset(join(dir, 'mid'), { pages: pages.map(([u]) => [u, 1e8]), links }));
    const file = join(dir, 'mid.graph');
    expect(exportGraph(mid, { model: 'page', format: 'metis', out: file }).sizeUnit).toBe(1024);
    expect(graphchk(file)).toMatch(/The format of the graph is correct/);
  });

  it("networkx reads the GraphML and the edge list back: the same vertices, edges, weights and labels", () => {
    for (const model of ['page', 'site-hypergraph'] as GraphModel[]) {
      const gml = join(dir, `${model}.graphml`);
      const tsv = join(dir, `${model}.tsv`);
      const a = exportGraph(g, { model, format: 'graphml', out: gml });
      exportGraph(g, { model, format: 'edgelist', out: tsv });
      const py = `
import sys, json, networkx as nx
g = nx.read_graphml(sys.argv[1])
lines = open(sys.argv[2]).read().splitlines()
assert lines[0] == 'Source\\tTarget\\tWeight'
e = nx.parse_edgelist(lines[1:], delimiter='\\t', nodetype=int, data=[('Weight', int)], create_using=nx.DiGraph if g.is_directed() else nx.Graph)
print(json.dumps({'directed': g.is_directed(), 'nodes': g.number_of_nodes(), 'edges': g.number_of_edges(),
  'weight': sum(d['weight'] for _, _, d in g.edges(data=True)), 'tsvEdges': e.number_of_edges(),
  'tsvWeight': sum(d['Weight'] for _, _, d in e.edges(data=True)), 'label': g.nodes['n1']['label'], 'pages': sum(d['pages'] for _, d in g.nodes(data=True))}))`;
      const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, gml, tsv], { encoding: 'utf8' })) as Record<string, unknown>;
      const totalCost = model === 'page' ? sumOfUrlBytes(g) : siteCrossBytes(g);
      expect(out).toEqual({ directed: model !== 'page', nodes: a.vertices, edges: a.edges, weight: totalCost, tsvEdges: a.edges, tsvWeight: totalCost, label: model === 'page' ? [...g.urls()][0] : g.sites[0], pages: g.n });
    }
  });
});

/** Every link costs its target's URL once: the page graph's edge costs sum to that. */
function sumOfUrlBytes(g: LinkGraph): number {
  let s = 0;
  for (const t of g.targets) s += g.urlBytes[t]!;
  return s;
}

function siteCrossBytes(g: LinkGraph): number {
  let s = 0;
  for (let u = 0; u < g.n; u++) for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) if (g.siteOf[u] !== g.siteOf[g.targets[i]!]) s += g.urlBytes[g.targets[i]!]!;
  return s;
}

/** (connectivity - 1) summed over the nets of an hMETIS file, for a part vector: computed apart from evaluate.ts. */
function km1(hgr: string, parts: Uint32Array): number {
  const lines = hgr.trimEnd().split('\n');
  const nets = Number(lines[0]!.split(' ')[0]);
  let sum = 0;
  for (let i = 1; i <= nets; i++) sum += new Set(lines[i]!.split(' ').map((p) => parts[Number(p) - 1])).size - 1;
  return sum;
}
