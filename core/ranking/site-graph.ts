import type Database from 'better-sqlite3';
import type { CsrGraph } from './csr.js';
import { forEachLinkChunk, scanRanges } from './link-reader.js';

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
 */
export function loadSiteGraph(db: Database.Database): SiteGraph {
  const siteIds = Int32Array.from(db.prepare('SELECT id FROM sites ORDER BY id').pluck().all() as number[]);
  const n = siteIds.length;
  const siteNode = new Map<number, number>();
  for (let v = 0; v < n; v++) siteNode.set(siteIds[v]!, v);

  // page id -> site node (+1, so 0 means unknown page), by direct lookup: crawl ids are
  // dense (1, 2, 3...). Sparse ids (not made by CrawlStore) go through a Map instead.
  const maxPage = (db.prepare('SELECT max(id) FROM pages').pluck().get() as number | null) ?? 0;
  const pages = db.prepare('SELECT count(*) FROM pages').pluck().get() as number;
  const dense = maxPage <= 4 * pages + (1 << 20);
  const pageSite = new Int32Array(dense ? maxPage + 1 : 0);
  const sparse = new Map<number, number>();
  scanRanges(db, 'pages', ['id', 'site_id'], '', ({ cols, length }) => {
    for (let i = 0; i < length; i++) {
      const node = (siteNode.get(cols[1]![i]!) ?? -1) + 1;
      if (!dense) sparse.set(cols[0]![i]!, node);
      else if (cols[0]![i]! >= 0) pageSite[cols[0]![i]!] = node;
    }
  });
  const siteOf = (id: number) => (dense ? (id >= 0 && id <= maxPage ? pageSite[id]! : 0) : (sparse.get(id) ?? 0)) - 1;

  let keys = new Float64Array(1 << 12);
  let m = 0;
  forEachLinkChunk(db, (src, dst, length) => {
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
  });
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
