import { statSync } from 'node:fs';
import { badOption } from '../errors.js';
import { choCurve, crawlAndStopTable, thresholdTable, topTenthThreshold } from '../ranking/cho-models.js';
import { CHO_DAMPING, locationScore, paperThreshold } from '../ranking/importance.js';
import { checkMeasure, measureByUrl, type MeasureOptions } from '../ranking/measure.js';
import type { ChoPoint, MeasureInfo } from '../ranking/report.js';
import type { SimGraph } from './sim-graph.js';
import { inducedPageRank, reachable } from './truth.js';

/** The measure Cho et al.'s models score a simulated order by, over the reachable graph. */
export interface SimMeasure {
  info: MeasureInfo;
  /** Per node, on the measure's own scale (0 for a node not reachable from the seeds). */
  values: Float64Array;
  /** Similarity: 1 for a page hot by the topic rule; null otherwise. */
  hot: Uint8Array | null;
  /** The hot-page threshold on the values (1 with the topic rule). */
  g: number;
  /** The reachable pages' values in decreasing order: the top K of Crawl & Stop. */
  sorted: Float64Array;
  /** Hot pages among the reachable ones: Crawl & Stop with Threshold's H. */
  hotTotal: number;
  /** Pages in the sample of Kendall's tau (default 5,000, as Castillo). */
  tauSample?: number;
}

/** Cho et al.'s models for one simulated order. */
export interface ChoOutcome {
  crawlAndStop: Array<{ percent: number; k: number; share: number }>;
  threshold: { g: number; hotPages: number; fetched: Array<{ percent: number; share: number | null }> };
  curve: ChoPoint[];
}

/**
 * A measure over the simulator's graph (docs/design.md section 4.11), restricted to the part
 * reachable from the seeds as the simulator's truth is: PageRank is that truth, IB counts links
 * from reachable pages, IR is the reachable graph's PageRank with d = 0.9 summing to its N, IL
 * reads the URL, IS needs page text and so a crawl database as the graph.
 */
export function simMeasure(p: { g: SimGraph; seeds: readonly number[]; truth: Float64Array }, o: MeasureOptions & { threshold?: number; tauSample?: number }): SimMeasure {
  checkMeasure(o);
  const { g } = p;
  const keep = reachable(g.graph, p.seeds);
  const name = o.measure ?? 'pagerank';
  const info: MeasureInfo = { name, scale: '', damping: null, text: null, query: null, location: null, hot: 'threshold' };
  let values: Float64Array = new Float64Array(g.n);
  let hot: Uint8Array | null = null;
  if (name === 'pagerank') {
    values = p.truth.slice();
    info.scale = 'PageRank of the reachable graph, summing to 1';
  } else if (name === 'backlinks') {
    for (let v = 0; v < g.n; v++) {
      if (keep[v]) for (let k = g.graph.offsets[v]!; k < g.graph.offsets[v + 1]!; k++) values[g.graph.targets[k]!]!++;
    }
    info.scale = 'distinct reachable pages linking to the page';
  } else if (name === 'ir') {
    const damping = o.damping ?? CHO_DAMPING;
    let n = 0;
    for (let v = 0; v < g.n; v++) n += keep[v]!;
    values = inducedPageRank(g.graph, keep, damping);
    if ((o.scale ?? 'n') === 'n') for (let v = 0; v < g.n; v++) values[v]! *= n;
    Object.assign(info, { damping, scale: (o.scale ?? 'n') === 'n' ? `PageRank of the reachable graph summing to N = ${n}` : 'PageRank of the reachable graph summing to 1' });
  } else if (name === 'location') {
    const kind = o.location ?? 'slashes';
    g.urls.forEach((url, v) => (values[v] = locationScore(url, kind)));
    Object.assign(info, { location: kind, scale: kind === 'slashes' ? 'minus the slashes in the path' : `1 or 0 (${kind})` });
  } else {
    if (statSync(g.source).isDirectory()) throw badOption('--measure', 'similarity needs the pages\' text: give a crawl database as --graph (a dataset folder holds none)');
    const m = measureByUrl(g.source, o);
    hot = new Uint8Array(g.n);
    g.urls.forEach((url, v) => {
      values[v] = m.byUrl.get(url) ?? 0;
      hot![v] = m.hotUrls?.has(url) ? 1 : 0;
    });
    Object.assign(info, m.info);
  }
  for (let v = 0; v < g.n; v++) if (!keep[v]) values[v] = 0;
  const kept = values.filter((_, v) => keep[v] === 1);
  const gValue = hot ? 1 : (o.threshold ?? paperThreshold(name, info.damping ?? CHO_DAMPING, o.scale ?? 'n') ?? topTenthThreshold(kept));
  const judged = hot ?? values;
  let hotTotal = 0;
  for (let v = 0; v < g.n; v++) if (keep[v] && judged[v]! >= gValue) hotTotal++;
  return { info, values, hot, g: gValue, sorted: kept.sort().reverse(), hotTotal, tauSample: o.tauSample };
}

/** Crawl & Stop (with and without threshold) of a fetch order (nodes), as eval computes them. */
export function choOutcome(order: ArrayLike<number>, m: SimMeasure, points: number): ChoOutcome {
  const n = order.length;
  const v = new Float64Array(n);
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    v[i] = m.values[order[i]!]!;
    raw[i] = m.hot ? m.hot[order[i]!]! : v[i]!;
  }
  return {
    crawlAndStop: crawlAndStopTable(v, m.sorted),
    threshold: thresholdTable(raw, m.g, m.hotTotal),
    curve: choCurve(v, raw, m.g, points, { sorted: m.sorted, hotTotal: m.hotTotal }),
  };
}
