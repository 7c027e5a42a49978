import { CrawlReader, type CrawlSource } from '../store/crawl-reader.js';
import type { CsrGraph } from './csr.js';

export interface SiteGraph {
  /** Weighted: the weight of s -> t is the number of page links from site s to site t. */
  graph: CsrGraph & { readonly weights: Float64Array };
  /** node -> sites.id (ascending). */
  siteIds: Int32Array;
}

/**
 * The site graph of a crawl: every sites row is a node; an edge s -> t (s != t) weighs the
 * number of links from a page of s to a page of t. Links inside a site are dropped.
 * Cross-site pairs are collected as keys s*N+t in a Float64Array, sorted and run-length
 * counted: a million cross-site links cost a sort of 8 MB instead of a million Map entries.
 * The graph is the crawl as of the reader's snapshot (a connection gets a reader of its own).
 */
export function loadSiteGraph(source: CrawlSource): SiteGraph {
  const reader = CrawlReader.of(source);
  const ids: number[] = [];
  for (const { id } of reader.sites([])) ids.push(id);
  const siteIds = Int32Array.from(ids);
  const n = siteIds.length;
  const siteNode = new Map<number, number>();
  for (let v = 0; v < n; v++) siteNode.set(siteIds[v]!, v);

  // page id -> site node (+1, so 0 means unknown page), by direct lookup: crawl ids are
  // dense (1, 2, 3...). Sparse ids (not made by CrawlStore) go through a Map instead.
  const maxPage = reader.snapshot.pageId;
  const pages = reader.pageCount();
  const dense = maxPage <= 4 * pages + (1 << 20);
  const pageSite = new Int32Array(dense ? maxPage + 1 : 0);
  const sparse = new Map<number, number>();
  for (const { ids: pageIds, siteIds: pageSites, length } of reader.pageSiteChunks()) {
    for (let i = 0; i < length; i++) {
      const node = (siteNode.get(pageSites[i]!) ?? -1) + 1;
      if (!dense) sparse.set(pageIds[i]!, node);
      else if (pageIds[i]! >= 0) pageSite[pageIds[i]!] = node;
    }
  }
  const siteOf = (id: number) => (dense ? (id >= 0 && id <= maxPage ? pageSite[id]! : 0) : (sparse.get(id) ?? 0)) - 1;

  let keys = new Float64Array(1 << 12);
  let m = 0;
  for (const { src, dst, length } of reader.linkChunks()) {
    if (m + length > keys.length) {
      const grown = new Float64Array(Math.max(m + length, keys.length * 2));
      grown.set(keys.subarray(0, m));
      keys = grown;
    }
    for (let i = 0; i < length; i++) {
      const a = siteOf(src[i]!);
      const b = siteOf(dst[i]!);
      if (a >= 0 && b >= 0 && a !== b) keys[m++] = a * n + b;
    }
  }
  const sorted = keys.subarray(0, m).sort();

  const offsets = new Uint32Array(n + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < m; ) {
    const key = sorted[i]!;
    let j = i + 1;
    while (j < m && sorted[j] === key) j++;
    const a = Math.floor(key / n);
    offsets[a + 1]!++;
    targets.push(key - a * n);
    weights.push(j - i);
    i = j;
  }
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  return { graph: { n, offsets, targets: Uint32Array.from(targets), weights: Float64Array.from(weights) }, siteIds };
}
