/**
 * The files against the real tools: graphchk accepts every METIS file and gpmetis partitions
 * it, crawlbench's Zoltan PHG driver (and KaHyPar, where it is installed) partitions every
 * hMETIS file into a balanced part vector whose messages are what partition-eval counts,
 * networkx reads the GraphML and the edge lists back, and byte sizes past 2^31 still give
 * weights METIS accepts. Each suite or test runs where its outside references are present
 * (test/references.ts), and says what it needs where they are not.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashAssignment, parsePartVector } from '../../core/graph/assignment.js';
import { evaluateAssignment } from '../../core/graph/evaluate.js';
import { exportGraph } from '../../core/graph/export-graph.js';
import { loadLinkGraph, type LinkGraph } from '../../core/graph/link-graph.js';
import { vertexCount, type GraphModel } from '../../core/graph/models.js';
import { ZOLTAN_ENV, findGpmetis, findKahypar, findZoltan, runGpmetis, runKahypar, runZoltan, type Tool } from '../../core/graph/tools.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { PYTHON, describeWith, itWith, refPath } from '../references.js';
import { writeDataset } from './fixtures.js';

const dir = tmpDir();
const web = join(dir, 'web');
let g: LinkGraph;

beforeAll(async () => {
  await exportGraphDir(generateWeb({ seed: 17, sites: 8, pages: 400, latency: false }), web);
  g = loadLinkGraph(web);
});

function graphchk(file: string): string {
  return execFileSync('graphchk', [file], { encoding: 'utf8' });
}

const zoltan = (): Tool => ({ name: 'Zoltan PHG', path: refPath('zoltan') });

/** The driver's own line: "K=4 seed=1: connectivity-1 C, imbalance I%, S s". */
function phgSays(file: string, k: number, seed: number, out: string): { km1: number; imbalance: number } {
  const said = execFileSync(refPath('zoltan'), [file, String(k), String(seed), out], { encoding: 'utf8', env: { ...process.env, ...ZOLTAN_ENV } });
  const m = /^K=(\d+) seed=(\d+): connectivity-1 (\d+), imbalance ([\d.]+)%, [\d.]+ s\n$/.exec(said);
  expect(m, said).not.toBeNull();
  expect([Number(m![1]), Number(m![2])]).toEqual([k, seed]);
  return { km1: Number(m![3]), imbalance: Number(m![4]) };
}

describeWith(['metis'], 'gpmetis on the exported METIS files', () => {
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
});

describeWith(['zoltan'], "Zoltan PHG (crawlbench's driver) on the exported hMETIS files", () => {
  // The test web's 8 sites are equal in size, so K = 4 can be balanced at the site level too.
  for (const model of ['page-hypergraph', 'site-hypergraph'] as GraphModel[]) {
    it(`${model}: a part per vertex in 0..K-1, within 5% as partition-eval counts, and its messages are partition-eval's`, async () => {
      const file = join(dir, `${model}.hgr`);
      exportGraph(g, { model, format: 'hmetis', out: file, force: true });
      const n = vertexCount(g, model);
      for (const seed of [1, 2]) {
        const out = await runZoltan(zoltan(), file, 4, seed);
        const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
        expect(lines).toHaveLength(n);
        expect(lines.every((l) => /^[0-3]$/.test(l))).toBe(true);
        const vector = parsePartVector(readFileSync(out, 'utf8'), n, 4, out);
        expect(new Set(vector).size).toBe(4);
        const m = evaluateAssignment(g, model, 4, vector);
        expect(m.storageImbalance).toBeLessThanOrEqual(5 + 1e-9);
        expect(m.messages).toBeGreaterThan(0);
        // Three counts of the messages agree: partition-eval's, the file's own (connectivity - 1
        // over its nets, counted here) and the driver's.
        expect(m.messages).toBe(km1(readFileSync(file, 'utf8'), vector));
        const said = phgSays(file, 4, seed, join(dir, `${model}.again`));
        expect(said.km1).toBe(m.messages);
        // The same seed, the same partition.
        expect(readFileSync(join(dir, `${model}.again`), 'utf8')).toBe(readFileSync(out, 'utf8'));
        const cli = await crawlbench(['partition-eval', '--graph', web, '--model', model, '--parts', '4', '--assign', out, '--json']);
        expect(cli.code, cli.stderr).toBe(0);
        expect(JSON.parse(cli.stdout)).toMatchObject({ messages: m.messages, volume: m.volume, parts: 4 });
      }
    }, 60_000);
  }

  it('balances the sizes (the vertex weights), not the page counts, and beats hashing on messages', async () => {
    // 64 pages on 4 sites, every eighth 8 KB and the rest 1 KB: balance by count would put the
    // heavy ones anywhere; balance by size must spread them.
    const pages = Array.from({ length: 64 }, (_, i): [string, number] => [`http://s${i % 4}.test/p${i}`, i % 8 === 0 ? 8192 : 1024]);
    const links = pages.flatMap((_, i): Array<[number, number]> => [[i, (i + 1) % 64], [i, (i + 4) % 64], [i, (i * 7 + 3) % 64]]);
    const sized = loadLinkGraph(writeDataset(join(dir, 'sized'), { pages, links }));
    const file = join(dir, 'sized.hgr');
    exportGraph(sized, { model: 'page-hypergraph', format: 'hmetis', out: file });
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').slice(-64).filter((l) => l === '8')).toHaveLength(8);
    for (const k of [2, 4]) {
      const out = await runZoltan(zoltan(), file, k, 1);
      const vector = parsePartVector(readFileSync(out, 'utf8'), 64, k, out);
      const m = evaluateAssignment(sized, 'page-hypergraph', k, vector);
      expect(m.storageImbalance, `K=${k}`).toBeLessThanOrEqual(5 + 1e-9);
      expect(m.messages).toBeLessThan(evaluateAssignment(sized, 'page-hypergraph', k, hashAssignment(sized, 'page-hypergraph', k)).messages);
    }
  }, 60_000);

  it('refuses a malformed hMETIS file in one line naming it and the line, and a K beyond the vertices', async () => {
    const bad = join(dir, 'bad.hgr');
    writeFileSync(bad, '2 3 10\n1 2\n2 4\n1\n1\n1\n');
    await expect(runZoltan(zoltan(), bad, 2, 1)).rejects.toThrow(/Zoltan PHG .* ended with status 2: crawlbench-phg: .*bad\.hgr line 3: net 2 has a pin that is not a vertex 1\.\.3$/);
    writeFileSync(bad, '1 3 10\n1 2\n1\n1\n');
    await expect(runZoltan(zoltan(), bad, 2, 1)).rejects.toThrow(/the file ends after 2 of its 3 vertex weights/);
    writeFileSync(bad, '1 3\n1 2 3\n');
    await expect(runZoltan(zoltan(), bad, 4, 1)).rejects.toThrow(/K = 4 parts for 3 vertices: at most 3/);
    // No arguments: the usage line.
    const r = (() => {
      try {
        execFileSync(refPath('zoltan'), [], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ...ZOLTAN_ENV } });
        return null;
      } catch (err) {
        return err as { status: number; stderr: string };
      }
    })();
    expect(r?.status).toBe(2);
    expect(r?.stderr).toMatch(/^crawlbench-phg: usage: crawlbench-phg HGR_FILE K SEED PART_FILE/);
  });
});

