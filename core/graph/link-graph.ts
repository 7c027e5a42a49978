/**
 * The link graph the partitioning models are built from: pages 0..n-1 with their out-links
 * (CSR, no self-links, no repeated pairs), and per page only what the models need: the byte
 * length of its URL (a link's cost is its target's URL, the string one processor sends
 * another), its size, its site and a hash of its URL. The URLs themselves are not held: they
 * are read again from the source, in node order, when an id map or GraphML is written. So a
 * 5-million-page crawl costs about 40 bytes a page and 8 bytes a link (the links twice while a
 * model needs them in both directions), not the gigabytes of five million strings.
 *
 * Sources, as `simulate --graph` takes them: a crawl database (every page known at the
 * reader's snapshot, or only fetched ones, read through core/store's CrawlReader) or a dataset
 * folder (core/dataset).
 */
import { existsSync, statSync } from 'node:fs';
import { readDatasetFolder } from '../dataset/dataset-folder.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { Numbering } from '../numbering.js';
import { loadCrawlGraph } from '../ranking/crawl-graph.js';
import { CrawlReader } from '../store/crawl-reader.js';
import { siteKey } from '../url/site-key.js';
import { fnv1a } from './hash.js';

/** The size given to a page whose source records none: 9.89 KB, the average page of the thesis's crawl. */
export const DEFAULT_PAGE_BYTES = 10_127;

export interface LinkGraph {
  /** The --graph argument. */
  source: string;
  kind: 'crawl' | 'dataset';
  /** Pages (nodes 0..n-1: page id order in a crawl, the file's order in a dataset). */
  n: number;
  /** Out-links of page v: targets[offsets[v] .. offsets[v+1]). */
  offsets: Uint32Array;
  targets: Uint32Array;
  /** Bytes of each page's URL in UTF-8. */
  urlBytes: Uint32Array;
  /** Each page's size in bytes (defaultSize where the source records none). */
  sizes: Float64Array;
  /** Pages whose size the source records. */
  sizesKnown: number;
  defaultSize: number;
  /** Site index of every page; sites are numbered in order of their first page. */
  siteOf: Int32Array;
  /** Site names (host names). */
  sites: string[];
  /** FNV-1a (32-bit, UTF-8) of each page's URL, and of each site's name: the hash baseline. */
  pageHash: Uint32Array;
  siteHash: Uint32Array;
  /** The pages' URLs in node order, read again from the source. */
  urls(): Iterable<string>;
  /** Releases the source (a crawl's reader). */
  close(): void;
}

export interface LoadOptions {
  /** Bytes for a page whose size is not recorded (default DEFAULT_PAGE_BYTES). */
  defaultSize?: number;
  /** A crawl: only pages fetched by its snapshot, and the links between them. */
  fetchedOnly?: boolean;
}

export function loadLinkGraph(source: string, opts: LoadOptions = {}): LinkGraph {
  if (!existsSync(source)) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${source} does not exist`);
  const defaultSize = opts.defaultSize ?? DEFAULT_PAGE_BYTES;
  return statSync(source).isDirectory() ? fromDataset(source, defaultSize) : fromCrawl(source, defaultSize, opts.fetchedOnly ?? false);
}

function fromDataset(dir: string, defaultSize: number): LinkGraph {
  const d = readDatasetFolder(dir);
  const sites = new SiteIndex();
  const urlBytes = new Uint32Array(d.n);
  const pageHash = new Uint32Array(d.n);
  const siteOf = new Int32Array(d.n);
  for (let v = 0; v < d.n; v++) {
    const url = d.urls[v]!;
    urlBytes[v] = Buffer.byteLength(url);
    pageHash[v] = fnv1a(url);
    siteOf[v] = sites.of(siteKey(url, 'host'));
  }
  const sizes = d.sizes ?? new Float64Array(d.n).fill(defaultSize);
  return {
    source: dir,
    kind: 'dataset',
    n: d.n,
    offsets: d.offsets,
    targets: d.targets,
    urlBytes,
    sizes,
    sizesKnown: d.sizes ? d.n : 0,
    defaultSize,
    siteOf,
    sites: sites.names,
    pageHash,
    siteHash: sites.hashes(),
    urls: () => d.urls,
    close: () => {},
  };
}

function fromCrawl(path: string, defaultSize: number, fetchedOnly: boolean): LinkGraph {
  const reader = CrawlReader.open(path);
  try {
    const cg = loadCrawlGraph(reader, { fetchedOnly });
    const n = cg.pageIds.length;
    const hostOfSite = new Map<number, string>();
    for (const { id, host } of reader.sites(['host'])) hostOfSite.set(id, host);
    const sites = new SiteIndex();
    const urlBytes = new Uint32Array(n);
    const pageHash = new Uint32Array(n);
    const siteOf = new Int32Array(n);
    const sizes = new Float64Array(n);
    let sizesKnown = 0;
    let v = 0;
    // Nodes are pages in id order (loadCrawlGraph), so one ordered stream lines rows up with nodes.
    for (const { id, url, bytes, siteId } of reader.pages(['url', 'bytes', 'siteId'], { fetchedOnly })) {
      if (v >= n || cg.pageIds[v] !== id) throw new Error(`pages changed while loading (page ${id} at node ${v})`);
      urlBytes[v] = Buffer.byteLength(url);
      pageHash[v] = fnv1a(url);
      siteOf[v] = sites.of(hostOfSite.get(siteId) ?? siteKey(url, 'host'));
      if (bytes !== null) sizesKnown++;
      sizes[v++] = bytes ?? defaultSize;
    }
    if (v !== n) throw new Error(`pages changed while loading (${v} of ${n})`);
    return {
      source: path,
      kind: 'crawl',
      n,
      offsets: cg.graph.offsets,
      targets: cg.graph.targets,
      urlBytes,
      sizes,
      sizesKnown,
      defaultSize,
      siteOf,
      sites: sites.names,
      pageHash,
      siteHash: sites.hashes(),
      *urls() {
        for (const { url } of reader.pages(['url'], { fetchedOnly })) yield url;
      },
      close: () => reader.close(),
    };
  } catch (err) {
    reader.close();
    throw err;
  }
}

/** Site names to dense indexes, in order of first appearance, with each name's hash for site assignments. */
class SiteIndex extends Numbering {
  hashes(): Uint32Array {
    return Uint32Array.from(this.names, fnv1a);
  }
}

/** Links of the graph (distinct, no self-links). */
export function linkCount(g: LinkGraph): number {
  return g.offsets[g.n]!;
}
