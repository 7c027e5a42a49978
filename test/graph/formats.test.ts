/**
 * The four models in every format, written for a four-page graph whose files are worked out by
 * hand here (URL lengths: a.test/ 14, a.test/x 15, b.test/ 14, b.test/yy 16 bytes), and the
 * thesis's message example scored by hand.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateAssignment } from '../../core/graph/evaluate.js';
import { exportGraph } from '../../core/graph/export-graph.js';
import { fnv1a } from '../../core/graph/hash.js';
import { loadLinkGraph } from '../../core/graph/link-graph.js';
import type { GraphModel } from '../../core/graph/models.js';
import type { GraphFormat } from '../../core/graph/formats.js';
import { costUnit, sizeUnit } from '../../core/graph/weight-units.js';
import { writeFiles } from '../../core/graph/text-sink.js';
import { tmpDir } from '../helpers/tmp.js';
import { MESSAGE_EXAMPLE, MESSAGE_PARTS, TWO_SITES, writeDataset } from './fixtures.js';

const dir = tmpDir();
const source = writeDataset(join(dir, 'two-sites'), TWO_SITES);

function exported(model: GraphModel, format: GraphFormat): string[] {
  const g = loadLinkGraph(source);
  const out = join(dir, `${model}.${format}`);
  exportGraph(g, { model, format, out, force: true });
  return readFileSync(out, 'utf8').trimEnd().split('\n');
}
const data = (lines: string[]) => lines.filter((l) => !l.startsWith('%'));

describe('graph and hypergraph files of a small graph, by hand', () => {
  it('METIS page graph: n m 011 2, weights (KB rounded up, 1), each edge on both lines with the URL bytes of both directions', () => {
    const lines = exported('page', 'metis');
    expect(lines.filter((l) => l.startsWith('%')).join('\n')).toMatch(/size in KB \(1024 bytes, rounded up, at least 1\)/);
    expect(data(lines)).toEqual(['4 3 011 2', '2 1 2 29 3 14', '2 1 1 29', '1 1 4 16 1 14', '5 1 3 16']);
  });

  it('METIS site graph: total size and pages per site, the one link between the sites, links inside sites dropped', () => {
    expect(data(exported('site', 'metis'))).toEqual(['2 1 011 2', '4 2 2 14', '5 2 1 14']);
  });

  it('hMETIS: a net per page with out-links (the page and its targets), one weight per vertex', () => {
    expect(exported('page-hypergraph', 'hmetis')).toEqual(['3 4 10', '1 2 3', '2 1', '3 4', '2', '2', '1', '5']);
    // Site nets: page 1 joins a and b; the nets of pages 2 and 3 stay inside one site and go.
    expect(exported('site-hypergraph', 'hmetis')).toEqual(['1 2 10', '1 2', '4', '5']);
  });

  it('PaToH: 1 C N P 3 2, each net with its cost 1, then two weights per cell', () => {
    expect(exported('page-hypergraph', 'patoh')).toEqual(['1 4 3 7 3 2', '1 1 2 3', '1 2 1', '1 3 4', '2 1', '2 1', '1 1', '5 1']);
    expect(exported('site-hypergraph', 'patoh')).toEqual(['1 2 1 2 3 2', '1 1 2', '4 2', '5 2']);
  });

  it('edge lists: undirected edges once for the graph models, the directed links for the hypergraph models', () => {
    expect(exported('page', 'edgelist')).toEqual(['Source\tTarget\tWeight', '1\t2\t29', '1\t3\t14', '3\t4\t16']);
    expect(exported('page-hypergraph', 'edgelist')).toEqual(['Source\tTarget\tWeight', '1\t2\t15', '1\t3\t14', '2\t1\t14', '3\t4\t16']);
    expect(exported('site-hypergraph', 'edgelist')).toEqual(['Source\tTarget\tWeight', '1\t2\t14']);
  });

  it('writes an id map beside each file, its unit in the column name', () => {
    exported('site', 'metis');
    const ids = readFileSync(join(dir, 'site.metis.ids.tsv'), 'utf8').trimEnd().split('\n');
    expect(ids).toEqual(['Id\tLabel\tpages\tsize_bytes\tsize_KB', '1\ta.test\t2\t3548\t4', '2\tb.test\t2\t5100\t5']);
    exported('page', 'graphml');
    expect(readFileSync(join(dir, 'page.graphml.ids.tsv'), 'utf8').split('\n')[4]).toBe('4\thttp://b.test/yy\t5000\t5');
  });

  it('refuses a format that does not hold the model', () => {
    const g = loadLinkGraph(source);
    expect(() => exportGraph(g, { model: 'page', format: 'hmetis', out: join(dir, 'x') })).toThrow(/hmetis holds the page and site hypergraphs/);
    expect(() => exportGraph(g, { model: 'site-hypergraph', format: 'metis', out: join(dir, 'x') })).toThrow(/metis holds the page and site graphs/);
  });
});

describe('weights that fit in 32 bits', () => {
  it('sizes in KB while their sum fits, a coarser unit when not; edge costs in bytes until both ends of all sum past 2^31', () => {
    expect(sizeUnit([1500, 2048])).toBe(1024);
    const huge = new Array(10).fill(2 ** 40); // 10 TB each: 10 * 2^30 KB overflows
    const unit = sizeUnit(huge);
    expect(unit).toBeGreaterThan(1024);
    expect(huge.reduce((s, b) => s + Math.ceil(b / unit), 0)).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(costUnit(1e9, 10)).toBe(1);
    expect(costUnit(2e9, 10)).toBe(2);
  });
});

describe('the metrics, by hand', () => {
  it("the thesis's message example: page A reaches parts 1, 2 and 3: 3 messages carrying 6 URLs", () => {
    const g = loadLinkGraph(writeDataset(join(dir, 'message'), MESSAGE_EXAMPLE));
    const m = evaluateAssignment(g, 'page', 4, Uint32Array.from(MESSAGE_PARTS));
    expect(m.messages).toBe(3);
    expect(m.volume).toBe(6 * 20); // six URLs of 20 bytes
    expect(m.linksInside).toBeCloseTo(1 / 7, 12);
    // Pages per part 2, 2, 3, 1: the largest part is 50% above the average of 2.
    expect(m.requestImbalance).toBeCloseTo(50, 9);
    expect(m.storageImbalance).toBeCloseTo(50, 9);
    expect(m.sitesSplit).toBe(1);
  });

  it('a site model puts every page with its site: only the link between the sites crosses', () => {
    const g = loadLinkGraph(source);
    const m = evaluateAssignment(g, 'site', 2, Uint32Array.from([0, 1]));
    expect(m).toMatchObject({ volume: 14, messages: 1, sitesSplit: 0, linksInside: 3 / 4 });
    // Bytes per part 3,548 and 5,100: (5100 - 4324) / 4324.
    expect(m.storageImbalance).toBeCloseTo(((5100 - 4324) / 4324) * 100, 9);
    expect(m.requestImbalance).toBe(0);
  });

  it('the hash is FNV-1a of the UTF-8 bytes', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a('http://ñ.test/')).toBe(fnv1aBytes(Buffer.from('http://ñ.test/')));
  });
});

function fnv1aBytes(b: Buffer): number {
  let h = 0x811c9dc5;
  for (const x of b) h = Math.imul(h ^ x, 0x01000193);
  return h >>> 0;
}

describe('hMETIS and PaToH files of a generated web, read back by readers written here', () => {
  /** An hMETIS file: header `nets vertices 10`, then nets (1-based pins), then one weight a vertex. */
  function readHmetis(text: string) {
    const lines = text.trimEnd().split('\n');
    const [nets, vertices, fmt] = lines[0]!.split(' ').map(Number);
    expect(fmt).toBe(10);
    const pins = lines.slice(1, 1 + nets!).map((l) => l.split(' ').map(Number));
    const weights = lines.slice(1 + nets!).map(Number);
    expect(weights).toHaveLength(vertices!);
    return { vertices: vertices!, pins, weights };
  }
  /** A PaToH file: `1 C N P 3 2`, N nets `cost pin...` (1-based), then C pairs of cell weights. */
  function readPatoh(text: string) {
    const lines = text.trimEnd().split('\n');
    const [base, cells, nets, pinCount, scheme, constraints] = lines[0]!.split(' ').map(Number);
    expect([base, scheme, constraints]).toEqual([1, 3, 2]);
    const netLines = lines.slice(1, 1 + nets!).map((l) => l.split(' ').map(Number));
    const weights = lines.slice(1 + nets!).join(' ').trim().split(/\s+/).map(Number);
    expect(weights).toHaveLength(2 * cells!);
    expect(netLines.reduce((s, n) => s + n.length - 1, 0)).toBe(pinCount);
    return { cells: cells!, costs: netLines.map((n) => n[0]), pins: netLines.map((n) => n.slice(1)), weights };
  }

  it('hold the same nets, every pin a vertex, and the same sizes (PaToH adds the page counts)', async () => {
    const { generateWeb } = await import('../../core/testweb/generator.js');
    const { exportGraphDir } = await import('../../core/testweb/graph-files.js');
    const web = join(dir, 'generated');
    await exportGraphDir(generateWeb({ seed: 4, sites: 5, pages: 200, latency: false }), web);
    const g = loadLinkGraph(web);
    for (const model of ['page-hypergraph', 'site-hypergraph'] as GraphModel[]) {
      exportGraph(g, { model, format: 'hmetis', out: join(dir, `${model}.hgr`), force: true });
      exportGraph(g, { model, format: 'patoh', out: join(dir, `${model}.patoh`), force: true });
      const h = readHmetis(readFileSync(join(dir, `${model}.hgr`), 'utf8'));
      const p = readPatoh(readFileSync(join(dir, `${model}.patoh`), 'utf8'));
      expect(p.cells).toBe(h.vertices);
      expect(p.pins).toEqual(h.pins);
      expect(new Set(p.costs)).toEqual(new Set([1]));
      for (const net of h.pins) {
        expect(net.length).toBeGreaterThan(1);
        expect(new Set(net).size).toBe(net.length);
        for (const v of net) expect(v >= 1 && v <= h.vertices).toBe(true);
      }
      expect(p.weights.filter((_, i) => i % 2 === 0)).toEqual(h.weights);
      const pages = p.weights.filter((_, i) => i % 2 === 1);
      expect(pages.reduce((s, x) => s + x, 0)).toBe(g.n);
      // A net per page with out-links (page model), or per page whose links leave its site.
      const expected = model === 'page-hypergraph' ? g.n - countWithoutLinks(g) : crossSitePages(g);
      expect(h.pins).toHaveLength(expected);
    }
  });
});

