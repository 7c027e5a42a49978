/**
 * How PageRank moved between the crawls (docs/design.md section 4.9): each crawl's PageRank by page
 * id (its stored run, or computed in memory, never written into either crawl), then over the
 * pages fetched in both: Kendall's tau-b and Spearman's rho, top-k overlap, the biggest risers
 * and fallers, and the share of B's PageRank held by pages A already had (the thesis: 55% of
 * the pages held 72% of it); and each crawl's cumulative PageRank curve in fetch order.
 */
import { loadCrawlGraph } from '../ranking/crawl-graph.js';
import { metrics } from '../ranking/evaluate.js';
import { kendallTauB } from '../ranking/kendall.js';
import { DEFAULT_DAMPING, pagerank } from '../ranking/pagerank.js';
import { IN, type CrawlSide } from './crawl-side.js';
import type { PageJoin } from './page-join.js';
import type { CurvePoint, Mover, PageRankDiff } from './report.js';

export interface SidePageRank {
  /** By page id. */
  values: Float64Array;
  /** Pages in the PageRank graph (to compare values of graphs of different sizes). */
  nodes: number;
  source: 'stored' | 'computed';
}




/** The crawl's stored PageRank run if it is fresh, else PageRank computed in memory now. */
export function sidePageRank(side: CrawlSide): SidePageRank {
  const values = new Float64Array(side.maxId + 1);
  const run = side.reader.latestFreshRun('page');
  if (run) {
    let nodes = 0;
    for (const [id, v] of side.reader.pageRunValues(run.id)) {
      if (id <= side.maxId) values[id] = v;
      nodes++;
    }
    return { values, nodes, source: 'stored' };
  }
  const cg = loadCrawlGraph(side.reader);
  const { ranks } = pagerank(cg.graph, { damping: DEFAULT_DAMPING });
  for (let v = 0; v < cg.pageIds.length; v++) values[cg.pageIds[v]!] = ranks[v]!;
  return { values, nodes: cg.pageIds.length, source: 'computed' };
}

/** Average ranks (1-based), ties sharing the mean of their positions. */
function ranksOf(x: Float64Array): Float64Array {
  const order = Uint32Array.from(x.keys()).sort((i, j) => x[i]! - x[j]!);
  const r = new Float64Array(x.length);
  for (let i = 0; i < order.length; ) {
    let e = i;
    while (e + 1 < order.length && x[order[e + 1]!] === x[order[i]!]) e++;
    const mean = (i + e) / 2 + 1;
    for (let t = i; t <= e; t++) r[order[t]!] = mean;
    i = e + 1;
  }
  return r;
}

export function spearman(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  if (n < 2) return NaN;
  const rx = ranksOf(x);
  const ry = ranksOf(y);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** Ids of the k fetched pages of highest PageRank (ties by id). */
function topIds(side: CrawlSide, pr: Float64Array, k: number): number[] {
  const ids: number[] = [];
  for (let id = 1; id <= side.maxId; id++) if (side.cls[id] === IN && side.kept[id]) ids.push(id);
  ids.sort((i, j) => pr[j]! - pr[i]! || i - j);
  return ids.slice(0, k);
}

function topOverlap(a: CrawlSide, b: CrawlSide, pa: SidePageRank, pb: SidePageRank, k: number): number {
  const ta = topIds(a, pa.values, k);
  const tb = topIds(b, pb.values, k);
  const key = (side: CrawlSide, id: number) => `${side.fpHi[id]}:${side.fpLo[id]}`;
  const inA = new Set(ta.map((id) => key(a, id)));
  let both = 0;
  for (const id of tb) if (inA.has(key(b, id))) both++;
  return Math.min(ta.length, tb.length) > 0 ? both / Math.min(k, ta.length, tb.length) : NaN;
}

function movers(a: CrawlSide, b: CrawlSide, join: PageJoin, pa: SidePageRank, pb: SidePageRank, top: number): { risers: Mover[]; fallers: Mover[] } {
  const n = join.pairA.length;
  const change = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const va = pa.values[join.pairA[i]!]! * pa.nodes;
    const vb = pb.values[join.pairB[i]!]! * pb.nodes;
    change[i] = va > 0 && vb > 0 ? Math.log2(vb / va) : 0;
  }
  const order = Uint32Array.from(change.keys()).sort((i, j) => change[j]! - change[i]! || i - j);
  const mover = (i: number): Mover => ({
    url: a.reader.page(join.pairA[i]!, ['url'])!.url,
    pageRankA: pa.values[join.pairA[i]!]!,
    pageRankB: pb.values[join.pairB[i]!]!,
    change: change[i]!,
  });
  const risers = Array.from(order.subarray(0, Math.min(top, n))).filter((i) => change[i]! > 0).map(mover);
  const fallers = Array.from(order.subarray(Math.max(0, n - top)).reverse()).filter((i) => change[i]! < 0).map(mover);
  return { risers, fallers };
}

