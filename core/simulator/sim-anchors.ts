import { statSync } from 'node:fs';
import { withCrawlReader } from '../store/crawl-reader.js';
import { anchoredLinks } from '../store/link-anchors.js';
import type { SimGraph } from './sim-graph.js';

/**
 * The anchor text of each link of a simulator graph (parallel to its CSR targets; null where a
 * link has none), from a crawl database; null for a dataset folder, whose files carry no anchor
 * texts. The graph's nodes are the crawl's pages in id order (sim-graph.ts), so a page id maps
 * to a node by its rank among the ids.
 */
export function loadAnchors(g: SimGraph): Array<string | null> | null {
  if (statSync(g.source).isDirectory()) return null;
  return withCrawlReader(g.source, (reader) => {
    const nodeOf = new Map<number, number>();
    let v = 0;
    for (const p of reader.pages([])) nodeOf.set(p.id, v++);
    const { offsets, targets } = g.graph;
    const anchors: Array<string | null> = new Array(targets.length).fill(null);
    for (const { src, dst, anchor } of anchoredLinks(reader)) {
      const s = nodeOf.get(src);
      const t = nodeOf.get(dst);
      if (s === undefined || t === undefined) continue;
      for (let k = offsets[s]!; k < offsets[s + 1]!; k++) {
        if (targets[k] === t) {
          anchors[k] = anchor;
          break;
        }
      }
    }
    return anchors;
  });
}
