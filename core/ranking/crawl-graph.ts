import { CrawlReader, withCrawlReader, type CrawlSource } from '../store/crawl-reader.js';
import { csrFromRuns, newLinkRuns, pushLink } from '../store/link-ranges.js';
import type { CsrGraph } from './csr.js';
import { DEFAULT_DAMPING, pagerank } from './pagerank.js';

export interface CrawlGraph {
  graph: CsrGraph;
  /** node -> pages.id (ascending, so node order is page-id order). */
  pageIds: Int32Array;
  /** pages.id -> node. Built on first access: a million-entry Map costs more than the load. */
  nodeOf: Map<number, number>;
}

/** Ids beyond this use a Map instead of a direct lookup array (a crawl's ids are dense). */
const DIRECT_LIMIT = 1 << 27;

/**
 * The link graph of a crawl database: every page row is a node (fetched or only known),
 * every links row an edge (dedupe (src,dst); drop self-links; nofollow links included).
 * With fetchedOnly, only pages with a stored fetch result (fetch_seq) and links between them.
 * threads: how many threads read the links (default: up to 4 for 200,000 pages or more).
 * The graph is the crawl as of the reader's snapshot (a connection gets a reader of its own).
 */
export function loadCrawlGraph(source: CrawlSource, opts: { fetchedOnly?: boolean; threads?: number } = {}): CrawlGraph {
  const reader = CrawlReader.of(source);
  const n = reader.pageCount(opts);
  // Ids come from CrawlStore, 1, 2, 3...; Int32Array keeps the node -> id map at 4 bytes a page.
  const pageIds = new Int32Array(n);
  let count = 0;
  for (const { ids, length } of reader.pageIdChunks(opts)) {
    for (let i = 0; i < length; i++) {
      if (ids[i]! > 0x7fffffff || ids[i]! < 0) throw new RangeError(`page id ${ids[i]} is beyond 2^31: not a crawlbench id`);
      pageIds[count++] = ids[i]!;
    }
  }
  if (count !== n) throw new Error(`pages changed while loading (${count} of ${n})`);
  const maxId = n > 0 ? pageIds[n - 1]! : 0;
  const graph = maxId < DIRECT_LIMIT ? loadDense(reader, pageIds, maxId, opts.threads) : loadSparse(reader, pageIds);
  let nodeOf: Map<number, number> | undefined;
  return {
    graph,
    pageIds,
    get nodeOf() {
      if (!nodeOf) {
        nodeOf = new Map();
        for (let v = 0; v < n; v++) nodeOf.set(pageIds[v]!, v);
      }
      return nodeOf;
    },
  };
}

/**
 * The usual case, ids below DIRECT_LIMIT: page id -> node by a direct lookup table, links
 * read by the reader's readLinkTargets (on several threads for large crawls, so the table
 * lives in shared memory). The node order follows the page ids.
 */
function loadDense(reader: CrawlReader, pageIds: Int32Array, maxId: number, threads?: number): CsrGraph {
  const n = pageIds.length;
  const table = new Int32Array(new SharedArrayBuffer(4 * (maxId + 1))).fill(-1);
  for (let v = 0; v < n; v++) table[pageIds[v]!] = v;
  const outdeg = new Uint32Array(Math.max(1, n));
  const { targets } = reader.readLinkTargets(pageIds, table, outdeg, threads);
  const offsets = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v]! + outdeg[v]!;
  if (targets.length !== offsets[n]) throw new Error(`links changed while loading (${targets.length} targets, ${offsets[n]} counted)`);
  return { n, offsets, targets };
}

/** Page ids too large for a lookup table (not made by CrawlStore): a Map, one thread. */
function loadSparse(reader: CrawlReader, pageIds: Int32Array): CsrGraph {
  const n = pageIds.length;
  const map = new Map<number, number>();
  for (let v = 0; v < n; v++) map.set(pageIds[v]!, v);
  const runs = newLinkRuns();
  for (const { src, dst, length } of reader.linkChunks()) {
    for (let i = 0; i < length; i++) {
      const a = map.get(src[i]!) ?? -1;
      const b = map.get(dst[i]!) ?? -1;
      if (a >= 0 && b >= 0 && a !== b) pushLink(runs, a, b);
    }
  }
  const outdeg = new Uint32Array(Math.max(1, n));
  const targets = csrFromRuns([runs], outdeg);
  const offsets = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v]! + outdeg[v]!;
  return { n, offsets, targets };
}

/**
 * Opens a crawl database file read-only and returns its pages' PageRank by canonical URL
 * (computing it if no stored result exists, or the stored one predates the last fetch or
 * used another damping). Throws CrawlError DB_NOT_A_CRAWL / DB_MISSING for bad files.
 */
export function pageRankByUrl(dbPath: string, opts: { damping?: number } = {}): Map<string, number> {
  return withCrawlReader(dbPath, (reader) => {
    const run = reader.latestFreshRun('page', opts.damping);
    if (run) return new Map(reader.pageRunByUrl(run.id));
    const cg = loadCrawlGraph(reader);
    const { ranks } = pagerank(cg.graph, { damping: opts.damping ?? DEFAULT_DAMPING });
    // Nodes are pages in id order, so the same ordered stream lines URLs up with ranks.
    const out = new Map<string, number>();
    let v = 0;
    for (const { url } of reader.pages(['url'])) out.set(url, ranks[v++]!);
    return out;
  });
}