describe('finding the Zoltan driver', () => {
  const saved = { PATH: process.env.PATH, CRAWLBENCH_CACHE: process.env.CRAWLBENCH_CACHE, CC: process.env.CC };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('without a C compiler and no driver built yet: the one line that installs them', () => {
    process.env.CRAWLBENCH_CACHE = join(dir, 'empty-cache');
    process.env.PATH = join(dir, 'no-tools');
    delete process.env.CC;
    mkdirSync(process.env.PATH, { recursive: true });
    const t = findZoltan();
    expect(t.path).toBeNull();
    expect(t.missing).toBe("crawlbench's Zoltan PHG driver needs a C compiler: apt-get install gcc libtrilinos-zoltan-dev libopenmpi-dev");
  });

  itWith(['zoltan'], 'compiles the driver into the cache folder on first use, and again when it is older than its source', () => {
    const cache = join(dir, 'fresh-cache');
    process.env.CRAWLBENCH_CACHE = cache;
    const t = findZoltan();
    expect(t).toEqual({ name: 'Zoltan PHG', path: join(cache, 'zoltan', 'crawlbench-phg') });
    // Found again without building.
    const built = statSync(t.path!).mtimeMs;
    expect(findZoltan().path).toBe(t.path);
    expect(statSync(t.path!).mtimeMs).toBe(built);
    // Older than phg-driver.c: built again.
    utimesSync(t.path!, new Date(0), new Date(0));
    expect(findZoltan().path).toBe(t.path);
    expect(statSync(t.path!).mtimeMs).toBeGreaterThan(1000);
  }, 120_000);
});

describe('KaHyPar', () => {
  for (const model of ['page-hypergraph', 'site-hypergraph'] as GraphModel[]) {
    itWith(['kahypar'], `${model}: KaHyPar partitions the hMETIS file (km1), and its km1 is the message count`, async () => {
      const file = join(dir, `${model}.kahypar.hgr`);
      exportGraph(g, { model, format: 'hmetis', out: file });
      const parts = await runKahypar(findKahypar(refPath('kahypar')), file, 4, 1);
      const vector = parsePartVector(readFileSync(parts, 'utf8'), vertexCount(g, model), 4, parts);
      expect(new Set(vector).size).toBe(4);
      const m = evaluateAssignment(g, model, 4, vector);
      expect(m.messages).toBeGreaterThan(0);
      expect(m.messages).toBe(km1(readFileSync(file, 'utf8'), vector));
    }, 60_000);
  }
});

itWith(['networkx'], 'networkx reads the GraphML and the edge list back: the same vertices, edges, weights and labels', () => {
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
    const out = JSON.parse(execFileSync(PYTHON, ['-c', py, gml, tsv], { encoding: 'utf8' })) as Record<string, unknown>;
    const totalCost = model === 'page' ? sumOfUrlBytes(g) : siteCrossBytes(g);
    expect(out).toEqual({ directed: model !== 'page', nodes: a.vertices, edges: a.edges, weight: totalCost, tsvEdges: a.edges, tsvWeight: totalCost, label: model === 'page' ? [...g.urls()][0] : g.sites[0], pages: g.n });
  }
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
