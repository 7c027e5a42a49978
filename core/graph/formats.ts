/**
 * The file formats, each written in two passes over the model (the first counts what the
 * header needs: METIS wants the edge count, hMETIS and PaToH the nets and pins, before any
 * line), so nothing but one vertex's neighbours or one net is held at a time.
 *
 * Vertex ids are 1..n in every format (0-based nowhere but in part vectors, as gpmetis and
 * KaHyPar write them), in the model's vertex order: pages in node order, sites in order of
 * their first page; the id map beside each file names them.
 */
import { costUnit, inUnits, sizeUnit, unitName } from './weight-units.js';
import type { LinkGraph } from './link-graph.js';
import { directedModel, forEachNet, isHypergraph, isSiteModel, undirectedModel, vertexCount, vertexNoun, vertexWeights, type GraphModel } from './models.js';
import type { GraphFormat } from './report.js';
import type { TextSink } from './text-sink.js';

export { FORMATS, type GraphFormat } from './report.js';

/** What a written file holds. */
export interface FormatSummary {
  vertices: number;
  /** Undirected edges (graph models), nets (hypergraph formats) or directed links (edge list, GraphML of a hypergraph model). */
  edges: number;
  /** Pins of all nets (hypergraph formats). */
  pins?: number;
  /** Bytes per unit of the vertex sizes written (1024: KB). */
  sizeUnit: number;
  /** Bytes per unit of the edge costs written (1: bytes). */
  costUnit: number;
}

/** Which formats a model can be written in. */
export function formatFits(m: GraphModel, f: GraphFormat): boolean {
  if (f === 'metis') return !isHypergraph(m);
  if (f === 'hmetis' || f === 'patoh') return isHypergraph(m);
  return true;
}

const clean = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** METIS graph: `n m 011 2`, vertex weights (size, pages) and a cost per edge on both endpoints' lines. */
export function writeMetis(g: LinkGraph, m: GraphModel, out: TextSink): FormatSummary {
  const adj = undirectedModel(g, m);
  const w = vertexWeights(g, m);
  const unit = sizeUnit(w.bytes);
  let ends = 0;
  let costs = 0;
  for (let u = 0; u < adj.n; u++) {
    adj.neighbours(u, (_v, c) => {
      ends++;
      costs += c;
    });
  }
  const edges = ends / 2;
  const cu = costUnit(costs / 2, edges);
  const noun = vertexNoun(m);
  out.line(`% crawlbench ${m} graph of ${clean(g.source)}: ${adj.n} ${noun}s, ${edges} edges; vertex ids as in the id map`);
  out.line(`% vertex weights: size in ${unitName(unit)} (${unit} bytes, rounded up, at least 1), then ${noun === 'page' ? '1 (one page)' : 'the pages of the site'}`);
  out.line(`% edge weights: total length in ${unitName(cu)} of the URLs of the links between the two, both directions${cu > 1 ? ' (rounded up, at least 1)' : ''}`);
  out.line(`${adj.n} ${edges} 011 2`);
  for (let u = 0; u < adj.n; u++) {
    const parts: number[] = [inUnits(w.bytes[u]!, unit), w.pages[u]!];
    adj.neighbours(u, (v, c) => parts.push(v + 1, cu === 1 ? c : inUnits(c, cu)));
    out.line(parts.join(' '));
  }
  return { vertices: adj.n, edges, sizeUnit: unit, costUnit: cu };
}

interface NetCounts {
  nets: number;
  pins: number;
}

function countNets(g: LinkGraph, m: GraphModel): NetCounts {
  let nets = 0;
  let pins = 0;
  forEachNet(g, m, (_p, count) => {
    nets++;
    pins += count;
  });
  return { nets, pins };
}

function netLine(pins: Uint32Array, count: number, prefix: string): string {
  let line = prefix;
  for (let i = 0; i < count; i++) line += (i === 0 && prefix === '' ? '' : ' ') + (pins[i]! + 1);
  return line;
}

/** hMETIS: `nets vertices 10`, one line of 1-based pins per net (cost 1), then one weight per vertex (its size). */
export function writeHmetis(g: LinkGraph, m: GraphModel, out: TextSink): FormatSummary {
  const { nets, pins } = countNets(g, m);
  const n = vertexCount(g, m);
  const w = vertexWeights(g, m);
  const unit = sizeUnit(w.bytes);
  out.line(`${nets} ${n} 10`);
  forEachNet(g, m, (p, count) => out.line(netLine(p, count, '')));
  for (let v = 0; v < n; v++) out.line(String(inUnits(w.bytes[v]!, unit)));
  return { vertices: n, edges: nets, pins, sizeUnit: unit, costUnit: 1 };
}