function countWithoutLinks(g: ReturnType<typeof loadLinkGraph>): number {
  let n = 0;
  for (let v = 0; v < g.n; v++) if (g.offsets[v] === g.offsets[v + 1]) n++;
  return n;
}

function crossSitePages(g: ReturnType<typeof loadLinkGraph>): number {
  let n = 0;
  for (let v = 0; v < g.n; v++) {
    for (let i = g.offsets[v]!; i < g.offsets[v + 1]!; i++) {
      if (g.siteOf[g.targets[i]!] !== g.siteOf[v]) {
        n++;
        break;
      }
    }
  }
  return n;
}

describe('one graph file written by two exports at once', () => {
  it('each writes under a temporary name of its own and renames it whole; the last one written stays', () => {
    const folder = join(dir, 'twice');
    mkdirSync(folder);
    const out = join(folder, 'page.tsv');
    const lines = (tag: string) => Array.from({ length: 1000 }, (_, i) => `${tag}\t${i}`);
    // The second begins while the first is half written (two worker threads of the server share one pid).
    writeFiles([out], ([first]) => {
      for (const l of lines('first').slice(0, 500)) first!.line(l);
      writeFiles([out], ([second]) => lines('second').forEach((l) => second!.line(l)));
      for (const l of lines('first').slice(500)) first!.line(l);
    });
    expect(readFileSync(out, 'utf8')).toBe(lines('first').join('\n') + '\n');
    expect(readdirSync(folder)).toEqual(['page.tsv']);
  });
});
