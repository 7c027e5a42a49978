/**
 * partition-eval's prediction of the link exchange for the assignment of a parallel crawl,
 * on an earlier crawl's graph: the very metrics partition-eval prints (core/graph/evaluate.ts:
 * messages = distinct (page, remote part) pairs, volume = bytes of the URLs of the links that
 * cross parts), with each vertex given the part the crawl's assignment gives it. A page model's
 * URL that the vector does not name (the discovering worker's in the crawl) goes by the hash.
 */
import { evaluateAssignment, type PartitionMetrics } from '../graph/evaluate.js';
import { loadLinkGraph } from '../graph/link-graph.js';
import { fnv1a, hashPart } from '../graph/hash.js';
import { DISCOVERER, type Assignment } from './assignment.js';

export interface Prediction extends PartitionMetrics {
  source: string;
  pages: number;
}

export function predictExchange(earlier: string, a: Assignment): Prediction {
  const g = loadLinkGraph(earlier);
  try {
    const labels = a.model === 'site' ? g.sites : [...g.urls()];
    const parts = new Uint32Array(labels.length);
    labels.forEach((label, v) => {
      const p = a.ownerOfLabel(label);
      parts[v] = p === DISCOVERER ? hashPart(fnv1a(label), a.k) : p;
    });
    return { source: earlier, pages: g.n, ...evaluateAssignment(g, a.model, a.k, parts) };
  } finally {
    g.close();
  }
}