/** PaToH: `1 C N P 3 2` (1-based, net costs and two cell weights), each net `cost pins...`, then each cell's (size, pages). */
export function writePatoh(g: LinkGraph, m: GraphModel, out: TextSink): FormatSummary {
  const { nets, pins } = countNets(g, m);
  const n = vertexCount(g, m);
  const w = vertexWeights(g, m);
  const unit = sizeUnit(w.bytes);
  out.line(`1 ${n} ${nets} ${pins} 3 2`);
  forEachNet(g, m, (p, count) => out.line(netLine(p, count, '1')));
  for (let v = 0; v < n; v++) out.line(`${inUnits(w.bytes[v]!, unit)} ${w.pages[v]!}`);
  return { vertices: n, edges: nets, pins, sizeUnit: unit, costUnit: 1 };
}

/**
 * A TSV edge list with a Source/Target/Weight header (Gephi's spreadsheet import; the id map
 * is its nodes table). Graph models: each undirected edge once, its cost in bytes; hypergraph
 * models: the directed links their nets come from.
 */
export function writeEdgeList(g: LinkGraph, m: GraphModel, out: TextSink): FormatSummary {
  const directed = isHypergraph(m);
  const adj = directed ? directedModel(g, m) : undirectedModel(g, m);
  let edges = 0;
  out.line('Source\tTarget\tWeight');
  for (let u = 0; u < adj.n; u++) {
    adj.neighbours(u, (v, c) => {
      if (!directed && v < u) return;
      edges++;
      out.line(`${u + 1}\t${v + 1}\t${c}`);
    });
  }
  return { vertices: adj.n, edges, sizeUnit: 1, costUnit: 1 };
}

/** XML 1.0 text: escaped, characters XML forbids dropped. */
function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** GraphML (networkx, Gephi): nodes with label, size and pages; edges with their cost in bytes. */
export function writeGraphml(g: LinkGraph, m: GraphModel, out: TextSink): FormatSummary {
  const directed = isHypergraph(m);
  const adj = directed ? directedModel(g, m) : undirectedModel(g, m);
  const w = vertexWeights(g, m);
  out.line('<?xml version="1.0" encoding="UTF-8"?>');
  out.line('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">');
  out.line('  <key id="label" for="node" attr.name="label" attr.type="string"/>');
  out.line('  <key id="bytes" for="node" attr.name="size_bytes" attr.type="double"/>');
  out.line('  <key id="pages" for="node" attr.name="pages" attr.type="long"/>');
  out.line('  <key id="weight" for="edge" attr.name="weight" attr.type="long"/>');
  out.line(`  <graph id="${xml(m)}" edgedefault="${directed ? 'directed' : 'undirected'}">`);
  let v = 0;
  for (const label of labels(g, m)) {
    out.line(`    <node id="n${v + 1}"><data key="label">${xml(label)}</data><data key="bytes">${w.bytes[v]}</data><data key="pages">${w.pages[v]}</data></node>`);
    v++;
  }
  let edges = 0;
  for (let u = 0; u < adj.n; u++) {
    adj.neighbours(u, (t, c) => {
      if (!directed && t < u) return;
      edges++;
      out.line(`    <edge source="n${u + 1}" target="n${t + 1}"><data key="weight">${c}</data></edge>`);
    });
  }
  out.line('  </graph>');
  out.line('</graphml>');
  return { vertices: adj.n, edges, sizeUnit: 1, costUnit: 1 };
}

/** Each vertex's name in vertex order: its URL (read again from the source) or its site. */
export function labels(g: LinkGraph, m: GraphModel): Iterable<string> {
  return isSiteModel(m) ? g.sites : g.urls();
}

/**
 * The id map: `Id Label ...` (Gephi's nodes table), one row per vertex; the size columns say
 * their unit in their name: size_bytes, and size_KB (or the coarser unit) as the weighted
 * formats carry it.
 */
export function writeIdMap(g: LinkGraph, m: GraphModel, unit: number, out: TextSink): void {
  const w = vertexWeights(g, m);
  const site = isSiteModel(m);
  out.line(['Id', 'Label', ...(site ? ['pages'] : []), 'size_bytes', `size_${unitName(unit)}`].join('\t'));
  let v = 0;
  for (const label of labels(g, m)) {
    const row = [v + 1, label.replace(/[\t\r\n]/g, ' '), ...(site ? [w.pages[v]] : []), w.bytes[v], inUnits(w.bytes[v]!, unit)];
    out.line(row.join('\t'));
    v++;
  }
}

export const WRITERS: Record<GraphFormat, (g: LinkGraph, m: GraphModel, out: TextSink) => FormatSummary> = {
  metis: writeMetis,
  hmetis: writeHmetis,
  patoh: writePatoh,
  edgelist: writeEdgeList,
  graphml: writeGraphml,
};