/** Cumulative PageRank (each crawl against its own) of the fetched pages in fetch order. */
function curve(side: CrawlSide, pr: SidePageRank): { points: CurvePoint[]; average: number } {
  const values: number[] = [];
  const times: number[] = [];
  for (const p of side.reader.pagesByFetch(['id', 'fetchedAt'])) {
    values.push(pr.values[p.id] ?? 0);
    times.push(p.fetchedAt ?? NaN);
  }
  const v = Float64Array.from(values);
  const total = v.reduce((s, x) => s + x, 0);
  if (total > 0) for (let i = 0; i < v.length; i++) v[i]! /= total;
  const m = metrics({ values: v, times: Float64Array.from(times) }, { points: 400 });
  const points = m.curve.map((c) => ({ pages: Math.round(c.fractionPages * v.length), fraction: c.fractionPages, cumulative: c.cumulativePageRank, best: c.upperBound, random: c.random }));
  return { points, average: m.averageCumulativePageRank };
}

function shares(b: CrawlSide, join: PageJoin, pb: SidePageRank): { pages: number; pageRank: number } {
  let all = 0;
  let old = 0;
  for (let id = 1; id <= b.maxId; id++) if (b.cls[id] === IN && b.kept[id]) all += pb.values[id]!;
  for (let i = 0; i < join.pairB.length; i++) old += pb.values[join.pairB[i]!]!;
  return { pages: join.inB > 0 ? join.both / join.inB : NaN, pageRank: all > 0 ? old / all : NaN };
}

export function diffPageRank(a: CrawlSide, b: CrawlSide, join: PageJoin, pa: SidePageRank, pb: SidePageRank, top: number): PageRankDiff {
  const n = join.pairA.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = pa.values[join.pairA[i]!]!;
    y[i] = pb.values[join.pairB[i]!]!;
  }
  const stride = Math.max(1, Math.ceil(n / 2000));
  const scatter: Array<[number, number]> = [];
  for (let i = 0; i < n; i += stride) scatter.push([x[i]! * pa.nodes, y[i]! * pb.nodes]);
  const s = shares(b, join, pb);
  const ca = curve(a, pa);
  const cb = curve(b, pb);
  return {
    sourceA: pa.source,
    sourceB: pb.source,
    common: n,
    kendallTauB: n > 1 ? kendallTauB(x, y) : NaN,
    spearmanRho: spearman(x, y),
    topK: [100, 1000].map((k) => ({ k, overlap: topOverlap(a, b, pa, pb, k) })),
    ...movers(a, b, join, pa, pb, top),
    pagesShareInA: s.pages,
    pageRankShareInA: s.pageRank,
    scatter,
    curveA: ca.points,
    curveB: cb.points,
    averageCumulativeA: ca.average,
    averageCumulativeB: cb.average,
  };
}
