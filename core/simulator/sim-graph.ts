import { existsSync, statSync } from 'node:fs';
import { readDatasetFolder } from '../dataset/dataset-folder.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import type { CsrGraph } from '../ranking/csr.js';
import { loadCrawlGraph } from '../ranking/crawl-graph.js';
import { withCrawlReader } from '../store/crawl-reader.js';
import { siteKey, type SiteKeyMode } from '../url/site-key.js';

/** Measurements of a site taken from a real crawl (null where the crawl has none). */
export interface MeasuredSite {
  connectMs: number | null;
  responseMs: number | null;
  requestsPerConn: number | null;
}

/**
 * A stored web graph as the simulator replays it: pages (nodes 0..n-1) with their URL and
 * site, out-links in CSR (self-links and duplicates dropped, source order kept: it is the
 * order in which a crawler meets them), and what the source knows of sizes and servers.
 */
export interface SimGraph {
  source: string;
  n: number;
  urls: string[];
  graph: CsrGraph;
  /** Site index of every page; sites are numbered in order of their first page. */
  siteOf: Int32Array;
  /** Site keys (host, or registrable domain with --site-key domain). */
  sites: string[];
  /** Page sizes in bytes from the source (a crawl's stored sizes), else null: drawn. */
  sizes: Float64Array | null;
  /** Per-site measurements from a crawl database, else null: drawn. */
  measured: Array<MeasuredSite | null> | null;
  /**
   * The IP address of each site where the source records one (a crawl database made with
   * --per-ip keeps the address each site resolved to); absent or null: unknown, and the site
   * is taken to be alone on its address. Dataset folders record none.
   */
  addresses?: Array<string | null> | null;
  /**
   * The anchor text of each link, parallel to graph.targets (null where it has none), when the
   * source records them (a crawl database; sim-anchors.ts) and a policy reads them (topic).
   */
  anchors?: Array<string | null> | null;
}

/**
 * Loads a simulator graph: a dataset folder (pages.tsv.gz + links.tsv.gz, as
 * core/dataset/dataset-folder.ts reads it) or a crawl database (every known page a node, its
 * links the edges, fetched sizes and the sites' measured connection and response times).
 */
export function loadSimGraph(source: string, mode: SiteKeyMode = 'host'): SimGraph {
  if (!existsSync(source)) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${source} does not exist`);
  if (statSync(source).isDirectory()) return loadDataset(source, mode);
  return loadCrawl(source, mode);
}

function loadDataset(dir: string, mode: SiteKeyMode): SimGraph {
  const d = readDatasetFolder(dir);
  const graph: CsrGraph = { n: d.n, offsets: d.offsets, targets: d.targets };
  return { source: dir, n: d.n, urls: d.urls, graph, ...sitesOf(d.urls, mode), sizes: d.sizes, measured: null };
}

function loadCrawl(path: string, mode: SiteKeyMode): SimGraph {
  return withCrawlReader(path, (reader) => {
    const cg = loadCrawlGraph(reader);
    const n = cg.pageIds.length;
    const urls: string[] = new Array(n);
    const sizes = new Float64Array(n).fill(NaN);
    let v = 0;
    // Nodes are pages in id order (loadCrawlGraph), so one ordered stream lines rows up with nodes.
    for (const { url, bytes } of reader.pages(['url', 'bytes'])) {
      urls[v] = url;
      if (bytes !== null) sizes[v] = bytes;
      v++;
    }
    const sites = sitesOf(urls, mode);
    const byKey = new Map<string, MeasuredSite>();
    const ipByKey = new Map<string, string>();
    for (const { host, ip, connectMs, responseMs, requestsPerConn } of reader.sites(['host', 'ip', 'connectMs', 'responseMs', 'requestsPerConn'])) {
      byKey.set(host, { connectMs, responseMs, requestsPerConn });
      if (ip !== null) ipByKey.set(host, ip);
    }
    const measured = sites.sites.map((key) => byKey.get(key) ?? null);
    const addresses = sites.sites.map((key) => ipByKey.get(key) ?? null);
    return { source: path, n, urls, graph: cg.graph, ...sites, sizes, measured, addresses };
  });
}

function sitesOf(urls: string[], mode: SiteKeyMode): { siteOf: Int32Array; sites: string[] } {
  const index = new Map<string, number>();
  const sites: string[] = [];
  const siteOf = new Int32Array(urls.length);
  for (let v = 0; v < urls.length; v++) {
    const key = siteKey(urls[v]!, mode);
    let s = index.get(key);
    if (s === undefined) {
      s = sites.length;
      index.set(key, s);
      sites.push(key);
    }
    siteOf[v] = s;
  }
  return { siteOf, sites };
}

/** Seeds: each site's home page `/`, or its shortest URL where `/` is absent (ties: lower node). */
export function defaultSeeds(g: SimGraph): number[] {
  const best = new Int32Array(g.sites.length).fill(-1);
  const isHome = (url: string) => /^https?:\/\/[^/?#]+\/?$/i.test(url);
  for (let v = 0; v < g.n; v++) {
    const s = g.siteOf[v]!;
    const b = best[s]!;
    if (b < 0) {
      best[s] = v;
      continue;
    }
    const bu = g.urls[b]!;
    const vu = g.urls[v]!;
    if (isHome(bu)) continue;
    if (isHome(vu) || vu.length < bu.length) best[s] = v;
  }
  return Array.from(best).filter((v) => v >= 0);
}
