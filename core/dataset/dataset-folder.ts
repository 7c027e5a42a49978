/**
 * A dataset folder: `pages.tsv.gz` (id<TAB>url, optionally <TAB>bytes) and `links.tsv.gz`
 * (src<TAB>dst), such as the UCI ICS web graph of docs/results.md (not shipped with
 * crawlbench: its terms forbid republishing it; the tests find it through CRAWLBENCH_UCI, the
 * folder holding its two files). Read by the simulator (to replay policies)
 * and by the graph exports (to partition the graph), which is why it lives here and not in
 * either of them. Nodes are 0..n-1: the file's own ids when they are 0..n-1, else the rows
 * in file order. Links become CSR in file order, self-links and repeated pairs dropped.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { DATASET_LIMITS, gunzipDatasetFile, parsePairs } from './tsv.js';

export interface DatasetGraph {
  dir: string;
  n: number;
  urls: string[];
  /** Page sizes in bytes from a third column of pages.tsv.gz; null when the file has none. */
  sizes: Float64Array | null;
  /** Out-links of node v: targets[offsets[v] .. offsets[v+1]) (no self-links, no repeats). */
  offsets: Uint32Array;
  targets: Uint32Array;
}

const URL_RE = /^https?:\/\/[^/?#\s]+/i;

export function readDatasetFolder(dir: string): DatasetGraph {
  for (const f of ['pages.tsv.gz', 'links.tsv.gz']) {
    if (!existsSync(join(dir, f))) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir} has no ${f} (a dataset folder holds pages.tsv.gz and links.tsv.gz)`);
  }
  const { fileIds, urls: rawUrls, sizes: rawSizes } = readPages(dir);
  const n = fileIds.length;
  // An empty graph simulated to NaN in every column, and exited 0.
  if (n === 0) throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/pages.tsv.gz lists no page (a dataset folder lists its pages as id<TAB>URL, one a line)`);
  // Node = file id when the ids are 0..n-1 (the dataset's own numbering), else a renumbering.
  const dense = fileIds.every((id) => id < n);
  const nodeOf = new Map<number, number>();
  const urls: string[] = new Array(n);
  const sizes = rawSizes ? new Float64Array(n) : null;
  fileIds.forEach((id, row) => {
    const node = dense ? id : row;
    if (dense ? urls[node] !== undefined : nodeOf.has(id)) {
      throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/pages.tsv.gz lists page id ${id} twice`);
    }
    if (!dense) nodeOf.set(id, row);
    urls[node] = rawUrls[row]!;
    if (sizes) sizes[node] = rawSizes![row]!;
  });

  let pairs;
  try {
    pairs = parsePairs(gunzip(dir, 'links.tsv.gz'), `${dir}/links.tsv.gz`);
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
  return { dir, n, urls, sizes, ...cleanCsr(n, src, dst, count) };
}

/** Rows of pages.tsv.gz: id<TAB>url, or id<TAB>url<TAB>bytes in every row. */
function readPages(dir: string): { fileIds: number[]; urls: string[]; sizes: number[] | null } {
  const text = gunzip(dir, 'pages.tsv.gz').toString('utf8');
  const fileIds: number[] = [];
  const urls: string[] = [];
  let sizes: number[] | null = null;
  let lineNo = 0;
  let start = 0;
  const bad = (what: string) => new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${dir}/pages.tsv.gz line ${lineNo} ${what}`);
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    lineNo++;
    if (line === '') continue;
    const cols = line.split('\t');
    const id = cols.length >= 2 ? Number(cols[0]) : NaN;
    const url = cols[1]?.trim() ?? '';
    if (cols.length > 3 || !Number.isInteger(id) || id < 0 || !URL_RE.test(url)) throw bad('is not id<TAB>http(s) URL[<TAB>bytes]');
    if (fileIds.length === 0 && cols.length === 3) sizes = [];
    if ((sizes !== null) !== (cols.length === 3)) throw bad(`has ${cols.length} columns where the first row has ${sizes ? 3 : 2}`);
    if (sizes) {
      const bytes = Number(cols[2]);
      if (cols[2]!.trim() === '' || !Number.isFinite(bytes) || bytes < 0) throw bad(`has a size "${cols[2]}" that is not a number of bytes`);
      sizes.push(bytes);
    }
    fileIds.push(id);
    urls.push(url);
  }
  return { fileIds, urls, sizes };
}

function gunzip(dir: string, name: keyof typeof DATASET_LIMITS): Buffer {
  try {
    return gunzipDatasetFile(dir, name);
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_GRAPH, `--graph: ${(err as Error).message}`);
  }
}

/** CSR in the order the pairs come (stable), without self-links or repeated (src, dst). */
function cleanCsr(n: number, src: Int32Array, dst: Int32Array, count: number): { offsets: Uint32Array; targets: Uint32Array } {
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
  return { offsets: out, targets: raw.slice(0, m) };
}
