import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parsePairs } from '../dataset/tsv.js';
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
}

const URL_RE = /^https?:\/\/[^/?#\s]+/i;

/**
 * Loads a simulator graph: a dataset folder (pages.tsv.gz + links.tsv.gz, as in
 * ../shared/datasets/) or a crawl database (every known page a node, its links the edges,
 * fetched sizes and the sites' measured connection and response times).
 */
export function loadSimGraph(source: string, mode: SiteKeyMode = 'host'): SimGraph {
  if (!existsSync(source)) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${source} does not exist`);
  if (statSync(source).isDirectory()) return loadDataset(source, mode);
  return loadCrawl(source, mode);
}

function loadDataset(dir: string, mode: SiteKeyMode): SimGraph {
  for (const f of ['pages.tsv.gz', 'links.tsv.gz']) {
    if (!existsSync(join(dir, f))) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir} has no ${f} (a dataset folder holds pages.tsv.gz and links.tsv.gz)`);
  }
  const text = gunzip(join(dir, 'pages.tsv.gz')).toString('utf8');
  const fileIds: number[] = [];
  const rawUrls: string[] = [];
  let lineNo = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    lineNo++;
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const id = tab > 0 ? Number(line.slice(0, tab)) : NaN;
    const url = tab > 0 ? line.slice(tab + 1).trim() : '';
    if (!Number.isInteger(id) || id < 0 || !URL_RE.test(url)) {
      throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/pages.tsv.gz line ${lineNo} is not id<TAB>http(s) URL`);
    }
    fileIds.push(id);
    rawUrls.push(url);
  }
  const n = fileIds.length;
  // Node = file id when the ids are 0..n-1 (the dataset's own numbering), else a renumbering.
  const dense = fileIds.every((id) => id < n);
  const nodeOf = new Map<number, number>();
  const urls: string[] = new Array(n);
  fileIds.forEach((id, row) => {
    const node = dense ? id : row;
    if (dense ? urls[node] !== undefined : nodeOf.has(id)) {
      throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/pages.tsv.gz lists page id ${id} twice`);
    }
    if (!dense) nodeOf.set(id, row);
    urls[node] = rawUrls[row]!;
  });

  let pairs;
  try {
    pairs = parsePairs(gunzip(join(dir, 'links.tsv.gz')), `${dir}/links.tsv.gz`);
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${(err as Error).message}`);
  }
  const { src, dst, count } = pairs;
  for (let i = 0; i < count; i++) {
    const a = dense ? src[i]! : (nodeOf.get(src[i]!) ?? -1);
    const b = dense ? dst[i]! : (nodeOf.get(dst[i]!) ?? -1);
    if (a < 0 || b < 0 || a >= n || b >= n) {
      throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/links.tsv.gz line ${i + 1} names a page not in pages.tsv.gz`);
    }
    src[i] = a;
    dst[i] = b;
  }
  const graph = cleanCsr(n, src, dst, count);
  return { source: dir, n, urls, graph, ...sitesOf(urls, mode), sizes: null, measured: null };
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

function gunzip(file: string): Buffer {
  try {
    return gunzipSync(readFileSync(file));
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: cannot read ${file} (${(err as Error).message})`);
  }
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

/** CSR in the order the pairs come (stable), without self-links or repeated (src, dst). */
function cleanCsr(n: number, src: Int32Array, dst: Int32Array, count: number): CsrGraph {
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < count; i++) offsets[src[i]! + 1]!++;
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  const cursor = offsets.slice(0, n);
  const raw = new Uint32Array(count);
  for (let i = 0; i < count; i++) raw[cursor[src[i]!]!++] = dst[i]!;
  const stamp = new Int32Array(n).fill(-1);
  const out = new Uint32Array(n + 1);
  let m = 0;
  for (let v = 0; v < n; v++) {
    for (let i = offsets[v]!; i < offsets[v + 1]!; i++) {
      const t = raw[i]!;
      if (t === v || stamp[t] === v) continue;
      stamp[t] = v;
      raw[m++] = t;
    }
    out[v + 1] = m;
  }
  return { n, offsets: out, targets: raw.slice(0, m) };
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
